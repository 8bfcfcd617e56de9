// The XML decoder fed random and mutated XML. Whatever comes in, each of
// decodeCodes, decodeRefactors and decodeCode either returns values of exactly the model's shape or
// throws a DecodeError with a one-line message: never another exception, never a malformed object.
// At least 10,000 cases a run, within a time limit that fails the run if reached. A failure prints
// fast-check's seed and path; FUZZ_SEED=<seed> replays a run.

import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DecodeError } from '../../../src/core/errors';
import { decodeCode, decodeCodes, decodeRefactors } from '../../../src/core/xmlDecode';
import { checkCode, checkList, checkRefactor } from '../../hostile/modelShape';
import { mutatedResponse, pieceSoup, seedResponses } from '../../hostile/mutations';

const KINDS = new Set<DecodeError['kind']>(['not-xml', 'invalid-xml', 'wrong-root', 'type-mismatch']);
// About 7 s on an idle 2-core machine; the bound leaves room for a machine shared with other runs.
const TIME_LIMIT_MS = 60_000;
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() ^ (Math.random() * 0x100000000);

const DECODERS: [string, (xml: string) => unknown, (v: unknown) => void][] = [
  ['decodeCodes', decodeCodes, (v) => checkList(v, (c, w) => checkCode(c, w, false), 'codes')],
  ['decodeRefactors', decodeRefactors, (v) => checkList(v, checkRefactor, 'refactors')],
  ['decodeCode', decodeCode, (v) => checkCode(v, 'code', true)],
];

/** Runs every decoder on `xml`; returns how many accepted it. */
function decodeAll(xml: string): number {
  let accepted = 0;
  for (const [name, decode, check] of DECODERS) {
    let value: unknown;
    try {
      value = decode(xml);
    } catch (e) {
      assert.ok(e instanceof DecodeError, `${name} threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
      assert.ok(KINDS.has(e.kind), `${name}: kind ${e.kind}`);
      assert.ok(e.message.length > 0 && !/[\r\n]/.test(e.message), `${name}: one-line message, got ${JSON.stringify(e.message)}`);
      continue;
    }
    check(value);
    accepted++;
  }
  return accepted;
}

describe('fuzz: the XML decoder on random and mutated XML', function () {
  this.timeout(2 * TIME_LIMIT_MS + 10_000);
  const seeds = seedResponses();
  const params = (numRuns: number): fc.Parameters<[string]> => ({
    numRuns,
    seed,
    interruptAfterTimeLimit: TIME_LIMIT_MS,
    markInterruptAsFailure: true,
  });

  before(() => {
    // The seeds themselves decode cleanly, so the mutations start from what the service really sends.
    for (const xml of seeds) assert.ok(decodeAll(xml) >= 1, xml.slice(0, 200));
  });

  it('mutated real responses: 10,000 cases, each through all three decoders', () => {
    let accepted = 0;
    fc.assert(fc.property(mutatedResponse(seeds), (xml) => {
      accepted += decodeAll(xml) > 0 ? 1 : 0;
    }), params(10_000));
    // Mutations that leave a body decodable must occur, or the test would only ever see errors.
    assert.ok(accepted > 100, `only ${accepted} mutated bodies decoded`);
    console.log(`      seed ${seed}: ${accepted} of 10,000 mutated bodies still decoded`);
  });

  it('strings of XML pieces and random text: 5,000 cases, each through all three decoders', () => {
    fc.assert(fc.property(pieceSoup(), (xml) => {
      decodeAll(xml);
    }), params(5000));
  });
});
