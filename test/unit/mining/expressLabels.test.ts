// The mining rules on real rewrites: a labelled sample of Express's history (test/fixtures/mining,
// MIT; docs/benchmarks.md, "Mining", says how it was drawn and read). The two textbook refactorings
// a rule once dropped for changing their structure whole are kept, and the rules' precision and
// recall on the labelled set stay at 80% or more.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeGrammarFiles } from '../../../src/cli/grammarFiles';
import { keepsRewrite } from '../../../src/mining/miner';
import { Grammars } from '../../../src/similarity/grammars';
import { Tokenizers } from '../../../src/similarity/tokenize';

const FIXTURES = path.resolve(__dirname, '../../../../test/fixtures/mining');
interface Rewrite { commit: string; file: string; function: string; message: string; before: string; after: string }
interface Label { sample: 'uniform' | 'message' | 'chosen'; commit: string; file: string; function: string; refactoring: boolean; reason: string }
const rewrites = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'express-rewrites.json'), 'utf8')) as Rewrite[];
const labels = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'express-labels.json'), 'utf8')) as Label[];
const tokenizers = new Tokenizers(new Grammars(nodeGrammarFiles()));
const kept = (r: Rewrite): Promise<boolean> => keepsRewrite(tokenizers, { before: r.before, after: r.after, language: 'JavaScript', message: r.message });
const find = (commit: string, name: string): Rewrite => {
  const found = rewrites.find((r) => r.commit.startsWith(commit) && r.function === name);
  assert.ok(found, `${commit} ${name} is in the fixture`);
  return found;
};

describe('mining: the rules on a labelled sample of Express history', function () {
  this.timeout(60_000);

  it('holds one rewrite per label, each seen by `mine --all`, of every sample', async () => {
    assert.equal(rewrites.length, labels.length);
    for (const [i, l] of labels.entries()) {
      assert.deepEqual([rewrites[i].commit, rewrites[i].file, rewrites[i].function], [l.commit, l.file, l.function], `label ${i}`);
      assert.ok(l.reason.length > 0, `label ${i} says why`);
      assert.ok(await keepsRewrite(tokenizers, { ...rewrites[i], language: 'JavaScript' }, true), `${l.commit} ${l.function} is a rewrite --all keeps`);
    }
    assert.ok(labels.filter((l) => l.sample === 'uniform').length >= 60);
  });

  it('keeps the textbook rewrites: a loop pushing into an array made map, .apply made a spread', async () => {
    const normalizeTypes = find('511d9dfc', 'exports.normalizeTypes');
    assert.match(normalizeTypes.before, /for \(var i = 0; i < types\.length; \+\+i\)/);
    assert.match(normalizeTypes.after, /return types\.map\(exports\.normalizeType\);/);
    assert.ok(await kept(normalizeTypes));
    const acceptsLanguages = find('3dc96995', 'req.acceptsLanguages');
    assert.match(acceptsLanguages.after, /accepts\(this\)\.languages\(\.\.\.languages\)/);
    assert.ok(await kept(acceptsLanguages));
  });

  it('keeps refactorings with a precision and a recall of 80% or more on the labelled set', async () => {
    const counts = { kept: 0, right: 0, refactorings: 0 };
    const wrong: string[] = [];
    for (const [i, l] of labels.entries()) {
      const k = await kept(rewrites[i]);
      if (k) counts.kept++;
      if (l.refactoring) counts.refactorings++;
      if (k && l.refactoring) counts.right++;
      if (k !== l.refactoring) wrong.push(`${k ? 'kept' : 'left out'}: ${l.commit.slice(0, 8)} ${l.function} (${l.reason})`);
    }
    const precision = counts.right / counts.kept;
    const recall = counts.right / counts.refactorings;
    const says = `precision ${counts.right}/${counts.kept}, recall ${counts.right}/${counts.refactorings}; wrong:\n${wrong.join('\n')}`;
    assert.ok(precision >= 0.8 && recall >= 0.8, says);
  });
});
