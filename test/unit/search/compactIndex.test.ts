// The compact saved form of MiniSearch, whose postings are read only when a search first reaches
// their term: every search of an index read back answers exactly as MiniSearch's own (eager) loader
// over the same saved content does, and as the index before saving did up to the order of equal
// things, also after changes made once it is read; saving it again gives the same form; and no saved text,
// however malformed, makes a search throw.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as fc from 'fast-check';
import MiniSearch, { type Options, type SearchOptions, type SearchResult } from 'minisearch';
import { CompactFormError, CompactMiniSearch, type CompactForm } from '../../../src/search/compactIndex';

interface Doc {
  id: number;
  title: string;
  text: string;
}

const OPTIONS: Options<Doc> = { fields: ['title', 'text'], autoVacuum: false };

/** Few words, so that queries meet them, with shared prefixes and one-letter differences for prefix and typo matches. */
const WORDS = ['parse', 'parser', 'parsing', 'pass', 'path', 'list', 'lists', 'lust', 'log', 'logger', 'line', 'lines', 'sum', 'some', 'array'];
const words = (max: number): fc.Arbitrary<string> => fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: max }).map((w) => w.join(' '));

type Op = { kind: 'add' | 'replace'; doc: Doc } | { kind: 'discard'; id: number };

const ops: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constantFrom('add' as const, 'replace' as const), doc: fc.record({ id: fc.integer({ min: 1, max: 12 }), title: words(3), text: words(8) }) }),
    fc.record({ kind: fc.constant('discard' as const), id: fc.integer({ min: 1, max: 12 }) }),
  ),
  { maxLength: 30 },
);

const queries = fc.array(fc.tuple(fc.constantFrom(...WORDS, 'pa', 'li', 'lo', 'parze', 'lisst', 'xyz').chain((w) => fc.constant(w)), words(1)).map(([a, b]) => `${a} ${b}`.trim()), { minLength: 1, maxLength: 4 });

const SEARCHES: SearchOptions[] = [
  {},
  { prefix: true },
  { fuzzy: 0.2 },
  { prefix: true, fuzzy: 1, combineWith: 'AND', boost: { title: 3 } },
];

/** Applies what it can of `list` (MiniSearch refuses adding an id it has, or changing one it has not). */
function apply(index: MiniSearch<Doc>, list: readonly Op[]): void {
  for (const op of list) {
    if (op.kind === 'discard') {
      if (index.has(op.id)) index.discard(op.id);
    } else if (index.has(op.doc.id)) {
      index.replace(op.doc);
    } else {
      index.add(op.doc);
    }
  }
}

function readBack(index: CompactMiniSearch<Doc>): CompactMiniSearch<Doc> {
  return CompactMiniSearch.fromCompact(JSON.parse(JSON.stringify(index.toCompact())), OPTIONS);
}

/**
 * A result with what may differ between an index and one read back from its terms: the order in
 * which terms are met (a radix tree read back lists a node's branches in another order, MiniSearch's
 * own loadJSON too), hence the last bits of a sum of scores and the order of equal scores.
 */
function loosely(results: SearchResult[]): unknown[] {
  return results
    .map((r) => ({ id: r.id as number, score: r.score.toPrecision(10), terms: [...r.terms].sort(), queryTerms: [...r.queryTerms].sort(), match: r.match }))
    .sort((a, b) => (a.score === b.score ? a.id - b.id : Number(b.score) - Number(a.score)));
}

/** The same saved content read by MiniSearch's own loader, every posting made a Map at once. */
function eagerOf(form: CompactForm): MiniSearch<Doc> {
  const documentIds: Record<number, unknown> = {};
  for (let i = 0; i < form.ids.length; i += 2) documentIds[form.ids[i] as number] = form.ids[i + 1];
  const fieldCount = Object.keys(form.fieldIds).length;
  const fieldLength: Record<number, number[]> = {};
  for (let i = 0; i < form.lengths.length; i += fieldCount + 1) fieldLength[form.lengths[i]] = form.lengths.slice(i + 1, i + 1 + fieldCount);
  // Given in reverse, as fromCompact adds them, so that both trees list a node's branches alike.
  const index = form.terms.map((term, t) => {
    const row = form.postings[t].split(',').map((x) => parseInt(x, 36));
    const data: Record<number, Record<number, number>> = {};
    for (let i = 0; i < row.length; i += 2 + 2 * row[i + 1]) {
      data[row[i]] = {};
      for (let k = i + 2; k < i + 2 + 2 * row[i + 1]; k += 2) data[row[i]][row[k]] = row[k + 1];
    }
    return [term, data];
  }).reverse();
  const js = {
    documentCount: form.documentCount, nextId: form.nextId, documentIds, fieldIds: form.fieldIds, fieldLength,
    averageFieldLength: form.averageFieldLength, storedFields: {}, dirtCount: 0, index, serializationVersion: 2,
  };
  return MiniSearch.loadJSON<Doc>(JSON.stringify(js), OPTIONS);
}

/** The form with its terms in one order (see loosely). */
function sorted(form: ReturnType<CompactMiniSearch<Doc>['toCompact']>): unknown {
  const byTerm = new Map(form.terms.map((t, i) => [t, form.postings[i]]));
  return { ...form, terms: [...byTerm.keys()].sort(), postings: [...byTerm.keys()].sort().map((t) => byTerm.get(t)) };
}

describe('compactIndex: the saved form, read lazily', () => {
  it('answers every search exactly as MiniSearch\'s own loader does, and as the index it saved did, before and after later changes', async () => {
    await fc.assert(fc.asyncProperty(ops, ops, queries, async (before, after, qs) => {
      const plain = new MiniSearch<Doc>(OPTIONS);
      const saved = new CompactMiniSearch<Doc>(OPTIONS);
      apply(plain, before);
      apply(saved, before);
      // The saved form leaves out what was discarded, as a vacuum does: MiniSearch's scores count it until then.
      await plain.vacuum();
      const form = JSON.parse(JSON.stringify(saved.toCompact())) as CompactForm;
      const eager = eagerOf(form);
      const back = CompactMiniSearch.fromCompact(form, OPTIONS);
      const check = (): void => {
        for (const q of qs) {
          for (const o of SEARCHES) {
            const got = back.search(q, o);
            assert.deepEqual(got, eager.search(q, o), `${q} ${JSON.stringify(o)}`);
            assert.deepEqual(loosely(got), loosely(plain.search(q, o)), `${q} ${JSON.stringify(o)}, against the index never saved`);
          }
        }
      };
      // Searched first (some terms read, most not), then changed, then searched again.
      check();
      for (const index of [plain, eager, back]) apply(index, after);
      check();
      assert.equal(back.documentCount, plain.documentCount);
    }), { numRuns: 300 });
  });

  it('saves again, read or unread, the form it was read from', () => {
    fc.assert(fc.property(ops, fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }), (list, searched) => {
      const index = new CompactMiniSearch<Doc>(OPTIONS);
      apply(index, list);
      const form = index.toCompact();
      const back = readBack(index);
      for (const w of searched) back.search(w, { prefix: true });
      assert.deepEqual(sorted(back.toCompact()), sorted(form));
    }), { numRuns: 200 });
  });

  it('never throws on malformed postings: the term finds nothing, and only documents the index holds are found', () => {
    const index = new CompactMiniSearch<Doc>(OPTIONS);
    index.addAll([{ id: 1, title: 'parse log', text: 'lines' }, { id: 2, title: 'sum array', text: 'parse lines' }]);
    const form = index.toCompact();
    fc.assert(fc.property(fc.nat(), fc.oneof(fc.string(), fc.constantFrom('', ',', '0,1', '0,1,1', '9,1,1,1', '0,1,z,1', '0,1,1,1,', 'zzzzzzzzzzz', '0,2,1,1')), (at, posting) => {
      const postings = form.postings.map((p, i) => (i === at % form.postings.length ? posting : p));
      const back = CompactMiniSearch.fromCompact({ ...form, postings }, OPTIONS);
      for (const q of ['parse', 'log', 'lines', 'sum', 'array', 'pa']) {
        for (const r of back.search(q, { prefix: true, fuzzy: 1 })) assert.ok(r.id === 1 || r.id === 2, `${q} found ${r.id}`);
      }
      back.discard(1);
      back.search('parse lines');
    }), { numRuns: 300 });
  });

  it('refuses, with a CompactFormError, a form of another version or shape', () => {
    const index = new CompactMiniSearch<Doc>(OPTIONS);
    index.add({ id: 1, title: 'parse log', text: 'lines' });
    const form = index.toCompact() as unknown as Record<string, unknown>;
    // Version 1 kept each term's postings as an array of numbers.
    const v1 = { ...form, v: 1, postings: [[0, 1, 1, 1]] };
    for (const bad of [null, 'x', v1, { ...form, postings: [[0, 1, 1, 1]] }, { ...form, postings: [] }, { ...form, terms: [1] }]) {
      assert.throws(() => CompactMiniSearch.fromCompact(bad, OPTIONS), CompactFormError, JSON.stringify(bad).slice(0, 80));
    }
  });
});

/** Reads the protected members CompactMiniSearch relies on, as it does: through a subclass. */
class Internals<T> extends MiniSearch<T> {
  members(): Record<string, unknown> {
    return {
      _documentCount: this._documentCount, _nextId: this._nextId, _fieldIds: this._fieldIds, _avgFieldLength: this._avgFieldLength,
      _documentIds: this._documentIds, _idToShortId: this._idToShortId, _fieldLength: this._fieldLength, _index: this._index,
    };
  }
}

describe('compactIndex: the MiniSearch internals it reads', () => {
  it('depends on the exact version of minisearch that is installed', () => {
    // A devDependency: the bundles hold it, so the packages declare no runtime dependency.
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../../package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const spec = manifest.devDependencies.minisearch;
    assert.match(spec, /^\d+\.\d+\.\d+$/, 'an exact version: a new one may keep its protected members in another shape');
    // The package's exports hide its package.json from require: found beside its entry point.
    let dir = path.dirname(require.resolve('minisearch'));
    while (!fs.existsSync(path.join(dir, 'package.json')) || (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name !== 'minisearch') {
      assert.notEqual(path.dirname(dir), dir, 'minisearch\'s package.json found');
      dir = path.dirname(dir);
    }
    const installed = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    assert.equal(installed, spec);
  });

  it('finds each member in the shape toCompact and fromCompact read and write', () => {
    const index = new Internals<Doc>(OPTIONS);
    index.addAll([{ id: 7, title: 'parse log', text: 'lines lines' }, { id: 'x' as unknown as number, title: 'sum', text: 'array parse' }]);
    const m = index.members();
    assert.equal(m._documentCount, 2);
    assert.equal(typeof m._nextId, 'number');
    assert.deepEqual(m._fieldIds, { title: 0, text: 1 });
    const averages = m._avgFieldLength;
    assert.ok(Array.isArray(averages) && averages.length === 2 && averages.every((x) => typeof x === 'number'));
    // Short id to the document's own id, and back.
    const documentIds = m._documentIds;
    const idToShortId = m._idToShortId;
    assert.ok(documentIds instanceof Map && idToShortId instanceof Map);
    assert.deepEqual([...documentIds.values()], [7, 'x']);
    for (const [shortId, id] of documentIds) {
      assert.equal(typeof shortId, 'number');
      assert.equal(idToShortId.get(id), shortId);
    }
    // Short id to each field's length in distinct terms.
    const fieldLength = m._fieldLength;
    assert.ok(fieldLength instanceof Map);
    assert.deepEqual(fieldLength.get(idToShortId.get(7)), [2, 1]);
    // The term index: a map of term to field id to short id to frequency, with set, get and entries.
    const terms = m._index as Map<string, Map<number, Map<number, number>>>;
    for (const method of ['set', 'get', 'has', 'entries'] as const) assert.equal(typeof terms[method], 'function', method);
    const lines = terms.get('lines');
    assert.ok(lines instanceof Map);
    assert.deepEqual([...lines.entries()].map(([field, freqs]) => [field, [...freqs]]), [[1, [[idToShortId.get(7), 2]]]]);
    assert.deepEqual([...terms.entries()].map(([term]) => term).sort(), ['array', 'lines', 'log', 'parse', 'sum']);
  });
});
