// What a self-hoster's catalog file means, field by field: which values are refused (with the one-line
// message naming file, entry and field), what optional fields default to, how datetimes with offsets
// are read, and how the parsed catalog is ordered and counted. Every catalog here is built and parsed
// inside its test, so that mutation testing's per-test coverage credits the test that would notice.

import * as assert from 'node:assert/strict';
import { SERVICE_LANGUAGES } from '../../../src/core/languages';
import { DatasetError, parseDataset, type Dataset } from '../../../src/server/catalog/dataset';
import type { CatalogJson, CodeJson, RefactorJson, UserJson } from '../../helpers/referenceService';

type Loose = Record<string, unknown>;

/** A small valid catalog: two users, two codes, three refactorings (one anonymous). */
function catalog(): CatalogJson {
  const users: UserJson[] = [
    { id: 1, name: 'Ada', identityUrl: 'https://ada.example/', rating: 4.5, website: 'https://ada.example/site' },
    { id: 2, name: 'Bob', identityUrl: '', rating: 0 },
  ];
  const codes: CodeJson[] = [
    { id: 1, title: 'Sum an array', language: 'Ruby', userId: 1, createdAt: '2008-03-14T09:00:00+00:00', updatedAt: '2008-03-14T09:00:00+00:00', comment: 'c', trackbackUrl: '', tags: ['speed'], code: 'x = 1' },
    { id: 2, title: 'Print it', language: 'Python', userId: 2, createdAt: '2008-03-15T09:00:00+00:00', updatedAt: '2008-03-15T09:00:00+00:00', comment: '', tags: [], code: ['print(1)'] },
  ];
  const refactors: RefactorJson[] = [
    { id: 1, codeId: 1, userId: 2, title: 'Shorter', rating: 3, ratingsCount: 2, createdAt: '2008-03-14T10:00:00+00:00', comment: '', code: 'x=1' },
    { id: 2, codeId: 1, userId: null, userName: 'anon', title: '', rating: 0, ratingsCount: 0, createdAt: '2008-03-14T11:00:00+00:00', comment: '', code: 'x = 1 # ok' },
    { id: 3, codeId: 2, userId: 2, title: 'Py3', rating: 5, ratingsCount: 1, createdAt: '2008-03-16T09:00:00+00:00', comment: '', code: 'print (1)' },
  ];
  return { users, codes, refactors };
}

function parse(change: (json: CatalogJson) => void = () => undefined): Dataset {
  const json = catalog();
  change(json);
  return parseDataset(json, 'catalog.json');
}

function refusal(change: (json: CatalogJson) => void): string {
  try {
    parse(change);
  } catch (e) {
    assert.ok(e instanceof DatasetError, `expected a DatasetError, got ${String(e)}`);
    return e.message;
  }
  return assert.fail('the catalog was accepted');
}

const code0 = (j: CatalogJson): Loose => j.codes[0] as unknown as Loose;
const refactor0 = (j: CatalogJson): Loose => j.refactors[0] as unknown as Loose;

describe('catalog fields: refused values', () => {
  it('refuses a null entry as not an object', () => {
    assert.equal(refusal((j) => { (j.users as unknown[])[1] = null; }), 'catalog.json: users[1]: must be an object');
  });

  it('refuses an id of 0 (ids start at 1) but accepts 1', () => {
    assert.equal(refusal((j) => { j.codes[1].id = 0; }), 'catalog.json: codes[1]: "id" must be a whole number of at least 1');
    assert.equal(parse().codes.get(1)!.id, 1);
  });

  it('refuses a user name or code title of spaces only', () => {
    assert.equal(refusal((j) => { j.users[1].name = '   '; }), 'catalog.json: users[1] (id 2): "name" must be a non-empty string');
    assert.equal(refusal((j) => { j.users[1].name = ''; }), 'catalog.json: users[1] (id 2): "name" must be a non-empty string');
    assert.equal(refusal((j) => { j.codes[1].title = ' \t '; }), 'catalog.json: codes[1] (id 2): "title" must be a non-empty string');
  });

  it('refuses code lines that are not strings, and code that is neither text nor lines', () => {
    assert.equal(refusal((j) => { code0(j).code = ['a', 5]; }), 'catalog.json: codes[0] (id 1): "code[1]" must be a string');
    assert.equal(refusal((j) => { code0(j).code = 42; }), 'catalog.json: codes[0] (id 1): "code" must be a string or an array of lines');
  });

  it('refuses a refactoring whose code and comment are both empty or blank, and takes a comment alone', () => {
    assert.equal(refusal((j) => { j.refactors[1].code = ''; }), 'catalog.json: refactors[1] (id 2): "code" must not be empty when "comment" is');
    assert.equal(refusal((j) => { j.refactors[2].code = [' ', '']; j.refactors[2].comment = ' '; }), 'catalog.json: refactors[2] (id 3): "code" must not be empty when "comment" is');
    assert.equal(parse((j) => { j.refactors[2].code = ''; j.refactors[2].comment = 'Fine as it is.'; }).codes.get(2)!.refactors[0].code, '');
  });

  it('refuses tags that are not a list of trimmed, non-empty strings', () => {
    assert.equal(refusal((j) => { code0(j).tags = 'speed'; }), 'catalog.json: codes[0] (id 1): "tags" must be an array of strings');
    const bad = 'must be a non-empty string without surrounding spaces';
    assert.equal(refusal((j) => { code0(j).tags = ['ok', 3]; }), `catalog.json: codes[0] (id 1): "tags[1]" ${bad}`);
    assert.equal(refusal((j) => { code0(j).tags = ['ok', ' padded']; }), `catalog.json: codes[0] (id 1): "tags[1]" ${bad}`);
    assert.equal(refusal((j) => { code0(j).tags = ['trailing ']; }), `catalog.json: codes[0] (id 1): "tags[0]" ${bad}`);
    assert.equal(refusal((j) => { code0(j).tags = ['']; }), `catalog.json: codes[0] (id 1): "tags[0]" ${bad}`);
    assert.deepEqual(parse((j) => { code0(j).tags = ['two words', 'x']; }).codes.get(1)!.tags, ['two words', 'x']);
  });

  it('refuses impossible dates and times, each part on its own', () => {
    const at = (v: string) => refusal((j) => { j.codes[1].updatedAt = v; });
    for (const v of [
      '2008-13-01T00:00:00+00:00', // month 13
      '2008-04-31T00:00:00+00:00', // April has 30 days
      '2009-02-29T00:00:00+00:00', // not a leap year
      '2008-03-16T24:00:00+00:00', // hour 24
      '2008-03-16T10:60:00+00:00', // minute 60
      '2008-03-16T10:00:60+00:00', // second 60
      '0050-03-16T10:00:00+00:00', // a year Date.UTC would read as 1950
      '2008-00-10T10:00:00+00:00', // month 0
      '2008-03-00T10:00:00+00:00', // day 0
      '2008-03-16T10:00:00+24:00', // offset hour 24
      '2008-03-16T10:00:00+05:60', // offset minute 60
    ]) {
      assert.equal(at(v), `catalog.json: codes[1] (id 2): "updatedAt" is not a real date and time: ${v}`, v);
    }
  });

  it('accepts the extremes of real dates and offsets', () => {
    const d = parse((j) => {
      j.codes[1].createdAt = '2008-02-29T23:59:59+23:59';
      j.codes[1].updatedAt = '2008-12-31T00:00:00-23:59';
    }).codes.get(2)!;
    assert.equal(d.createdAt.text, '2008-02-29T23:59:59+23:59');
    assert.equal(d.createdAt.date.toISOString(), '2008-02-29T00:00:59.000Z');
    assert.equal(d.updatedAt.date.toISOString(), '2008-12-31T23:59:00.000Z');
  });

  it('refuses a stored author website on a registered author\'s refactoring', () => {
    assert.equal(
      refusal((j) => { j.refactors[0].userWebsite = 'https://x.example/'; }),
      'catalog.json: refactors[0] (id 1): "userWebsite" must be left out for a registered author (it comes from the user)',
    );
  });
});

describe('catalog fields: what they mean', () => {
  it('reads each offset into the instant it names, and keeps the text as written (Z as +00:00)', () => {
    const d = parse((j) => {
      j.codes[0].createdAt = '2008-03-14T06:26:53-03:30';
      j.codes[0].updatedAt = '2008-03-14T16:26:53+05:45';
      j.codes[1].createdAt = '2008-03-15T09:00:00Z';
      j.codes[1].updatedAt = '2008-03-15T09:00:00Z';
    });
    const [a, b] = [d.codes.get(1)!, d.codes.get(2)!];
    assert.equal(a.createdAt.text, '2008-03-14T06:26:53-03:30');
    assert.equal(a.createdAt.date.toISOString(), '2008-03-14T09:56:53.000Z');
    assert.equal(a.updatedAt.text, '2008-03-14T16:26:53+05:45');
    assert.equal(a.updatedAt.date.toISOString(), '2008-03-14T10:41:53.000Z');
    assert.equal(b.createdAt.text, '2008-03-15T09:00:00+00:00');
    assert.equal(b.createdAt.date.toISOString(), '2008-03-15T09:00:00.000Z');
  });

  it('gives absent optional fields empty values: comments, trackback, website, tags, titles', () => {
    const d = parse((j) => {
      delete code0(j).comment;
      delete code0(j).trackbackUrl;
      delete code0(j).tags;
      delete refactor0(j).comment;
      delete refactor0(j).title;
      delete (j.refactors[1] as unknown as Loose).userWebsite;
    });
    const c = d.codes.get(1)!;
    assert.equal(c.comment, '');
    assert.equal(c.trackbackUrl, '');
    assert.deepEqual(c.tags, []);
    const r = c.refactors.find((x) => x.id === 1)!;
    assert.equal(r.comment, '');
    assert.equal(r.title, '');
    assert.equal(c.refactors.find((x) => x.id === 2)!.userWebsite, '');
    assert.equal(d.users.get(2)!.website, '');
  });

  it('joins code lines with a line break', () => {
    const c = parse((j) => { j.codes[1].code = ['def f():', '    return 1', '']; }).codes.get(2)!;
    assert.equal(c.code, 'def f():\n    return 1\n');
  });

  it('derives "code" as the permalink of a title with no letters or digits', () => {
    const d = parse((j) => { j.codes[0].title = '?!'; j.codes[1].title = '  --  Ünïcode, café!  '; });
    assert.equal(d.codes.get(1)!.permalink, 'code');
    assert.equal(d.codes.get(2)!.permalink, 'unicode-cafe');
  });

  it('keeps each user\'s fields and counts the refactorings they wrote', () => {
    const d = parse();
    assert.deepEqual({ ...d.users.get(1)! }, { id: 1, name: 'Ada', identityUrl: 'https://ada.example/', rating: 4.5, website: 'https://ada.example/site', refactorsCount: 0 });
    assert.deepEqual({ ...d.users.get(2)! }, { id: 2, name: 'Bob', identityUrl: '', rating: 0, website: '', refactorsCount: 2 });
    const [byBob, anonymous] = [1, 2].map((id) => d.codes.get(1)!.refactors.find((r) => r.id === id)!);
    assert.equal(byBob.userName, 'Bob');
    assert.equal(byBob.user, d.users.get(2), 'a registered author\'s refactoring carries its user (the recent list shows it)');
    assert.equal(anonymous.user, undefined);
    assert.equal(anonymous.userName, 'anon');
  });

  it('lists a code\'s refactorings oldest first, ties by the lower id', () => {
    const d = parse((j) => {
      j.refactors[0].createdAt = '2008-03-14T12:00:00+00:00';
      j.refactors.push({ id: 4, codeId: 1, userId: 1, rating: 0, ratingsCount: 0, createdAt: '2008-03-14T09:30:00+00:00', code: 'y' });
      j.refactors.push({ id: 5, codeId: 1, userId: 1, rating: 0, ratingsCount: 0, createdAt: '2008-03-14T12:00:00+00:00', code: 'z' });
    });
    assert.deepEqual(d.codes.get(1)!.refactors.map((r) => r.id), [4, 2, 1, 5]);
    assert.equal(d.codes.get(1)!.refactorsCount, 4);
  });

  it('lists recent items newest first, ties by the higher id, and popular codes by refactorings count', () => {
    const d = parse((j) => {
      // Code 3 as old as code 1 and without refactorings; code 2 newest with one.
      j.codes.push({ id: 3, title: 'Third', language: 'Ruby', userId: 1, createdAt: '2008-03-14T09:00:00+00:00', updatedAt: '2008-03-14T09:00:00+00:00', code: 'z' });
      j.refactors.push({ id: 4, codeId: 3, userId: 1, rating: 0, ratingsCount: 0, createdAt: '2008-03-16T09:00:00+00:00', code: 'y' });
    });
    assert.deepEqual(d.recentCodes.all.map((c) => c.id), [2, 3, 1]);
    assert.deepEqual(d.popularCodes.all.map((c) => c.id), [1, 2, 3]);
    assert.deepEqual(d.recentRefactors.all.map((r) => r.id), [4, 3, 2, 1]);
    assert.deepEqual(d.recentCodes.byLanguage.get('ruby')!.map((c) => c.id), [3, 1]);
  });

  it('breaks a popularity tie by recency', () => {
    const d = parse((j) => {
      j.refactors.push({ id: 4, codeId: 2, userId: 1, rating: 0, ratingsCount: 0, createdAt: '2008-03-15T10:00:00+00:00', code: 'y' });
    });
    // Both codes have two refactorings now: the newer code first.
    assert.deepEqual(d.popularCodes.all.map((c) => c.id), [2, 1]);
  });

  it('offers just the languages it has codes in, in the service\'s order', () => {
    const d = parse((j) => { j.codes[0].language = 'haskell'; j.codes[1].language = 'C'; });
    assert.deepEqual(d.languages, SERVICE_LANGUAGES.filter((l) => l === 'C' || l === 'Haskell'));
    assert.deepEqual([...parse().languages].sort(), ['Python', 'Ruby']);
  });
});
