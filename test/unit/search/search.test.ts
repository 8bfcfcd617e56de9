// Search as a person meets it: what a query finds and in which order (a title above code text, the
// word being typed as a prefix, a typo forgiven, camelCase parts, authors, tags, languages), which
// refactoring a result opens at, the line it shows, the language filter; and the index as it is
// kept: read back with the same answers, bounded, and never trusted when the file is not its own.
import { strict as assert } from 'node:assert';
import * as fc from 'fast-check';
import type { Code, Refactor } from '../../../src/core/model';
import { MAX_TEXT_CHARS, rowsCheck, type RowSummary } from '../../../src/search/entries';
import { CodeSearch, SearchIndexError, type SearchHit } from '../../../src/search/searchIndex';
import { aCode, aRefactor, aUser } from '../../helpers/builders';

let nextId = 1;

function code(fields: Partial<Code> & { title: string }): Code {
  const id = fields.id ?? nextId++;
  return aCode({ id, permalink: '', createdAt: new Date(Date.UTC(2008, 0, id)), user: aUser(), ...fields });
}

function refactor(codeId: number, fields: Partial<Refactor> & { title: string }): Refactor {
  return aRefactor({ id: fields.id ?? nextId++, codeId, userId: 2, userName: 'Bo Chen', ...fields });
}

const ids = (hits: SearchHit[]): number[] => hits.map((h) => h.codeId);

/**
 * A saved index (toJSON: JSON Lines, a head, a line per term's postings, then a row a line) as values,
 * to change as an edited or damaged file would be: the postings lines as the head's `index.postings`,
 * where formats before 4 kept them.
 */
interface SavedParts {
  head: Record<string, unknown> & { index: Record<string, unknown>; rows: unknown[] };
  rows: unknown[];
}

function readSaved(text: string): SavedParts {
  const [first, ...lines] = text.split('\n');
  const { postings: count, ...head } = JSON.parse(first) as SavedParts['head'] & { postings: number };
  assert.ok(Number.isSafeInteger(count) && count <= lines.length, 'the head counts the postings lines');
  head.index = { ...head.index, postings: lines.slice(0, count) };
  return { head, rows: lines.slice(count).map((r) => JSON.parse(r) as unknown) };
}

/**
 * The file of `parts`: the head's `index.postings` (when an array) written as lines of their own, each
 * a string as it is (a newline in one as a space) or anything else as JSON, and counted in the head
 * (unless the head says otherwise).
 */
function writeSaved({ head, rows }: { head: unknown; rows: readonly unknown[] }): string {
  let lines: string[] = [];
  let written = head;
  const h = head as Record<string, unknown> | null;
  const index = typeof h === 'object' && h !== null && !Array.isArray(h) ? h.index as Record<string, unknown> | null : null;
  if (typeof index === 'object' && index !== null && Array.isArray(index.postings)) {
    const { postings, ...rest } = index;
    lines = (postings as unknown[]).map((p) => (typeof p === 'string' ? p.replace(/\n/g, ' ') : JSON.stringify(p)));
    written = { postings: lines.length, ...h, index: rest };
  } else if (typeof h === 'object' && h !== null && !Array.isArray(h)) {
    written = { postings: 0, ...h };
  }
  return [JSON.stringify(written), ...lines, ...rows.map((r) => JSON.stringify(r))].join('\n');
}

/** `parts` as format 3 wrote them: the postings inside the head, no line of their own. */
function writeFormat3({ head, rows }: SavedParts): string {
  return [JSON.stringify({ ...head, format: 3 }), ...rows.map((r) => JSON.stringify(r))].join('\n');
}

describe('search', () => {
  describe('what a query finds, and in which order', () => {
    it('ranks a code whose title holds the words above one whose code text does', () => {
      const index = CodeSearch.empty();
      const inText = code({ title: 'Read the server output', code: 'lines.each { |l| parse(l) } # the log\n' });
      const inTitle = code({ title: 'Parse a log line', code: 'm = LINE.match(s)\n' });
      const neither = code({ title: 'Sum an array', code: 'a.sum\n' });
      index.addCodes([inText, inTitle, neither]);
      assert.deepEqual(ids(index.search('parse log')), [inTitle.id, inText.id]);
    });

    it('takes the word being typed as a prefix, from two letters', () => {
      const index = CodeSearch.empty();
      const c = code({ title: 'Parse a log line' });
      index.addCodes([c]);
      assert.deepEqual(ids(index.search('pa')), [c.id]);
      assert.deepEqual(ids(index.search('pars')), [c.id]);
      assert.deepEqual(ids(index.search('log pars')), [c.id]);
    });

    it('forgives one typo in a word of four letters or more, two from seven', () => {
      const index = CodeSearch.empty();
      const c = code({ title: 'Match users by email', code: 'users.each { |user| user.email }\n' });
      index.addCodes([c]);
      assert.deepEqual(ids(index.search('emal')), [c.id]);
      assert.deepEqual(ids(index.search('emaik')), [c.id]);
      assert.deepEqual(ids(index.search('matsh')), [c.id]);
      assert.deepEqual(ids(index.search('emxyl')), [], 'two typos in five letters are another word');
    });

    it('finds a camelCase name by its parts and by the whole name, and snake_case by its words', () => {
      const index = CodeSearch.empty();
      const c = code({ title: 'Build HTML', language: 'JavaScript', code: "var list = document.getElementById('comments');\nvar total_price = 0;\n" });
      index.addCodes([c]);
      for (const q of ['getElementById', 'element', 'getelem', 'total_price', 'price']) assert.deepEqual(ids(index.search(q)), [c.id], q);
    });

    it('finds codes by author, tag and language, and matches a language name whole (c, c#, c++)', () => {
      const index = CodeSearch.empty();
      const inC = code({ title: 'Copy a string', language: 'C' });
      const inCs = code({ title: 'Filter a list', language: 'C#', user: aUser({ id: 9, name: 'Hiroshi Tanaka' }) });
      const inCpp = code({ title: 'Print a vector', language: 'C++' });
      index.addCodes([inC, inCs, inCpp]);
      index.addCodes([inCpp], 'Speed');
      assert.deepEqual(ids(index.search('hiroshi')), [inCs.id]);
      assert.deepEqual(ids(index.search('speed')), [inCpp.id]);
      assert.deepEqual(ids(index.search('c')), [inC.id]);
      assert.deepEqual(ids(index.search('c#')), [inCs.id]);
      assert.deepEqual(ids(index.search('c++')), [inCpp.id]);
    });

    it('needs every word where some code has them all, else shows what has any', () => {
      const index = CodeSearch.empty();
      const both = code({ title: 'Sum an array of prices' });
      const one = code({ title: 'Sum a list' });
      index.addCodes([one, both]);
      assert.deepEqual(ids(index.search('sum prices')), [both.id]);
      assert.deepEqual(new Set(ids(index.search('sum nothinglikethis'))), new Set([both.id, one.id]));
    });

    it('leaves out the words every code holds: a query of only those finds nothing, and they do not stop other words', () => {
      const index = CodeSearch.empty();
      const c = code({ title: 'Return the total', code: 'def total\n  return sum\nend\n' });
      index.addCodes([c]);
      assert.deepEqual(index.search('return'), []);
      assert.deepEqual(ids(index.search('return the total')), [c.id]);
      assert.deepEqual(index.search('   '), []);
    });

    it('keeps to the language filter, in any case, and returns at most the limit', () => {
      const index = CodeSearch.empty();
      const codes = Array.from({ length: 30 }, (_, i) => code({ title: `Sort the list ${i}`, language: i % 3 === 0 ? 'Python' : 'Ruby' }));
      index.addCodes(codes);
      const python = index.search('sort', { language: 'python' });
      assert.equal(python.length, 10);
      assert.ok(python.every((h) => h.language === 'Python'));
      assert.equal(index.search('sort', { limit: 7 }).length, 7);
      assert.equal(index.search('sort').length, 30);
    });
  });

  describe('what a result shows and opens', () => {
    it('opens at the refactoring whose words matched, with its title, author, code title and line', () => {
      const index = CodeSearch.empty();
      const c = code({ title: 'Sum an array of prices', code: 'sum = 0\nitems.each { |i| sum += i.price }\n' });
      index.addCodes([c]);
      const r = refactor(c.id, { title: 'Use inject', code: 'def total(items)\n  items.inject(0) { |s, i| s + i.price }\nend\n' });
      index.addRefactors([r]);
      const [hit] = index.search('inject');
      assert.deepEqual(hit && { ...hit, score: 0 }, {
        kind: 'refactor', codeId: c.id, refactorId: r.id, title: 'Use inject', codeTitle: 'Sum an array of prices', language: 'Ruby',
        author: 'Bo Chen', line: 'items.inject(0) { |s, i| s + i.price }', score: 0,
      });
      const [own] = index.search('each');
      assert.equal(own.kind, 'code');
      assert.equal(own.line, 'items.each { |i| sum += i.price }');
    });

    it('prefers the part that has a word as typed over one found through a typo', () => {
      const index = CodeSearch.empty();
      const c = code({ title: 'Double the even numbers', code: 'puts result.inspect\n' });
      index.addCodes([c]);
      const r = refactor(c.id, { title: 'One pass', code: 'numbers.inject([]) { |acc, n| acc }\n' });
      index.addRefactors([r]);
      const [hit] = index.search('inject');
      assert.equal(hit.refactorId, r.id);
    });

    it('knows a refactoring seen before its code, and fills the code in when it comes', () => {
      const index = CodeSearch.empty();
      const r = refactor(777, { title: 'Use a hash', code: 'index = users.index_by(&:email)\n' });
      index.addRefactors([r]);
      let [hit] = index.search('hash');
      assert.deepEqual([hit.kind, hit.codeId, hit.refactorId, hit.codeTitle], ['refactor', 777, r.id, '']);
      assert.deepEqual(index.counts(), { codes: 0, refactors: 1 });
      index.addCodes([code({ id: 777, title: 'Match orders to users' })]);
      [hit] = index.search('hash');
      assert.equal(hit.codeTitle, 'Match orders to users');
      assert.deepEqual(ids(index.search('orders')), [777]);
      assert.deepEqual(index.counts(), { codes: 1, refactors: 1 });
    });

    it('keeps the author a list named when the single-code answer (which nests no user) comes', () => {
      const index = CodeSearch.empty();
      const listed = code({ title: 'Swap two ints' });
      index.addCodes([listed]);
      const { user: _user, ...single } = listed;
      index.addCodes([{ ...single, refactors: [refactor(listed.id, { title: 'std::swap' })] }]);
      const [hit] = index.search('swap ints');
      assert.equal(hit.author, 'Ana Lima');
      assert.ok(index.search('std::swap').some((h) => h.kind === 'refactor'));
    });

    it('shows a long line cut around the word that matched', () => {
      const index = CodeSearch.empty();
      const long = `${'a'.repeat(200)} needle ${'b'.repeat(200)}`;
      index.addCodes([code({ title: 'Long line', code: `short\n${long}\n` })]);
      const [hit] = index.search('needle');
      assert.ok(hit.line.includes('needle') && hit.line.startsWith('…') && hit.line.endsWith('…'), hit.line);
      assert.ok(hit.line.length <= 122, `${hit.line.length} characters`);
    });

    it('keeps its titles as the service gave them: an untitled code stays untitled for the caller to name', () => {
      const index = CodeSearch.empty();
      index.addCodes([code({ title: '', code: 'untitled_thing = 1\n' })]);
      const [hit] = index.search('untitled_thing');
      assert.equal(hit.title, '');
    });
  });

  describe('the index as it is kept', () => {
    it('reads back what it saved, with the same answers and counts', () => {
      const index = CodeSearch.empty();
      const a = code({ title: 'Parse a log line', code: 'while line = gets\n  puts line if line =~ /ERROR/\nend\n' });
      const b = code({ title: 'Sum an array of prices', language: 'Python' });
      index.addCodes([a, b], 'text');
      index.addRefactors([refactor(a.id, { title: 'Use grep', code: 'puts ARGF.grep(/ERROR/)\n' }), refactor(b.id, { title: 'sum()' })]);
      index.setListProgress('codes', { at: 1234, id: 5 });
      index.indexedAt = 42;
      const { index: back, rebuilt } = CodeSearch.fromJSON(index.toJSON());
      assert.equal(rebuilt, false);
      for (const q of ['parse', 'grep error', 'text', 'sum', 'prices', 'ana', 'python']) assert.deepEqual(back.search(q), index.search(q), q);
      assert.deepEqual(back.counts(), index.counts());
      assert.deepEqual(back.listProgress('codes'), { at: 1234, id: 5 });
      assert.equal(back.indexedAt, 42);
    });

    it('keeps each refactoring\'s rating and votes and a code\'s indentation, read back as saved; a row saved before ratings were kept reads as unrated', () => {
      const index = CodeSearch.empty();
      const a = code({ title: 'Indented', language: 'Python', code: '\ndef f(x):\n    if x:   \n        return 1\r\n\n    return 2\n\n' });
      index.addCodes([a]);
      index.addRefactors([refactor(a.id, { id: 901, title: 'Rated', rating: 4, ratingsCount: 11 }), refactor(a.id, { id: 902, title: 'Unrated', rating: null, ratingsCount: null })]);
      // A later answer that does not say the rating leaves the one said before.
      index.addRefactors([refactor(a.id, { id: 901, title: 'Rated', rating: null, ratingsCount: null })]);
      const { index: back } = CodeSearch.fromJSON(index.toJSON());
      const entry = back.entry(a.id)!;
      assert.equal(entry.code, 'def f(x):\n    if x:\n        return 1\n\n    return 2');
      assert.deepEqual(entry.refactors.map((r) => [r.id, r.rating, r.ratingsCount]), [[901, 4, 11], [902, null, null]]);
      const saved = readSaved(index.toJSON());
      const row = saved.rows.find((r) => Array.isArray(r) && r[0] === a.id) as unknown[];
      (row[9] as unknown[][]).forEach((r) => r.splice(6));
      saved.head.check = rowsCheck(saved.head.rows as RowSummary[], saved.rows.map((r) => JSON.stringify(r)).join('\n'));
      const old = CodeSearch.fromJSON(writeSaved(saved)).index.entry(a.id)!;
      assert.deepEqual(old.refactors.map((r) => [r.id, r.rating, r.ratingsCount]), [[901, null, null], [902, null, null]]);
    });

    it('saves again what it read, unchanged, in ASCII, whatever was searched in between; non-ASCII text comes back exact', () => {
      const index = CodeSearch.empty();
      const a = code({ title: 'Café € “quotes” 😀', code: 'puts "naïve"\n' });
      index.addCodes([a, code({ title: 'Sum an array' })]);
      index.addRefactors([refactor(a.id, { title: 'Ünïcode', code: 'print("é")\n' })]);
      const text = index.toJSON();
      assert.match(text, /^[\x20-\x7e\n]*$/, 'printable ASCII only, a line a row');
      const { index: back } = CodeSearch.fromJSON(text);
      assert.equal(back.toJSON(), text, 'nothing read yet');
      assert.deepEqual(back.search('café'), index.search('café'));
      assert.equal(back.search('café')[0]?.title, 'Café € “quotes” 😀');
      assert.equal(back.search('unicode')[0]?.line, 'print("é")');
      assert.equal(back.toJSON(), text, 'after searches');
    });

    it('ignores, with a SearchIndexError, an index saved by the versions before (formats 1 and 2), which the store then starts over', () => {
      const index = CodeSearch.empty();
      index.addCodes([code({ title: 'Parse a log line' })]);
      const { head, rows } = readSaved(index.toJSON());
      const postings = head.index.postings as string[];
      // Format 1 kept each term's postings as an array of numbers, format 2 the entries in the one document.
      const { rows: _summaries, ...rest } = head;
      const format2 = { ...rest, format: 2, entries: rows };
      const format1 = { ...format2, format: 1, index: { ...head.index, v: 1, postings: postings.map((p) => p.split(',').map((x) => parseInt(x, 36))) } };
      for (const old of [format1, format2]) assert.throws(() => CodeSearch.fromJSON(JSON.stringify(old)), SearchIndexError);
    });

    it('does not read an index saved in format 3 (the postings inside the head), which the store then starts over', () => {
      const index = CodeSearch.empty();
      index.addCodes([code({ title: 'Parse a log line' })]);
      const saved = readSaved(index.toJSON());
      assert.ok(CodeSearch.fromJSON(writeSaved(saved)).index.search('parse').length === 1, 'the same parts as format 4 read');
      assert.throws(() => CodeSearch.fromJSON(writeFormat3(saved)), (e: unknown) => e instanceof SearchIndexError && /not in a form this version reads/.test(e.message));
    });

    it('refuses a file whose postings lines are missing, cut short or not the number its head counts, with the messages of a cut file', () => {
      const index = CodeSearch.empty();
      index.addCodes([code({ title: 'Parse a log line', code: 'puts line\n' }), code({ title: 'Sum an array' })]);
      index.addRefactors([refactor(1, { title: 'Use grep' })]);
      const text = index.toJSON();
      const lines = text.split('\n');
      const head = JSON.parse(lines[0]) as { postings: number; rows: unknown[] };
      assert.ok(head.postings > 2 && lines.length === 1 + head.postings + head.rows.length, 'a line per term, then a row a line');
      const cut = /cut short, or holds a row its head does not describe/;
      const damaged = [
        [lines[0], ...lines.slice(2)], // the first term's postings gone
        [lines[0], ...lines.slice(1, head.postings), ...lines.slice(head.postings + 1)], // the last term's postings gone
        lines.slice(0, head.postings), // cut after some postings
        lines.slice(0, 1 + head.postings), // cut after the postings: no rows
        [JSON.stringify({ ...JSON.parse(lines[0]) as object, postings: head.postings - 1 }), ...lines.slice(1)],
        [JSON.stringify({ ...JSON.parse(lines[0]) as object, postings: head.postings + 1 }), ...lines.slice(1)],
      ].map((l) => l.join('\n'));
      damaged.push(text.slice(0, text.indexOf('\n', text.indexOf('\n') + 1) - 2)); // cut inside the first postings line
      for (const d of damaged) assert.throws(() => CodeSearch.fromJSON(d), (e: unknown) => e instanceof SearchIndexError && cut.test(e.message), d.slice(-80));
      for (const postings of [-1, 0.5, '3', null]) {
        assert.throws(() => CodeSearch.fromJSON([JSON.stringify({ ...JSON.parse(lines[0]) as object, postings }), ...lines.slice(1)].join('\n')), SearchIndexError, String(postings));
      }
    });

    it('reads rows from the saved bytes only when shown or read, giving exactly the entries saved, from bytes or text alike', () => {
      const index = CodeSearch.empty();
      const made = [
        code({ title: 'Café “quotes” 😀 \\ back\\slash', code: 'puts "naïve"\n\tx = 1\n', language: 'Ruby' }),
        code({ title: 'Sum an array', language: 'C#', comment: 'line one\nline two' }),
        code({ title: 'Third', language: 'Python' }),
      ];
      index.addCodes(made, 'tagged');
      index.addRefactors([refactor(made[0].id, { title: 'Ünïcode', code: 'print("é")\n' }), refactor(made[2].id, { title: 'Also' })]);
      const text = index.toJSON();
      const bytes = new TextEncoder().encode(text);
      // A Node Buffer is what the Node host's fs gives, a Uint8Array at an offset into a larger buffer what another might.
      const padded = new Uint8Array(bytes.length + 7);
      padded.set(bytes, 3);
      for (const file of [text, bytes, Buffer.from(bytes), padded.subarray(3, 3 + bytes.length)]) {
        const { index: back, rebuilt } = CodeSearch.fromJSON(file);
        assert.equal(rebuilt, false);
        assert.deepEqual(back.counts(), index.counts());
        assert.equal(back.toJSON(), text, 'saved again unchanged, nothing read');
        for (const c of made) assert.deepEqual(back.entry(c.id), index.entry(c.id), `code ${c.id}`);
        assert.equal(back.toJSON(), text, 'saved again unchanged, every row read');
      }
    });

    it('counts what it keeps, whatever arrives in which order: codes seen, refactorings known, as its saved rows hold them', () => {
      // Index the Catalog reports the counts after every page, so they are kept as entries change
      // rather than counted; here they are counted from the saved rows after each step.
      const counted = (index: CodeSearch): { codes: number; refactors: number } => {
        const rows = readSaved(index.toJSON()).rows as Array<[number, ...unknown[]]>;
        return { codes: rows.filter((r) => r[8] === 1).length, refactors: rows.reduce((n, r) => n + (r[9] as unknown[]).length, 0) };
      };
      const step = fc.oneof(
        fc.record({ kind: fc.constant('codes' as const), ids: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 4 }), tag: fc.option(fc.constantFrom('ruby', 'loops')) }),
        fc.record({ kind: fc.constant('refactors' as const), pairs: fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 100, max: 108 })), { maxLength: 4 }) }),
        fc.record({ kind: fc.constant('reload' as const), maxStoredChars: fc.integer({ min: 0, max: 400 }) }),
      );
      fc.assert(fc.property(fc.array(step, { maxLength: 12 }), fc.integer({ min: 40, max: 400 }), (steps, maxStoredChars) => {
        let index = CodeSearch.empty({ maxCodes: 4, maxStoredChars });
        for (const s of steps) {
          if (s.kind === 'codes') index.addCodes(s.ids.map((id) => code({ id, title: `Code ${id}`, code: `x = ${id}\n` })), s.tag ?? undefined);
          else if (s.kind === 'refactors') index.addRefactors(s.pairs.map(([codeId, id]) => refactor(codeId, { id, title: `Refactoring ${id}` })));
          else index = CodeSearch.fromJSON(index.toJSON(), { maxCodes: 4, maxStoredChars: s.maxStoredChars }).index;
          assert.deepEqual(index.counts(), counted(index));
        }
      }), { numRuns: 200 });
    });

    it('reads back within its bounds: counts without reading the entries, and no more characters than it may keep', () => {
      const index = CodeSearch.empty();
      const codes = [code({ title: 'One', code: 'a'.repeat(100) }), code({ title: 'Two', code: 'b'.repeat(100) }), code({ title: 'Three', code: 'c'.repeat(100) })];
      index.addCodes(codes);
      const last = refactor(codes[2].id, { title: 'Shorter too' });
      index.addRefactors([refactor(codes[0].id, { title: 'Shorter' }), last]);
      const text = index.toJSON();
      const { index: back } = CodeSearch.fromJSON(text);
      assert.deepEqual(back.counts(), { codes: 3, refactors: 2 });
      assert.deepEqual(back.search('two'), index.search('two'));
      assert.equal(back.hasRefactor(last.id, codes[2].id), true);
      assert.equal(back.isFull(), false);

      // Kept to 250 characters, the third code is left out, as it would be when indexed.
      const bounded = CodeSearch.fromJSON(text, { maxCodes: 100, maxStoredChars: 250 }).index;
      assert.deepEqual(bounded.counts(), { codes: 2, refactors: 1 });
      assert.equal(bounded.isFull(), false);
      assert.deepEqual(bounded.addCodes([code({ title: 'Four', code: 'd'.repeat(100) })]), { full: true });
    });

    it('saves no trace of what was replaced: a code changed twice is found by its last words only', () => {
      const index = CodeSearch.empty();
      const c = code({ title: 'First title' });
      index.addCodes([c]);
      index.search('first');
      index.addCodes([{ ...c, title: 'Second title' }]);
      index.search('second');
      index.addCodes([{ ...c, title: 'Third title' }]);
      const { index: back } = CodeSearch.fromJSON(index.toJSON());
      assert.deepEqual(back.search('first'), []);
      assert.deepEqual(back.search('second'), []);
      assert.deepEqual(ids(back.search('third')), [c.id]);
    });

    it('indexes its entries again when the saved MiniSearch part does not match them', () => {
      const index = CodeSearch.empty();
      index.addCodes([code({ title: 'Parse a log line' }), code({ title: 'Sum an array' })]);
      const saved = readSaved(index.toJSON());
      const fewerTerms = { ...saved.head.index, terms: (saved.head.index.terms as string[]).slice(1) };
      for (const tampered of [{ ...saved.head, index: fewerTerms }, { ...saved.head, index: 'nonsense' }]) {
        const { index: back, rebuilt } = CodeSearch.fromJSON(writeSaved({ head: tampered, rows: saved.rows }));
        assert.equal(rebuilt, true);
        assert.deepEqual(back.search('parse'), index.search('parse'));
      }
    });

    it('indexes its entries again when the saved MiniSearch part names its fields otherwise: it then finds them, and saves', () => {
      const index = CodeSearch.empty();
      index.addCodes([code({ title: 'Parse a log line' }), code({ title: 'Sum an array', language: 'Python' })]);
      const saved = readSaved(index.toJSON());
      const fieldIds = saved.head.index.fieldIds as Record<string, number>;
      assert.deepEqual(Object.keys(fieldIds).sort(), ['about', 'language', 'text', 'title']);
      const renamed = Object.fromEntries(Object.entries(fieldIds).map(([name, id]) => [name === 'title' ? 'titel' : name, id]));
      const renumbered = { ...fieldIds, title: fieldIds.language, language: fieldIds.title };
      for (const ids of [renamed, renumbered, { ...fieldIds, extra: 4 }]) {
        const { index: back, rebuilt } = CodeSearch.fromJSON(writeSaved({ head: { ...saved.head, index: { ...saved.head.index, fieldIds: ids } }, rows: saved.rows }));
        assert.equal(rebuilt, true, JSON.stringify(ids));
        for (const q of ['parse', 'sum array', 'python']) assert.deepEqual(back.search(q), index.search(q), q);
        const again = CodeSearch.fromJSON(back.toJSON());
        assert.equal(again.rebuilt, false);
        assert.deepEqual(again.index.search('parse'), index.search('parse'));
      }
    });

    it('refuses, with a SearchIndexError, a head whose times are not ones it wrote: an infinity, a fraction, before 1970 or past any date', () => {
      const index = CodeSearch.empty();
      index.addCodes([code({ title: 'Parse a log line' })]);
      index.setListProgress('codes', { at: 1234, id: 5 });
      index.indexedAt = 4242;
      const text = index.toJSON();
      assert.ok(text.includes('"indexedAt":4242') && text.includes('"at":1234'));
      // JSON.stringify has no infinity: the file is edited as text, as anything could edit it.
      for (const edit of ['"indexedAt":1e309', '"indexedAt":-1', '"indexedAt":42.5', '"indexedAt":9e15', '"indexedAt":"4242"', '"indexedAt":null']) {
        assert.throws(() => CodeSearch.fromJSON(text.replace('"indexedAt":4242', edit)), SearchIndexError, edit);
      }
      assert.throws(() => CodeSearch.fromJSON(text.replace(/"updatedAt":\d+/, '"updatedAt":1e309')), SearchIndexError);
      for (const edit of ['"at":1e309', '"at":0.5', '"at":"1234"']) {
        assert.throws(() => CodeSearch.fromJSON(text.replace('"at":1234', edit)), SearchIndexError, edit);
      }
      assert.throws(() => CodeSearch.fromJSON(text.replace('"id":5', '"id":0')), SearchIndexError);
      assert.equal(CodeSearch.fromJSON(text).index.indexedAt, 4242, 'the file as written reads');
    });

    it('refuses, with a SearchIndexError, summaries that do not say what their rows hold: no bound is passed by a row claiming few characters', () => {
      const limits = { maxCodes: 100, maxStoredChars: 1000 };
      const index = CodeSearch.empty();
      const small = code({ title: 'Parse a log line' });
      const big = code({ title: 'x'.repeat(5000) });
      index.addCodes([small, big]);
      const saved = readSaved(index.toJSON());
      // Read back within 1,000 characters, the big code is left out, as its summary says what it holds.
      assert.deepEqual(CodeSearch.fromJSON(writeSaved(saved), limits).index.counts(), { codes: 1, refactors: 0 });
      const summaries = saved.head.rows as Array<[number, number, number, number, string]>;
      const at = summaries.findIndex((r) => r[0] === big.id);
      const edited = (change: (s: [number, number, number, number, string]) => unknown[]) => writeSaved({
        head: { ...saved.head, rows: summaries.map((r, i) => (i === at ? change([...r]) : r)) }, rows: saved.rows,
      });
      const lies = [
        edited(([id, seen, refactors, , language]) => [id, seen, refactors, 0, language]),
        edited(([id, seen, refactors, chars, language]) => [id, seen, refactors, chars - 1, language]),
        edited(([id, seen, refactors, chars, language]) => [id, seen, refactors, chars + 1, language]),
        edited(([id, , refactors, chars, language]) => [id, 0, refactors, chars, language]),
        edited(([id, seen, , chars, language]) => [id, seen, 1, chars, language]),
        edited(([id, seen, refactors, chars]) => [id, seen, refactors, chars, 'COBOL']),
        edited(([, seen, refactors, chars, language]) => [small.id, seen, refactors, chars, language]),
      ];
      for (const text of lies) assert.throws(() => CodeSearch.fromJSON(text, limits), SearchIndexError, text.split('\n')[0].slice(-120));
    });

    it('refuses, with a SearchIndexError, a row changed after it was saved, even by a letter that keeps its length, or two rows swapped', () => {
      const index = CodeSearch.empty();
      index.addCodes([code({ title: 'Parse a log line', code: 'line.split(" ")' }), code({ title: 'Sum an array', code: 'xs.sum' })]);
      const text = index.toJSON();
      assert.deepEqual(CodeSearch.fromJSON(text).index.counts(), { codes: 2, refactors: 0 }, 'the file as written reads');
      const lines = text.split('\n');
      const rows = lines.slice(-2);
      const damaged = [
        text.replace('line.split', 'line.splat'),
        text.replace('Sum an array', 'Sum an arrax'),
        [...lines.slice(0, -2), rows[1], rows[0]].join('\n'),
      ];
      for (const file of damaged) {
        assert.notEqual(file, text);
        assert.throws(() => CodeSearch.fromJSON(file), /holds a row its head does not describe/, file.slice(-60));
      }
    });

    it('reads back every summary it wrote as matching its row, whatever the text holds (quotes, backslashes, controls, any UTF-16)', () => {
      const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0000', '\u007f', '\u2028', '\ud800', '\udc00', '😀', 'é', ','), fc.string({ unit: 'binary', maxLength: 1 })), maxLength: 30 });
      fc.assert(fc.property(fc.array(fc.record({ title: text, language: text, comment: text, code: text, tag: text, refactor: fc.option(fc.record({ title: text, code: text, userName: text })) }), { maxLength: 4 }), (made) => {
        const index = CodeSearch.empty();
        for (const m of made) {
          const c = code({ title: m.title, language: m.language, comment: m.comment, code: m.code });
          index.addCodes([c], m.tag);
          if (m.refactor) index.addRefactors([refactor(c.id, m.refactor)]);
        }
        const saved = index.toJSON();
        const { index: back } = CodeSearch.fromJSON(saved);
        assert.deepEqual(back.counts(), index.counts());
        assert.equal(back.toJSON(), saved);
      }), { numRuns: 300 });
    });

    it('refuses, with a SearchIndexError, a file that is not an index it wrote', () => {
      const good = (() => {
        const index = CodeSearch.empty();
        index.addCodes([code({ title: 'Parse a log line' })]);
        return readSaved(index.toJSON());
      })();
      const summary = good.head.rows[0];
      const bad = [
        '', '{', 'null', '[]', '{"format":3}', writeSaved({ ...good, head: { ...good.head, format: 99 } }),
        writeSaved({ ...good, rows: [] }), writeSaved({ ...good, rows: [...good.rows, ...good.rows] }),
        writeSaved({ ...good, head: { ...good.head, rows: [['not', 'a', 'summary']] } }),
        writeSaved({ ...good, head: { ...good.head, rows: [[...(summary as unknown[]).slice(0, 2), 501, 0, 'Ruby']] } }),
        writeSaved({ ...good, head: { ...good.head, rows: 'everything' } }),
        `${writeSaved(good)}\n`,
      ];
      for (const text of bad) assert.throws(() => CodeSearch.fromJSON(text), SearchIndexError, text.slice(0, 80));
    });

    it('never throws anything but a SearchIndexError, and never crashes, on a saved index with any part changed', () => {
      const index = CodeSearch.empty();
      index.addCodes([code({ title: 'Parse a log line' }), code({ title: 'Sum an array' })]);
      const saved = readSaved(index.toJSON());
      const parts = [...Object.keys(saved.head).map((k) => `head.${k}`), 'row 0', 'row 1'];
      fc.assert(fc.property(fc.constantFrom(...parts), fc.jsonValue(), (part, value) => {
        const row = /^row (\d)$/.exec(part);
        const changed = row
          ? { ...saved, rows: saved.rows.map((r, i) => (i === Number(row[1]) ? value : r)) }
          : { ...saved, head: { ...saved.head, [part.slice('head.'.length)]: value } };
        try {
          const { index: back } = CodeSearch.fromJSON(writeSaved(changed));
          // A row that is not one toJSON wrote is found to be so when read, and shows nowhere.
          for (const q of ['parse', 'sum', 'ruby']) for (const hit of back.search(q)) assert.ok(hit.title === 'Parse a log line' || hit.title === 'Sum an array', hit.title);
          back.toJSON();
        } catch (e) {
          if (!(e instanceof SearchIndexError)) throw e;
        }
      }), { numRuns: 300 });
    });

    it('reads a saved index whose MiniSearch part has any value changed without crashing, shows only codes it holds, and saves', () => {
      const index = CodeSearch.empty();
      const held = [code({ title: 'Parse a log line', code: 'puts line\n' }), code({ title: 'Sum an array', language: 'C#' })];
      index.addCodes(held);
      const saved = readSaved(index.toJSON());
      const heldIds = new Set(held.map((c) => c.id));
      fc.assert(fc.property(fc.constantFrom('ids', 'lengths', 'terms', 'postings', 'fieldIds', 'averageFieldLength', 'documentCount', 'nextId'),
        fc.nat(), fc.jsonValue(), (key, at, value) => {
          const part: unknown = saved.head.index[key];
          const changed = Array.isArray(part)
            ? (part as unknown[]).map((v, i): unknown => (i === at % part.length ? (Array.isArray(v) && v.length ? (v as unknown[]).map((x, k): unknown => (k === at % v.length ? value : x)) : value) : v))
            : value;
          const { index: back } = CodeSearch.fromJSON(writeSaved({ ...saved, head: { ...saved.head, index: { ...saved.head.index, [key]: changed } } }));
          for (const q of ['parse', 'sum array', 'c#', 'pu']) {
            for (const hit of back.search(q)) assert.ok(heldIds.has(hit.codeId), `${q} showed code ${hit.codeId}`);
          }
          // And it saves, and what it saves reads back.
          back.addCodes([code({ id: 999, title: 'Added after' })]);
          assert.deepEqual(ids(CodeSearch.fromJSON(back.toJSON()).index.search('added after')), [999]);
        }), { numRuns: 400, examples: [['nextId', 0, 36 ** 10]] }); // past the ten base-36 digits a saved short id has
    });

    it('is bounded: each text to MAX_TEXT_CHARS, and no code taken in once the codes or characters are at their bound', () => {
      const index = CodeSearch.empty({ maxCodes: 3, maxStoredChars: 1_000_000 });
      const huge = code({ title: 'Huge', code: `${'word '.repeat(10_000)}\nlastwordhere\n` });
      index.addCodes([huge]);
      assert.deepEqual(index.search('lastwordhere'), [], 'the text past the bound is not searched');
      assert.deepEqual(index.addCodes([code({ title: 'Two' }), code({ title: 'Three' })]), { full: false });
      assert.deepEqual(index.addCodes([code({ title: 'Four' })]), { full: true });
      assert.equal(index.isFull(), true);
      assert.deepEqual(index.search('four'), []);
      // What is in can still change.
      assert.deepEqual(index.addCodes([{ ...huge, title: 'Huge renamed' }]), { full: false });
      assert.equal(index.search('renamed').length, 1);

      const byChars = CodeSearch.empty({ maxCodes: 100, maxStoredChars: 2 * MAX_TEXT_CHARS + 100 });
      const big = (title: string) => code({ title, code: 'x'.repeat(MAX_TEXT_CHARS) });
      assert.deepEqual(byChars.addCodes([big('One'), big('Two')]), { full: false });
      assert.deepEqual(byChars.addCodes([big('Three')]), { full: true });
    });
  });
});
