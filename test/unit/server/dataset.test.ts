// The catalog a self-hoster writes: every mistake is refused with one line naming the file, the
// entry and the field; what loads has its counts derived and its listings in the documented order.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SERVICE_LANGUAGES } from '../../../src/core/languages';
import { hasSections, splitSections } from '../../../src/core/sections';
import { DatasetError, parseDataset } from '../../../src/server/catalog/dataset';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { loadDatasetFile } from '../../../src/server/catalog/datasetFile';
import { Oracle, readFixture, samplePath, type CatalogJson } from '../../helpers/referenceService';

/** A deep copy of the escaping fixture with one change applied. */
function broken(change: (json: CatalogJson & Record<string, unknown>) => void): unknown {
  const json = structuredClone(readFixture('escaping.json')) as CatalogJson & Record<string, unknown>;
  change(json);
  return json;
}

function errorOf(json: unknown, source = 'catalog.json'): DatasetError {
  try {
    parseDataset(json, source);
  } catch (e) {
    assert.ok(e instanceof DatasetError, `expected a DatasetError, got ${String(e)}`);
    assert.ok(!e.message.includes('\n'), 'one line');
    return e;
  }
  return assert.fail('the catalog was accepted');
}

describe('catalog validation', () => {
  const cases: [string, (j: CatalogJson & Record<string, unknown>) => void, string][] = [
    ['an empty language', (j) => { j.codes[1].language = ''; }, 'catalog.json: codes[1] (id 8): "language" must be a non-empty string'],
    ['a language the service does not offer', (j) => { j.codes[0].language = 'COBOL'; }, `catalog.json: codes[0] (id 7): "language" must be one of ${SERVICE_LANGUAGES.join(', ')}`],
    ['a missing title', (j) => { delete (j.codes[2] as Partial<CatalogJson['codes'][0]>).title; }, 'catalog.json: codes[2] (id 9): "title" must be a non-empty string'],
    ['a repeated code id', (j) => { j.codes[3].id = 8; }, 'catalog.json: codes[3]: "id" repeats the id of codes[1] (id 8)'],
    ['a code id that is not a whole number', (j) => { j.codes[0].id = 1.5; }, 'catalog.json: codes[0]: "id" must be a whole number of at least 1'],
    ['an unknown author', (j) => { j.codes[2].userId = 99; }, 'catalog.json: codes[2] (id 9): "userId" names no user (no user has id 99)'],
    ['a refactoring of no code', (j) => { j.refactors[1].codeId = 5; }, 'catalog.json: refactors[1] (id 101): "codeId" names no code (no code has id 5)'],
    ['a refactoring by an unknown user', (j) => { j.refactors[2].userId = 42; }, 'catalog.json: refactors[2] (id 102): "userId" names no user (no user has id 42)'],
    ['a refactoring older than its code', (j) => { j.refactors[0].createdAt = '2008-03-14T09:26:52-03:00'; }, 'catalog.json: refactors[0] (id 100): "createdAt" is before the createdAt of code 7 (2008-03-14T09:26:53-03:00)'],
    ['a datetime without an offset', (j) => { j.codes[0].createdAt = '2008-03-14T09:26:53'; }, 'catalog.json: codes[0] (id 7): "createdAt" must be a datetime like 2008-03-14T09:26:53+01:00'],
    ['an impossible date', (j) => { j.codes[0].updatedAt = '2008-02-30T09:26:53+01:00'; }, 'catalog.json: codes[0] (id 7): "updatedAt" is not a real date and time: 2008-02-30T09:26:53+01:00'],
    ['updated before created', (j) => { j.codes[3].updatedAt = '2007-01-01T00:00:00+00:00'; }, 'catalog.json: codes[3] (id 10): "updatedAt" is before createdAt'],
    ['a stored name for a registered author', (j) => { j.refactors[1].userName = 'Someone'; }, 'catalog.json: refactors[1] (id 101): "userName" must be left out for a registered author (it comes from the user)'],
    ['an anonymous author without a name field', (j) => { delete j.refactors[0].userName; }, 'catalog.json: refactors[0] (id 100): "userName" must be a string'],
    ['a misspelt field', (j) => { (j.users[0] as unknown as Record<string, unknown>).webSite = 'x'; }, 'catalog.json: users[0] (id 1): "webSite" is not a known field'],
    ['a NUL in a comment', (j) => { j.codes[1].comment = 'a\u0000b'; }, 'catalog.json: codes[1] (id 8): "comment" holds U+0000, a character XML 1.0 cannot carry'],
    ['a form feed in a code line', (j) => { j.codes[0].code = ['ok', 'page\fbreak']; }, 'catalog.json: codes[0] (id 7): "code" holds U+000C, a character XML 1.0 cannot carry'],
    ['U+FFFE in a user name', (j) => { j.users[2].name = 'x\uFFFE'; }, 'catalog.json: users[2] (id 3): "name" holds U+FFFE, a character XML 1.0 cannot carry'],
    ['a lone surrogate in a tag', (j) => { j.codes[3].tags = ['ok', 'bad\uD800']; }, 'catalog.json: codes[3] (id 10): "tags[1]" holds U+D800, a character XML 1.0 cannot carry'],
    ['a line break inside a code line', (j) => { j.refactors[2].code = ['a\nb']; }, 'catalog.json: refactors[2] (id 102): "code[0]" must be one line (no line breaks inside an array item)'],
    ['an empty code', (j) => { j.codes[2].code = ['', '']; }, 'catalog.json: codes[2] (id 9): "code" must not be empty'],
    ['a permalink that is not lower-case words', (j) => { j.codes[3].permalink = 'Sum Prices'; }, 'catalog.json: codes[3] (id 10): "permalink" must be lower-case words joined by hyphens, e.g. sum-an-array'],
    ['a repeated tag', (j) => { j.codes[3].tags = ['speed', 'Speed']; }, 'catalog.json: codes[3] (id 10): "tags[1]" repeats "Speed"'],
    ['a negative ratings count', (j) => { j.refactors[3].ratingsCount = -1; }, 'catalog.json: refactors[3] (id 103): "ratingsCount" must be a whole number of at least 0'],
    ['a user rating that is not a number', (j) => { (j.users[1] as unknown as Record<string, unknown>).rating = '4.5'; }, 'catalog.json: users[1] (id 2): "rating" must be a number'],
    ['a refactoring with neither code nor comment', (j) => { j.refactors[0].code = ['  ']; }, 'catalog.json: refactors[0] (id 100): "code" must not be empty when "comment" is'],
    ['an entry that is not an object', (j) => { (j.refactors as unknown[])[3] = 'x'; }, 'catalog.json: refactors[3]: must be an object'],
    ['a missing list', (j) => { delete (j as Partial<CatalogJson>).refactors; }, 'catalog.json: "refactors" must be an array'],
    ['a mined origin that is not an object', (j) => { (j.codes[0] as unknown as Record<string, unknown>).mined = 'x'; }, 'catalog.json: codes[0] (id 7): "mined" must be an object'],
    ['a mined origin without its function', (j) => { (j.codes[0] as unknown as Record<string, unknown>).mined = { commit: 'a'.repeat(40), path: 'lib/a.js' }; }, 'catalog.json: codes[0] (id 7): "mined.function" must be a non-empty string'],
    ['a mined origin whose commit is not a hash', (j) => { j.codes[0].mined = { commit: 'HEAD', path: 'lib/a.js', function: 'f' }; }, 'catalog.json: codes[0] (id 7): "mined.commit" must be a commit\'s hash (7 to 64 of 0-9 and a-f)'],
    ['a misspelt field of a mined origin', (j) => { (j.codes[0] as unknown as Record<string, unknown>).mined = { commit: 'a'.repeat(40), path: 'lib/a.js', function: 'f', line: 3 }; }, 'catalog.json: codes[0] (id 7): "mined.line" is not a known field'],
    ['a repeated mined origin', (j) => { j.codes[0].mined = { commit: 'a'.repeat(40), path: 'lib/a.js', function: 'f' }; j.codes[3].mined = { ...j.codes[0].mined }; }, 'catalog.json: codes[3] (id 10): "mined" repeats the origin of codes[0] (id 7): the same function at the same commit'],
    ['an unknown top-level key', (j) => { j.tags = []; }, 'catalog.json: catalog: "tags" is not a known field'],
  ];
  for (const [what, change, message] of cases) {
    it(`refuses ${what}, naming file, entry and field`, () => {
      assert.equal(errorOf(broken(change)).message, message);
    });
  }

  it('takes a refactoring that is a comment alone, with empty code', () => {
    const dataset = parseDataset(broken((j) => { j.refactors[1].code = ''; }), 'catalog.json');
    const refactor = dataset.recentRefactors.all.find((r) => r.id === 101);
    assert.equal(refactor?.code, '');
    assert.equal(refactor?.comment, 'Shorter.\n  And clearer.');
  });

  it('refuses a catalog that is not an object', () => {
    assert.equal(errorOf([], 'x.json').message, 'x.json: catalog: must be an object');
  });

  it('names the file as given when loading one, and reports unreadable or malformed files', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-test-'));
    try {
      const bad = path.join(dir, 'bad.json');
      fs.writeFileSync(bad, JSON.stringify(broken((j) => { j.codes[1].language = ''; })));
      assert.throws(() => loadDatasetFile(bad), { name: 'DatasetError', message: `${bad}: codes[1] (id 8): "language" must be a non-empty string` });
      const notJson = path.join(dir, 'not.json');
      fs.writeFileSync(notJson, '{"users": [');
      assert.throws(() => loadDatasetFile(notJson), (e: Error) => e instanceof DatasetError && e.message.startsWith(`${notJson}: is not valid JSON (`));
      const missing = path.join(dir, 'missing.json');
      assert.throws(() => loadDatasetFile(missing), { message: `${missing}: cannot be read: there is no such file or folder` });
      const good = path.join(dir, 'good.json');
      fs.writeFileSync(good, JSON.stringify(readFixture('escaping.json')));
      assert.equal(loadDatasetFile(good).codes.size, 4);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('catalog resolution', () => {
  const json = readFixture('escaping.json');
  const oracle = new Oracle(json);
  const catalog = parseDataset(json, 'escaping.json');

  it('offers only the languages it has codes in (the index page lists them), in the service\'s order', () => {
    // The fixture's codes are in C++, c#, VB.NET and Ruby, in that order: four of the sixteen. Parsed
    // here, in the test, so that mutation testing's per-test coverage credits this test with it.
    const { languages } = parseDataset(readFixture('escaping.json'), 'escaping.json');
    assert.deepEqual(languages, SERVICE_LANGUAGES.filter((l) => ['C++', 'C#', 'VB.NET', 'Ruby'].includes(l)));
    assert.equal(languages.length, 4);
  });

  it('derives code and user refactoring counts from the refactorings', () => {
    for (const c of json.codes) assert.equal(catalog.codes.get(c.id)!.refactorsCount, json.refactors.filter((r) => r.codeId === c.id).length);
    for (const u of json.users) assert.equal(catalog.users.get(u.id)!.refactorsCount, json.refactors.filter((r) => r.userId === u.id).length);
    assert.equal(catalog.codes.get(9)!.refactorsCount, 0);
  });

  it('gives refactorings their code language and registered authors their user name and website', () => {
    const r = catalog.codes.get(7)!.refactors.find((x) => x.id === 101)!;
    assert.equal(r.language, 'C++');
    assert.equal(r.userName, json.users[1].name);
    assert.equal(r.userWebsite, json.users[1].website);
    const anon = catalog.codes.get(7)!.refactors.find((x) => x.id === 100)!;
    assert.equal(anon.userName, json.refactors[0].userName);
    assert.equal(anon.user, undefined);
  });

  it('spells languages as the service does, derives missing permalinks, keeps each offset', () => {
    assert.equal(catalog.codes.get(8)!.language, 'C#');
    assert.equal(catalog.codes.get(9)!.permalink, 'uberprufe-die-eingabe-schnell');
    assert.equal(catalog.codes.get(8)!.permalink, 'crlf');
    assert.equal(catalog.codes.get(7)!.createdAt.text, '2008-03-14T09:26:53-03:00');
    assert.equal(catalog.codes.get(9)!.createdAt.text, '2008-03-16T06:30:00+00:00');
    assert.equal(catalog.codes.get(8)!.createdAt.date.toISOString(), '2008-03-16T06:30:00.000Z');
  });

  it('joins code lines with \\n, a trailing "" giving the final newline', () => {
    assert.equal(catalog.codes.get(10)!.code, 'def total(items)\n  items.inject(0) { |s, i| s + i.price }\nend');
    assert.ok(catalog.codes.get(7)!.code.endsWith('}\n\n'));
    assert.equal(catalog.codes.get(8)!.code, 'class A\r\n{\r\n    int x = 1;\r\n}\r\n');
  });

  it('sorts the listings once: recent, popular with ties by recency, refactorings, tags', () => {
    assert.deepEqual(catalog.recentCodes.all.map((c) => c.id), oracle.recentCodeIds());
    assert.deepEqual(catalog.popularCodes.all.map((c) => c.id), oracle.popularCodeIds());
    assert.deepEqual(catalog.recentRefactors.all.map((r) => r.id), oracle.recentRefactorIds());
    assert.deepEqual(catalog.tags.get('speed')!.codes.all.map((c) => c.id), oracle.recentCodeIds((c) => c.tags?.includes('speed') ?? false));
    assert.deepEqual(catalog.recentCodes.byLanguage.get('c++')!.map((c) => c.id), [7]);
  });
});

describe('the sample catalog', () => {
  const json = JSON.parse(fs.readFileSync(samplePath, 'utf8')) as CatalogJson;
  const catalog = loadSampleDataset();

  it('loads, with every code and refactoring of the file', () => {
    assert.equal(catalog.codes.size, json.codes.length);
    assert.equal(catalog.recentRefactors.all.length, json.refactors.length);
    assert.equal(catalog.source, 'sample catalog');
  });

  it('is what the issue asks for: 40+ codes in 10+ languages, 120+ refactorings, anonymous ones, a Ruby code tagged speed, one without refactorings', () => {
    assert.ok(catalog.codes.size >= 40);
    assert.ok(catalog.languages.length >= 10);
    assert.ok(catalog.recentRefactors.all.length >= 120);
    assert.ok(catalog.recentRefactors.all.some((r) => r.userId === null));
    assert.ok(catalog.tags.get('speed')!.codes.byLanguage.get('ruby')!.length >= 1);
    assert.ok([...catalog.codes.values()].some((c) => c.refactorsCount === 0));
  });

  // What makes the sample worth browsing and worth testing a client against: what a real post holds.
  it('has the content the issue asks for: several tags per code, indented multi-line code, markup characters, multi-line comments, non-ASCII', () => {
    const codes = [...catalog.codes.values()];
    const refactors = catalog.recentRefactors.all;
    const nonAscii = /[^\u0000-\u007f]/;
    for (const c of codes) assert.ok(c.tags.length >= 2, `code ${c.id} has ${c.tags.length} tag(s)`);
    assert.ok(codes.filter((c) => /\n[ \t]+\S/.test(c.code)).length >= codes.length / 2, 'most codes have an indented line after a line break');
    assert.ok(codes.some((c) => ['<', '>', '&', '"', "'"].every((ch) => c.code.includes(ch))), 'a code holds <, >, &, " and \' together');
    assert.ok(codes.some((c) => c.comment.includes('\n')), 'a code comment has a line break');
    assert.ok(refactors.some((r) => r.comment.includes('\n')), 'a refactoring comment has a line break');
    assert.ok(codes.some((c) => nonAscii.test(c.code)), 'a code text is not pure ASCII');
    assert.ok(codes.some((c) => nonAscii.test(c.title) || nonAscii.test(c.comment)), 'a title or comment is not pure ASCII');
    assert.ok([...catalog.users.values()].some((u) => nonAscii.test(u.name)), 'a user name is not pure ASCII');
  });

  it('has a code in sections, one of them in another language, and a refactoring in sections', () => {
    const sectioned = [...catalog.codes.values()].filter((c) => hasSections(splitSections(c.code, c.language)));
    assert.ok(sectioned.some((c) => splitSections(c.code, c.language).some((s) => s.language !== c.language)));
    assert.ok(sectioned.some((c) => c.refactors.some((r) => hasSections(splitSections(r.code, r.language)))));
  });
});
