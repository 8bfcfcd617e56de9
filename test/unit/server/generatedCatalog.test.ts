// The generated catalog (`serve --generate N`, and the 10,000-code catalog the search benchmarks in
// docs/benchmarks.md measure): deterministic, valid, of the asked size, in every language, with
// dates in order and refactorings that point at its own codes and users. Its prose (generated words)
// is held to properties (form, length, variety), not to exact strings. Each catalog is generated
// inside its test, so that mutation testing's per-test coverage credits the test that would notice.

import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { SERVICE_LANGUAGES } from '../../../src/core/languages';
import { catalogLines, type CatalogFile as CatalogJson } from '../../../src/core/catalogFile';
import { generateCatalog, generateCatalogJson, MAX_GENERATED_CODES } from '../../../src/server/catalog/generatedCatalog';
import { samplePath } from '../../helpers/referenceService';

const sample = (): CatalogJson => JSON.parse(fs.readFileSync(samplePath, 'utf8')) as CatalogJson;

/** A generated word: 2 to 4 syllables of a consonant and a vowel, so 4 to 8 lower-case letters. */
const WORD = /^(?:[b-df-hj-np-tv-z][aeiou]){2,4}$/;

/** The generated word a code's title ends with (`<sample title>, <word>`). */
const nameOf = (title: string): string => title.slice(title.lastIndexOf(', ') + 2);

const minutes = (iso: string): number => Date.parse(iso) / 60_000;

describe('generated catalog: size and determinism', () => {
  it('copies a catalog whose texts are strings as it copies one whose texts are lines, as the reader takes both', () => {
    // The catalog file's format (src/core/catalogFile.ts) lets a text be either; the generator once
    // took every text for an array of lines and failed on a sample written with strings.
    const lines = sample();
    const strings: CatalogJson = {
      ...lines,
      codes: lines.codes.map((c) => ({ ...c, code: catalogLines(c.code).join('\n') })),
      refactors: lines.refactors.map((r) => ({ ...r, code: catalogLines(r.code).join('\n') })),
    };
    const fromStrings = generateCatalogJson({ codes: 120, sample: strings });
    assert.deepEqual(fromStrings, generateCatalogJson({ codes: 120, sample: lines }));
    assert.deepEqual(fromStrings, generateCatalogJson({ codes: 120 }), 'the shipped sample is the default');
    assert.equal(generateCatalog({ codes: 120, sample: strings }).codes.size, 120);
  });

  it('is the same catalog, byte for byte, every time it is generated', () => {
    const a = JSON.stringify(generateCatalogJson({ codes: 120 }));
    const b = JSON.stringify(generateCatalogJson({ codes: 120 }));
    assert.equal(a, b);
  });

  it('is the catalog the benchmarks measured: the 10,000-code catalog has not changed', () => {
    // docs/benchmarks.md compares search figures measured on this catalog across branches and days;
    // they are comparable only while it is the same catalog. A deliberate change of the generator
    // must update this fingerprint and say in docs/benchmarks.md that older figures used another one.
    const json = generateCatalogJson({ codes: 10_000 });
    assert.equal(json.codes.length, 10_000);
    assert.equal(json.refactors.length, 30_000);
    const hash = createHash('sha256').update(JSON.stringify(json)).digest('hex');
    assert.equal(hash, 'dd7fda892d6d3ae2c5a3f46df4d1961401a1aaa52d40ead304bd1afceb17ab60');
  });

  it('is the start of every larger one: the same codes, refactorings and users under the same ids', () => {
    const small = generateCatalogJson({ codes: 70 });
    const large = generateCatalogJson({ codes: 150 });
    assert.deepEqual(large.codes.slice(0, 70), small.codes);
    assert.deepEqual(large.refactors.slice(0, small.refactors.length), small.refactors);
    assert.deepEqual(large.users, small.users);
  });

  it('has codes 1..N and, by default, three refactorings each and 500 authors besides the sample\'s', () => {
    const json = generateCatalogJson({ codes: 80 });
    const s = sample();
    assert.deepEqual(json.codes.map((c) => c.id), Array.from({ length: 80 }, (_, i) => i + 1));
    assert.deepEqual(json.refactors.map((r) => r.id), Array.from({ length: 240 }, (_, i) => i + 1));
    for (const c of json.codes) assert.equal(json.refactors.filter((r) => r.codeId === c.id).length, 3, `code ${c.id}`);
    assert.equal(json.users.length, s.users.length + 500);
    assert.equal(new Set(json.users.map((u) => u.id)).size, json.users.length, 'user ids are unique');
  });

  it('takes the number of refactorings per code and of extra authors from its options', () => {
    const s = sample();
    const none = generateCatalogJson({ codes: 60, refactorsPerCode: 0, users: 0 });
    assert.equal(none.codes.length, 60);
    assert.equal(none.refactors.length, 0);
    assert.deepEqual(none.users, s.users);
    const more = generateCatalogJson({ codes: 60, refactorsPerCode: 5, users: 7 });
    assert.equal(more.refactors.length, 300);
    assert.equal(more.users.length, s.users.length + 7);
    for (const c of more.codes) assert.equal(more.refactors.filter((r) => r.codeId === c.id).length, 5, `code ${c.id}`);
  });

  it('gives each code the number of refactorings a function of its id says, for lists ordered by popularity', () => {
    const json = generateCatalogJson({ codes: 60, refactorsPerCode: (id) => id % 4 });
    for (const c of json.codes) assert.equal(json.refactors.filter((r) => r.codeId === c.id).length, c.id % 4, `code ${c.id}`);
    assert.deepEqual(json.refactors.map((r) => r.id), Array.from({ length: 90 }, (_, i) => i + 1));
    assert.deepEqual(generateCatalogJson({ codes: 60, refactorsPerCode: () => 3 }), generateCatalogJson({ codes: 60 }), 'a constant function is the number');
  });

  it('may be empty, and refuses sizes that are not whole numbers from 0 to the maximum, saying which are allowed', () => {
    const empty = generateCatalogJson({ codes: 0 });
    assert.deepEqual([empty.codes, empty.refactors], [[], []]);
    assert.equal(generateCatalog({ codes: 0 }).codes.size, 0);
    assert.equal(generateCatalogJson({ codes: 1 }).codes.length, 1);
    for (const bad of [-1, 2.5, Number.NaN, MAX_GENERATED_CODES + 1]) {
      assert.throws(() => generateCatalogJson({ codes: bad }), (e: Error) => e instanceof RangeError && e.message === `a generated catalog has 0 to ${MAX_GENERATED_CODES} codes, not ${bad}`, String(bad));
    }
  });

  it('generates the largest size `serve --generate` accepts', function () {
    // 100,000 codes without refactorings or extra authors: about 2 s here, 3 to 4 s on a busy machine.
    this.timeout(30_000);
    const json = generateCatalogJson({ codes: MAX_GENERATED_CODES, refactorsPerCode: 0, users: 0 });
    assert.equal(json.codes.length, MAX_GENERATED_CODES);
    assert.equal(json.codes[MAX_GENERATED_CODES - 1].id, MAX_GENERATED_CODES);
  });

  it('parses as a valid catalog with every code, refactoring and user, named after its size', () => {
    const json = generateCatalogJson({ codes: 110 });
    const catalog = generateCatalog({ codes: 110 });
    assert.equal(catalog.codes.size, 110);
    assert.equal(catalog.recentRefactors.all.length, json.refactors.length);
    assert.equal(catalog.users.size, json.users.length);
    assert.match(catalog.source, /\b110\b/);
    // Newest last: the recent listing is the codes in reverse.
    assert.deepEqual(catalog.recentCodes.all.map((c) => c.id), json.codes.map((c) => c.id).reverse());
  });
});

describe('generated catalog: content', () => {
  it('has codes in all 16 languages, each a renamed copy of a sample code in the same language', () => {
    const s = sample();
    const json = generateCatalogJson({ codes: 2 * s.codes.length });
    assert.deepEqual(new Set(json.codes.map((c) => c.language)), new Set(SERVICE_LANGUAGES));
    for (const c of json.codes) {
      const name = nameOf(c.title);
      const src = s.codes.find((x) => `${x.title}, ${name}` === c.title);
      assert.ok(src, `code ${c.id}'s title "${c.title}" is a sample title and a word`);
      assert.equal(c.language, src.language);
      assert.deepEqual(c.tags, src.tags);
      assert.equal(c.permalink, undefined, 'a permalink is derived from the new title, not copied');
      // The code is the sample's with one identifier renamed (suffixed with the code's word).
      const lines = catalogLines(c.code);
      assert.deepEqual(lines.map((l) => l.split(`_${name}`).join('')), catalogLines(src.code), `code ${c.id}`);
      const renamed = lines.join('\n').match(new RegExp(`\\b(\\w+)_${name}\\b`, 'g')) ?? [];
      if (/\b[A-Za-z_]\w{5,}\b/.test(catalogLines(src.code).join('\n'))) {
        assert.ok(renamed.length > 0, `code ${c.id} has an identifier of its own`);
        // An identifier of six or more characters: short words like keywords are left alone.
        assert.equal(new Set(renamed).size, 1, `code ${c.id} renames one identifier`);
        assert.match(renamed[0]!, new RegExp(`^[A-Za-z_]\\w{5,}_${name}$`));
      } else {
        assert.deepEqual(renamed, [], `code ${c.id}`);
      }
      assert.ok((c.comment ?? '').startsWith(`${src.comment}\n(${name} `), `code ${c.id}'s comment names its word`);
    }
  });

  it('gives each code a word of its own: generated words are pronounceable, 4 to 8 letters, and varied', () => {
    const json = generateCatalogJson({ codes: 400, refactorsPerCode: 1, users: 50 });
    const names = json.codes.map((c) => nameOf(c.title));
    for (const n of names) assert.match(n, WORD);
    const commentWords = json.codes.map((c) => /\((\w+) (\w+)\)$/.exec(c.comment ?? '')!);
    for (const [, first, second] of commentWords) {
      assert.match(first, WORD);
      assert.match(second, WORD);
    }
    assert.ok(new Set(names).size > 350, `varied: ${new Set(names).size} distinct of 400`);
    const lengths = new Set(names.map((n) => n.length));
    assert.deepEqual([...lengths].sort(), [4, 6, 8], 'two, three and four syllables all occur');
    const syllables = new Set(names.join('').match(/../g));
    assert.ok(syllables.size >= 15, `most syllables occur: ${syllables.size}`);
  });

  it('dates codes evenly from 2008-01-01, newest last, and each refactoring after its code and before the next', () => {
    const json = generateCatalogJson({ codes: 90 });
    assert.equal(json.codes[0].createdAt, '2008-01-01T00:00:00+00:00');
    const step = minutes(json.codes[1].createdAt) - minutes(json.codes[0].createdAt);
    assert.ok(step > 0 && Number.isInteger(step), `a whole number of minutes apart: ${step}`);
    json.codes.forEach((c, i) => {
      assert.match(c.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      assert.equal(c.updatedAt, c.createdAt);
      assert.equal(minutes(c.createdAt), minutes(json.codes[0].createdAt) + i * step, `code ${c.id}`);
    });
    for (const r of json.refactors) {
      const own = minutes(json.codes[r.codeId - 1].createdAt);
      assert.match(r.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      assert.ok(minutes(r.createdAt) > own && minutes(r.createdAt) < own + step, `refactoring ${r.id}: ${r.createdAt}`);
    }
    const ofFirst = json.refactors.filter((r) => r.codeId === 1).map((r) => minutes(r.createdAt));
    assert.equal(new Set(ofFirst).size, ofFirst.length, 'a code\'s refactorings are not simultaneous');
  });

  it('copies refactorings of the same code (or language), renamed like their code, by registered authors', () => {
    const s = sample();
    const json = generateCatalogJson({ codes: s.codes.length });
    const userIds = new Set(json.users.map((u) => u.id));
    for (const r of json.refactors) {
      const code = json.codes[r.codeId - 1];
      const srcCode = s.codes.find((x) => code.title === `${x.title}, ${nameOf(code.title)}`)!;
      const own = s.refactors.filter((x) => x.codeId === srcCode.id);
      const pool = own.length > 0 ? own : s.refactors.filter((x) => s.codes.find((c) => c.id === x.codeId)!.language === srcCode.language);
      const name = nameOf(code.title);
      const codeText = catalogLines(r.code).map((l) => l.split(`_${name}`).join(''));
      const src = pool.find((x) => (r.title ?? '').startsWith(`${x.title} `) && JSON.stringify(x.code) === JSON.stringify(codeText));
      assert.ok(src, `refactoring ${r.id} copies one of the sample's for code ${srcCode.id}'s language`);
      assert.match(r.title!.slice(src.title!.length + 1), WORD);
      assert.equal(r.comment, src.comment);
      assert.ok(r.userId !== null && userIds.has(r.userId), `refactoring ${r.id} has a registered author`);
      assert.equal(r.userName, undefined);
      assert.equal(r.userWebsite, undefined);
    }
  });

  it('uses every sample refactoring once the catalog has enough copies of each code', () => {
    const s = sample();
    const json = generateCatalogJson({ codes: 10 * s.codes.length, users: 20 });
    for (const src of s.refactors) {
      assert.ok(json.refactors.some((r) => (r.title ?? '').startsWith(`${src.title} `) && r.comment === src.comment), `sample refactoring ${src.id} is used`);
    }
  });

  it('rates refactorings as the service does: no votes, rating 0; votes, a rating of 1 to 5; never more votes than users', () => {
    const json = generateCatalogJson({ codes: 150, users: 40 });
    let voted = 0;
    for (const r of json.refactors) {
      assert.ok(Number.isInteger(r.ratingsCount) && r.ratingsCount >= 0 && r.ratingsCount <= json.users.length, `refactoring ${r.id}: ${r.ratingsCount} votes`);
      if (r.ratingsCount === 0) {
        assert.equal(r.rating, 0, `refactoring ${r.id}`);
      } else {
        voted++;
        assert.ok(Number.isInteger(r.rating) && r.rating >= 1 && r.rating <= 5, `refactoring ${r.id}: rating ${r.rating}`);
      }
    }
    assert.ok(voted > 0 && voted < json.refactors.length, 'some refactorings are rated, some not');
    assert.equal(new Set(json.refactors.map((r) => r.rating)).size, 6, 'every rating from 0 to 5 occurs');
  });

  it('keeps the sample\'s users and adds authors with two-word names, ratings from 0 to 5 and no identity URL', () => {
    const s = sample();
    const json = generateCatalogJson({ codes: 10, users: 300 });
    assert.deepEqual(json.users.slice(0, s.users.length), s.users);
    const added = json.users.slice(s.users.length);
    const firstId = Math.max(...s.users.map((u) => u.id)) + 1;
    assert.deepEqual(added.map((u) => u.id), Array.from({ length: 300 }, (_, i) => firstId + i));
    for (const u of added) {
      const words = u.name.split(' ');
      assert.equal(words.length, 2, u.name);
      for (const w of words) {
        assert.equal(w.charAt(0), w.charAt(0).toUpperCase(), `${u.name} is capitalised`);
        assert.match(w.toLowerCase(), WORD);
      }
      assert.ok(u.rating >= 0 && u.rating <= 5 && Number.isInteger(u.rating * 10), `${u.name}: rating ${u.rating}`);
      assert.equal(u.identityUrl, '', 'a generated author has no identity URL');
    }
    assert.ok(new Set(added.map((u) => u.name)).size > 290, 'names are varied');
    assert.ok(new Set(added.map((u) => u.rating)).size > 30, 'ratings are varied');
    // Codes and refactorings are written by generated authors too, not only by the sample's.
    assert.ok(json.codes.some((c) => (c.userId ?? 0) >= firstId));
  });
});
