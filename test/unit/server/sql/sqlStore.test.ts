// The SQL store against real databases: PGlite in memory always, and a PostgreSQL server when
// REFACTOR_BROWSER_TEST_DATABASE names one (scripts/withPostgres.sh starts a private one; CI must).
// The same assertions run on both. What it reads is held equal to the memory Dataset of the same
// catalog, which is the truth; each write is held to its effect, each refusal to storing nothing.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { PAGE_SIZE } from '../../../../src/core/model';
import { languageKey, parseDataset, type Dataset, type DatasetCode, type DatasetRefactor } from '../../../../src/server/catalog/dataset';
import type { CatalogFile } from '../../../../src/core/catalogFile';
import { generateCatalog } from '../../../../src/server/catalog/generatedCatalog';
import { minedCatalog } from '../../../../src/mining/catalog';
import type { Mined } from '../../../../src/mining/miner';
import { loadSampleDataset } from '../../../../src/server/catalog/sampleDataset';
import { openPglite, openPgliteWorker, openPostgres, type Sql } from '../../../../src/server/sql/executor';
import { migrate, MIGRATIONS } from '../../../../src/server/sql/migrations';
import { openSqlStore, type SqlStore } from '../../../../src/server/sql/sqlStore';
import { tokenHash } from '../../../../src/server/tokens';
import type { ListedCode, ListedRefactor, NewCode } from '../../../../src/server/store';
import { waitFor } from '../../../helpers/poll';
import { postgresOrSkip, TEST_DATABASE } from '../../../helpers/postgres';
import { samplePath } from '../../../helpers/referenceService';

function listed(code: DatasetCode): ListedCode {
  const { refactors: _refactors, ...rest } = code;
  return rest;
}

function listedRefactor(dataset: Dataset, r: DatasetRefactor): ListedRefactor {
  const code = dataset.codes.get(r.codeId)!;
  return { ...r, of: { id: code.id, title: code.title, permalink: code.permalink } };
}

function pagesOf<T>(all: readonly T[]): number {
  return Math.ceil(all.length / PAGE_SIZE) + 1;
}

/** Every page of a listing, one past the end included, against the Dataset's slice. */
async function assertPages<T, U>(what: string, all: readonly T[], read: (page: number) => Promise<{ items: readonly U[]; hasNext: boolean }>, expect: (item: T) => U): Promise<void> {
  for (let page = 1; page <= pagesOf(all); page++) {
    const got = await read(page);
    const slice = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    assert.deepEqual(got.items, slice.map(expect), `${what}, page ${page}`);
    assert.equal(got.hasNext, all.length > page * PAGE_SIZE, `${what}, page ${page}: hasNext`);
  }
}

const sampleJson = (): unknown => JSON.parse(fs.readFileSync(samplePath, 'utf8'));

function newCode(over: Partial<NewCode> = {}): NewCode {
  return { title: 'Swap two variables', language: 'Python', comment: 'Without a temporary.', code: 'a, b = b, a\n', tags: ['Tuples', 'style'], ...over };
}

/** How many rows each table holds: what a refused write must leave as it was. */
async function rowCounts(sql: Sql): Promise<Record<string, number>> {
  const [row] = await sql.query<Record<string, number | string>>(
    `select (select count(*) from users) as users, (select count(*) from codes) as codes, (select count(*) from code_tags) as tags,
       (select count(*) from refactors) as refactors, (select count(*) from ratings) as ratings,
       (select coalesce(sum(refactors_count), 0) from codes) as refactors_counted`,
  );
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

/** The suite both databases run: `open` gives a fresh connection to an emptied database. */
function storeTests(open: () => Promise<Sql>, server: boolean): void {
  let sql: Sql;
  let store: SqlStore;
  const sample = loadSampleDataset();

  before(async function () {
    this.timeout(60_000);
    sql = await open();
    store = await openSqlStore(sql);
  });

  after(async function () {
    this.timeout(20_000);
    await store?.close();
  });

  beforeEach(async () => {
    await sql.query('truncate users, codes, code_tags, refactors, ratings restart identity cascade');
  });

  /** Imports the sample catalog and checks it was taken whole. */
  async function importSample(): Promise<void> {
    const result = await store.importCatalog(sample);
    assert.deepEqual(result, { value: { users: 12, codes: 54, refactors: 134 } });
  }

  /** A person with a token, for writes. */
  async function person(name: string): Promise<number> {
    const result = await store.addPerson(name, { website: `https://${name.toLowerCase()}.example` }, await tokenHash(`token of ${name}`));
    assert.ok(!result.refused, result.refused && result.message);
    return result.value.id;
  }

  describe('reads, after importing the sample catalog', () => {
    beforeEach(importSample);

    it('lists recent and popular codes and recent refactorings as the memory Dataset does, every page, every language', async function () {
      this.timeout(60_000);
      const lists = [
        ['recent codes', sample.recentCodes, (l: string, p: number) => store.recentCodes(l, p)],
        ['popular codes', sample.popularCodes, (l: string, p: number) => store.popularCodes(l, p)],
      ] as const;
      for (const [what, listing, read] of lists) {
        await assertPages(what, listing.all, (p) => read('', p), listed);
        for (const language of sample.languages) {
          const key = languageKey(language);
          await assertPages(`${what} in ${language}`, listing.byLanguage.get(key)!, (p) => read(key, p), listed);
        }
      }
      const toListed = (r: DatasetRefactor): ListedRefactor => listedRefactor(sample, r);
      await assertPages('recent refactorings', sample.recentRefactors.all, (p) => store.recentRefactors('', p), toListed);
      for (const language of sample.languages) {
        const key = languageKey(language);
        await assertPages(`refactorings in ${language}`, sample.recentRefactors.byLanguage.get(key)!, (p) => store.recentRefactors(key, p), toListed);
      }
      assert.deepEqual(await store.recentCodes('cobol', 1), { items: [], hasNext: false });
    });

    it('finds tags case-insensitively, named as their most recent code spells them, in every language', async function () {
      this.timeout(60_000);
      for (const [key, tag] of sample.tags) {
        const got = await store.taggedCodes(key, '', 1);
        assert.equal(got?.name, tag.name, key);
        await assertPages(`tag ${key}`, tag.codes.all, async (p) => (await store.taggedCodes(key.toUpperCase(), '', p))!.page, listed);
        for (const [language, codes] of tag.codes.byLanguage) {
          await assertPages(`tag ${key} in ${language}`, codes, async (p) => (await store.taggedCodes(key, language, p))!.page, listed);
        }
      }
      assert.equal(await store.taggedCodes('no-such-tag', '', 1), undefined);
      const [someTag] = sample.tags.keys();
      assert.deepEqual((await store.taggedCodes(someTag, 'cobol', 1))?.page, { items: [], hasNext: false });
    });

    it('gives each code with its refactorings oldest first, and each refactoring of its own code only', async function () {
      this.timeout(60_000);
      for (const code of sample.codes.values()) {
        assert.deepEqual(await store.code(code.id), code);
        for (const r of code.refactors) assert.deepEqual(await store.refactor(code.id, r.id), listedRefactor(sample, r));
      }
      const r = sample.recentRefactors.all[0];
      assert.equal(await store.refactor(r.codeId + 1, r.id), undefined);
      assert.equal(await store.code(9999), undefined);
    });

    it('gives each person as the memory Dataset does, and no one for an unknown id', async () => {
      for (const user of sample.users.values()) assert.deepEqual(await store.user(user.id), user);
      assert.equal(await store.user(9999), undefined);
    });

    it('sums the catalog up as the index page does', async () => {
      assert.deepEqual(await store.summary(), {
        codes: sample.codes.size,
        refactors: sample.recentRefactors.all.length,
        languages: sample.languages,
        tags: [...sample.tags.values()].map((t) => ({ name: t.name, count: t.codes.all.length })),
      });
    });
  });

  describe('import and export', () => {
    it('exports what it imported: the sample catalog reads back the same', async () => {
      await importSample();
      assert.deepEqual(parseDataset(await store.exportCatalog(), 'x'), parseDataset(sampleJson(), 'x'));
    });

    it('exports what it imported: a generated catalog of 300 codes', async function () {
      this.timeout(60_000);
      const generated = generateCatalog({ codes: 300, users: 80 });
      const result = await store.importCatalog(generated);
      assert.deepEqual(result, { value: { users: generated.users.size, codes: 300, refactors: generated.recentRefactors.all.length } });
      assert.deepEqual(parseDataset(await store.exportCatalog(), generated.source), generated);
    });

    it('refuses a catalog with ids or names already stored, naming the first of each kind, and stores nothing of it', async () => {
      await importSample();
      const before = await rowCounts(sql);
      const version = store.version;
      const result = await store.importCatalog(generateCatalog({ codes: 60, users: 3 }));
      assert.deepEqual(result, {
        refused: 'invalid',
        message: 'Nothing was imported: user 1 is already stored, code 1 is already stored, refactoring 1 is already stored, a person named "Ana Lima" is already stored (id 1)',
      });
      assert.deepEqual(await rowCounts(sql), before);
      assert.equal(store.version, version);
    });

    it('gives new rows ids past the imported ones, and exports them with a +00:00 offset', async () => {
      await importSample();
      const ana = await person('Newcomer');
      assert.equal(ana, 13);
      const code = await store.writer.addCode(ana, newCode(), new Date('2020-01-02T03:04:05.678Z'));
      assert.equal(code.id, 55);
      assert.deepEqual(code.createdAt, { date: new Date('2020-01-02T03:04:05Z'), text: '2020-01-02T03:04:05+00:00' });
      assert.deepEqual(parseDataset(await store.exportCatalog(), 'x').codes.get(55), code, 'the code as stored, its author included');
    });

    it('exports a refactoring that is a comment alone, which the catalog reads', async () => {
      await importSample();
      const by = await person('Commenter');
      const added = await store.writer.addRefactor(by, 1, { title: '', comment: 'Fine as it is.', code: '' }, new Date('2020-01-01T00:00:00Z'));
      assert.ok(!added.refused);
      const { of: _of, ...asRefactor } = added.value;
      assert.equal(asRefactor.code, '');
      assert.deepEqual(parseDataset(await store.exportCatalog(), 'x').codes.get(1)?.refactors.at(-1), asRefactor);
    });
  });

  describe('a mined catalog joining a store with content', () => {
    const commit = (n: number): string => n.toString(16).padStart(40, '0');
    /** A rewrite as the miner finds it: `n` tells commits and functions apart. */
    const rewrite = (n: number, author: string, name = `step${n}`): Mined => ({
      commit: { hash: commit(n), parents: [commit(n + 100)], author, date: `2024-03-0${n}T10:00:00+01:00`, message: `Refactor ${name}\n\nShorter.`, changes: [] },
      path: 'lib/steps.js', language: 'JavaScript', name,
      before: `function ${name}(a) {\n  return a + ${n};\n}`, after: `function ${name}(a) {\n  return ${n} + a;\n}`,
    });
    const minedFile = (rewrites: Mined[]): Dataset => parseDataset(JSON.parse(JSON.stringify(minedCatalog(rewrites))), 'mined.json');
    const three = (): Mined[] => [rewrite(1, 'Ana Lima'), rewrite(2, 'Dee Ray'), rewrite(3, 'Ana Lima')];

    it('takes new ids past the stored ones, matches people by name, and keeps each code with its refactoring', async () => {
      await importSample();
      const result = await store.importCatalog(minedFile(three()));
      assert.deepEqual(result, { value: { users: 1, codes: 3, refactors: 3, alreadyThere: 0 } });
      const exported = parseDataset(await store.exportCatalog(), 'x');
      assert.deepEqual([...exported.codes.keys()].slice(-3), [55, 56, 57]);
      assert.deepEqual([...exported.users.values()].map((u) => u.name), [...sample.users.values()].map((u) => u.name).concat('Dee Ray'));
      const added = [55, 56, 57].map((id) => exported.codes.get(id)!);
      assert.deepEqual(added.map((c) => [c.title, c.user.name, c.userId]), [['step1 in lib/steps.js', 'Ana Lima', 1], ['step2 in lib/steps.js', 'Dee Ray', 13], ['step3 in lib/steps.js', 'Ana Lima', 1]]);
      assert.deepEqual(added.map((c) => c.refactors.map((r) => [r.id, r.codeId, r.userId, r.code])), [
        [[135, 55, 1, 'function step1(a) {\n  return 1 + a;\n}']], [[136, 56, 13, 'function step2(a) {\n  return 2 + a;\n}']], [[137, 57, 1, 'function step3(a) {\n  return 3 + a;\n}']],
      ]);
      assert.deepEqual(added.map((c) => c.mined), [1, 2, 3].map((n) => ({ commit: commit(n), path: 'lib/steps.js', function: `step${n}` })));
      assert.deepEqual(added.map((c) => c.tags), [['mined', 'lib'], ['mined', 'lib'], ['mined', 'lib']]);
      for (const code of sample.codes.values()) assert.deepEqual(exported.codes.get(code.id)?.code, code.code, `code ${code.id} as it was`);
      assert.equal((await store.summary()).codes, 57);
    });

    it('adds nothing the second time, and of a file mined again only what is new', async () => {
      await importSample();
      assert.ok(!(await store.importCatalog(minedFile(three()))).refused);
      const once = await store.exportCatalog();
      const counted = await rowCounts(sql);
      assert.deepEqual(await store.importCatalog(minedFile(three())), { value: { users: 0, codes: 0, refactors: 0, alreadyThere: 3 } });
      assert.deepEqual(await store.exportCatalog(), once);
      assert.deepEqual(await rowCounts(sql), counted);
      // Mined again later: one more rewrite, by someone new, and the three known ones.
      assert.deepEqual(await store.importCatalog(minedFile([rewrite(4, 'Eve Ito'), ...three()])), { value: { users: 1, codes: 1, refactors: 1, alreadyThere: 3 } });
      const exported = parseDataset(await store.exportCatalog(), 'x');
      assert.deepEqual([exported.codes.get(58)?.title, exported.codes.get(58)?.user.name, exported.codes.size], ['step4 in lib/steps.js', 'Eve Ito', 58]);
    });

    it('joins a store that holds only people, the miner\'s author becoming the person of that name', async () => {
      const ana = await person('Ana Lima');
      assert.deepEqual(await store.importCatalog(minedFile(three())), { value: { users: 1, codes: 3, refactors: 3, alreadyThere: 0 } });
      const exported = parseDataset(await store.exportCatalog(), 'x');
      assert.deepEqual([...exported.codes.values()].map((c) => c.userId), [ana, ana + 1, ana]);
      assert.deepEqual((await store.people()).map((p) => [p.name, p.hasToken]), [['Ana Lima', true], ['Dee Ray', false]]);
    });

    it('keeps a mined catalog\'s ids in an empty store, and knows its codes after', async () => {
      assert.deepEqual(await store.importCatalog(minedFile(three())), { value: { users: 2, codes: 3, refactors: 3 } });
      assert.deepEqual(parseDataset(await store.exportCatalog(), 'mined.json'), minedFile(three()));
      assert.deepEqual(await store.importCatalog(minedFile(three())), { value: { users: 0, codes: 0, refactors: 0, alreadyThere: 3 } });
    });

    it('leaves the store as it was when a row fails part way', async () => {
      await importSample();
      const before = await store.exportCatalog();
      const counted = await rowCounts(sql);
      const json = JSON.parse(JSON.stringify(minedCatalog(three()))) as CatalogFile;
      // Past what the refactors table holds: its insert fails after the users and codes went in.
      json.refactors[2].rating = 2 ** 40;
      await assert.rejects(store.importCatalog(parseDataset(json, 'mined.json')));
      assert.deepEqual(await rowCounts(sql), counted);
      assert.deepEqual(await store.exportCatalog(), before);
      assert.deepEqual(await store.importCatalog(minedFile(three())), { value: { users: 1, codes: 3, refactors: 3, alreadyThere: 0 } }, 'nothing of the failed one was kept');
    });

    it('refuses a catalog of its own ids that names a mined code already stored, and stores nothing of it', async () => {
      await importSample();
      assert.ok(!(await store.importCatalog(minedFile(three()))).refused);
      const counted = await rowCounts(sql);
      const mixed = JSON.parse(JSON.stringify(minedCatalog([rewrite(2, 'Dee Ray')]))) as CatalogFile;
      mixed.users = [{ ...mixed.users[0], id: 1000, name: 'Hand Writer' }];
      mixed.codes = [{ ...mixed.codes[0], id: 1000, userId: 1000 }, { ...mixed.codes[0], id: 1001, userId: 1000, mined: undefined, title: 'By hand' }];
      mixed.refactors = [{ ...mixed.refactors[0], id: 1000, codeId: 1000, userId: 1000 }];
      assert.deepEqual(await store.importCatalog(parseDataset(JSON.parse(JSON.stringify(mixed)), 'x')), {
        refused: 'invalid',
        message: `Nothing was imported: code 1000 (step2 in lib/steps.js at commit ${commit(2)}) is already stored as code 56`,
      });
      assert.deepEqual(await rowCounts(sql), counted);
    });
  });

  describe('writes', () => {
    beforeEach(importSample);

    it('adds a code: first of the recent list, found by its tags in any case, counted, one version later', async () => {
      const author = await person('Writer');
      const version = store.version;
      const code = await store.writer.addCode(author, newCode({ title: 'Café au lait!' }), new Date('2030-05-06T07:08:09Z'));
      assert.equal(store.version, version + 1);
      assert.equal(code.permalink, 'cafe-au-lait');
      assert.equal(code.trackbackUrl, '');
      assert.deepEqual(code.tags, ['Tuples', 'style']);
      assert.deepEqual(code.refactors, []);
      assert.equal(code.userId, author);
      const read = await store.code(code.id);
      assert.equal(read?.user.name, 'Writer');
      assert.deepEqual(read, { ...code, user: read?.user }, 'what the write answers is what a read gives');
      assert.deepEqual((await store.recentCodes('', 1)).items[0], listed(read));
      assert.deepEqual((await store.recentCodes('python', 1)).items[0], listed(read));
      const tagged = await store.taggedCodes('tuples', '', 1);
      assert.equal(tagged?.name, 'Tuples');
      assert.deepEqual(tagged?.page.items, [listed(read)]);
      // The newest code with a tag names it.
      assert.equal((await store.taggedCodes('style', '', 1))?.name, 'style');
      assert.equal((await store.summary()).codes, sample.codes.size + 1);
    });

    it('adds a refactoring: counted on its code and its author, popular order moved, one version later', async () => {
      const author = await person('Refactorer');
      const version = store.version;
      const quiet = sample.popularCodes.all.at(-1)!;
      const added = await store.writer.addRefactor(author, quiet.id, { title: 'Shorter', comment: '', code: 'x = 1\n' }, new Date('2030-01-01T00:00:00Z'));
      assert.ok(!added.refused);
      assert.equal(store.version, version + 1);
      assert.deepEqual(added.value, await store.refactor(quiet.id, added.value.id));
      assert.equal(added.value.language, quiet.language);
      assert.equal(added.value.userName, 'Refactorer');
      assert.equal(added.value.user?.refactorsCount, 1);
      assert.deepEqual(added.value.of, { id: quiet.id, title: quiet.title, permalink: quiet.permalink });
      const code = (await store.code(quiet.id))!;
      assert.equal(code.refactorsCount, quiet.refactorsCount + 1);
      const { of: _of, ...asRefactor } = added.value;
      assert.deepEqual(code.refactors.at(-1), asRefactor);
      assert.deepEqual((await store.recentRefactors('', 1)).items[0], added.value);
      const popular = await store.popularCodes('', 1);
      const counts = popular.items.map((c) => c.refactorsCount);
      assert.deepEqual(counts, [...counts].sort((a, b) => b - a));
      assert.equal((await rowCounts(sql)).refactors, sample.recentRefactors.all.length + 1);
    });

    it('refuses a refactoring of a code that does not exist, storing nothing', async () => {
      const author = await person('Refactorer');
      const before = await rowCounts(sql);
      const version = store.version;
      const result = await store.writer.addRefactor(author, 999, { title: '', comment: 'x', code: '' }, new Date());
      assert.deepEqual(result, { refused: 'not-found', message: 'There is no code 999' });
      assert.deepEqual(await rowCounts(sql), before);
      assert.equal(store.version, version);
    });

    it('rates: the mean rounded half up, counted, the author rated by the mean of their rated refactorings', async () => {
      const author = await person('Author');
      const raters = await Promise.all(['R1', 'R2', 'R3'].map(person));
      const at = new Date('2030-01-01T00:00:00Z');
      const first = await store.writer.addRefactor(author, 1, { title: 'a', comment: '', code: 'a\n' }, at);
      const second = await store.writer.addRefactor(author, 1, { title: 'b', comment: '', code: 'b\n' }, at);
      const third = await store.writer.addRefactor(author, 1, { title: 'c', comment: '', code: 'c\n' }, at);
      assert.ok(!first.refused && !second.refused && !third.refused);
      const version = store.version;
      const rate = async (who: number, id: number, value: number): Promise<ListedRefactor> => {
        const result = await store.writer.rate(who, 1, id, value);
        assert.ok(!result.refused, result.refused && result.message);
        return result.value;
      };
      await rate(raters[0], first.value.id, 1);
      const half = await rate(raters[1], first.value.id, 2);
      assert.equal(half.rating, 2, '1.5 rounds up');
      assert.equal(half.ratingsCount, 2);
      await rate(raters[2], first.value.id, 2);
      const rounded = (await store.refactor(1, first.value.id))!;
      assert.equal(rounded.rating, 2, '5/3 rounds to 2');
      const other = await rate(raters[0], second.value.id, 5);
      assert.equal(store.version, version + 4);
      // Of three refactorings two are rated (2 and 5); the unrated one does not count.
      assert.equal(other.user?.rating, 3.5);
      assert.equal((await store.code(1))!.refactors.find((r) => r.id === third.value.id)?.user?.rating, 3.5);
    });

    it('rates an imported refactoring from its stored total', async () => {
      const rater = await person('Rater');
      const imported = sample.recentRefactors.all.find((r) => r.ratingsCount > 2 && r.userId !== null)!;
      const result = await store.writer.rate(rater, imported.codeId, imported.id, 1);
      assert.ok(!result.refused);
      assert.equal(result.value.ratingsCount, imported.ratingsCount + 1);
      assert.equal(result.value.rating, Math.floor((imported.rating * imported.ratingsCount + 1) / (imported.ratingsCount + 1) + 0.5));
      const rated = sample.recentRefactors.all.filter((r) => r.userId === imported.userId && (r.ratingsCount > 0 || r.id === imported.id));
      const ratings = rated.map((r) => (r.id === imported.id ? result.value.rating : r.rating));
      assert.equal(result.value.user?.rating, ratings.reduce((a, b) => a + b, 0) / ratings.length);
    });

    it('refuses a rating of one\'s own refactoring, a second rating, a value outside 1 to 5 and a missing refactoring, storing nothing', async () => {
      const author = await person('Author');
      const rater = await person('Rater');
      const added = await store.writer.addRefactor(author, 1, { title: 'a', comment: '', code: 'a\n' }, new Date());
      assert.ok(!added.refused);
      assert.ok(!(await store.writer.rate(rater, 1, added.value.id, 4)).refused);
      const before = await rowCounts(sql);
      const version = store.version;
      const cases: [number, number, number, number, object][] = [
        [author, 1, added.value.id, 5, { refused: 'invalid', message: "You can't rate your own refactoring" }],
        [rater, 1, added.value.id, 5, { refused: 'invalid', message: 'You have already rated this refactoring' }],
        [author, 1, added.value.id, 0, { refused: 'invalid', message: 'A rating is a whole number from 1 to 5' }],
        [rater, 1, 1, 2.5, { refused: 'invalid', message: 'A rating is a whole number from 1 to 5' }],
        [rater, 2, added.value.id, 3, { refused: 'not-found', message: `Code 2 has no refactoring ${added.value.id}` }],
        [rater, 1, 9999, 3, { refused: 'not-found', message: 'Code 1 has no refactoring 9999' }],
      ];
      for (const [who, codeId, id, value, expected] of cases) {
        assert.deepEqual(await store.writer.rate(who, codeId, id, value), expected, `${who} rates ${id} ${value}`);
      }
      assert.deepEqual(await rowCounts(sql), before);
      assert.equal(store.version, version);
      const kept = (await store.refactor(1, added.value.id))!;
      assert.deepEqual([kept.rating, kept.ratingsCount], [4, 1]);
    });

    it('deletes a code by its author only, with its refactorings, tags and their authors\' ratings', async () => {
      const owner = await person('Owner');
      const helper = await person('Helper');
      const rater = await person('Rater');
      const code = await store.writer.addCode(owner, newCode({ tags: ['only-here'] }), new Date('2030-01-01T00:00:00Z'));
      const r = await store.writer.addRefactor(helper, code.id, { title: '', comment: 'ok', code: '' }, new Date('2030-01-01T00:00:01Z'));
      assert.ok(!r.refused);
      const rated = await store.writer.rate(rater, code.id, r.value.id, 4);
      assert.ok(!rated.refused);
      assert.equal(rated.value.user?.rating, 4);

      const before = await rowCounts(sql);
      const version = store.version;
      assert.deepEqual(await store.writer.deleteCode(helper, code.id), { refused: 'forbidden', message: 'Only its author can delete a code' });
      assert.deepEqual(await store.writer.deleteCode(owner, 999), { refused: 'not-found', message: 'There is no code 999' });
      assert.deepEqual(await rowCounts(sql), before);
      assert.equal(store.version, version);

      assert.deepEqual(await store.writer.deleteCode(owner, code.id), { value: undefined });
      assert.equal(store.version, version + 1);
      assert.equal(await store.code(code.id), undefined);
      assert.equal(await store.taggedCodes('only-here', '', 1), undefined);
      assert.deepEqual(await rowCounts(sql), { ...before, codes: before.codes - 1, tags: before.tags - 1, refactors: before.refactors - 1, ratings: before.ratings - 1, refactors_counted: before.refactors_counted - 1 });
      const [rating] = await sql.query<{ rating: number }>('select rating from users where id = $1', [helper]);
      assert.equal(Number(rating.rating), 0, 'no rated refactoring left');
      const summary = await store.summary();
      assert.deepEqual([summary.codes, summary.refactors], [sample.codes.size, sample.recentRefactors.all.length]);
    });

    it('deletes a refactoring by its author or its code\'s author, and no one else', async () => {
      const owner = await person('Owner');
      const helper = await person('Helper');
      const stranger = await person('Stranger');
      const code = await store.writer.addCode(owner, newCode(), new Date('2030-01-01T00:00:00Z'));
      const add = async (): Promise<number> => {
        const r = await store.writer.addRefactor(helper, code.id, { title: '', comment: 'ok', code: '' }, new Date('2030-01-01T00:00:01Z'));
        assert.ok(!r.refused);
        return r.value.id;
      };
      const [a, b] = [await add(), await add()];
      assert.ok(!(await store.writer.rate(stranger, code.id, a, 5)).refused);
      assert.ok(!(await store.writer.rate(stranger, code.id, b, 2)).refused);

      const before = await rowCounts(sql);
      const version = store.version;
      assert.deepEqual(await store.writer.deleteRefactor(stranger, code.id, a), {
        refused: 'forbidden',
        message: "Only its author or the code's author can delete a refactoring",
      });
      assert.deepEqual(await store.writer.deleteRefactor(helper, 1, a), { refused: 'not-found', message: `Code 1 has no refactoring ${a}` });
      assert.deepEqual(await store.writer.deleteRefactor(helper, 999, a), { refused: 'not-found', message: 'There is no code 999' });
      assert.deepEqual(await rowCounts(sql), before);
      assert.equal(store.version, version);

      assert.deepEqual(await store.writer.deleteRefactor(helper, code.id, a), { value: undefined });
      let left = (await store.code(code.id))!;
      assert.deepEqual(left.refactors.map((r) => r.id), [b]);
      assert.equal(left.refactors[0].user?.rating, 2);
      assert.equal((await store.recentCodes('', 1)).items[0].refactorsCount, 1);
      assert.deepEqual(await store.writer.deleteRefactor(owner, code.id, b), { value: undefined });
      left = (await store.code(code.id))!;
      assert.deepEqual(left.refactors, []);
      assert.equal((await store.recentCodes('', 1)).items[0].refactorsCount, 0);
      assert.equal(store.version, version + 2);
      assert.deepEqual(await rowCounts(sql), { ...before, refactors: before.refactors - 2, ratings: before.ratings - 2, refactors_counted: before.refactors_counted - 2 });
    });
  });

  describe('people and tokens', () => {
    it('refuses an empty or blank name in words, whoever calls it, and stores no one', async () => {
      // The command line checks the name too; the store says it again for any other caller.
      for (const name of ['', ' \t ']) {
        assert.deepEqual(await store.addPerson(name, {}, await tokenHash(`token of ${JSON.stringify(name)}`)), { refused: 'invalid', message: 'A name must not be empty' });
      }
      assert.deepEqual(await rowCounts(sql), { users: 0, codes: 0, tags: 0, refactors: 0, ratings: 0, refactors_counted: 0 });
    });

    it('adds people once per name, finds them by token hash, replaces and revokes tokens at once', async () => {
      const first = await tokenHash('first');
      const added = await store.addPerson('Ana', { website: 'https://ana.example', identityUrl: 'https://id.example/ana' }, first);
      assert.deepEqual(added, { value: { id: 1, name: 'Ana', website: 'https://ana.example', identityUrl: 'https://id.example/ana', hasToken: true } });
      assert.deepEqual(await store.addPerson('Ana', {}, await tokenHash('other')), { refused: 'invalid', message: 'The name "Ana" is already taken: choose another one' });
      assert.deepEqual(await store.writer.personByTokenHash(first), { id: 1, name: 'Ana', identityUrl: 'https://id.example/ana', rating: 0, website: 'https://ana.example', refactorsCount: 0 });

      const second = await tokenHash('second');
      assert.ok(!(await store.replaceToken('Ana', second)).refused);
      assert.equal(await store.writer.personByTokenHash(first), undefined);
      assert.equal((await store.writer.personByTokenHash(second))?.name, 'Ana');

      assert.deepEqual(await store.revoke('Ana'), { value: { ...added.value, hasToken: false } });
      assert.equal(await store.writer.personByTokenHash(second), undefined);
      assert.deepEqual(await store.revoke('Nobody'), { refused: 'not-found', message: 'There is no person named "Nobody"' });
      assert.deepEqual(await store.people(), [{ ...added.value, hasToken: false }]);
    });

    it('refuses a catalog naming a person already stored, stores nothing of it, and the person stays revocable', async () => {
      const ana = await store.addPerson('Ana', {}, await tokenHash('ana'));
      const before = await rowCounts(sql);
      const catalog = parseDataset({ users: [{ id: 100, name: 'Ana', identityUrl: '', rating: 0 }], codes: [], refactors: [] }, 'x');
      assert.deepEqual(await store.importCatalog(catalog), { refused: 'invalid', message: 'Nothing was imported: a person named "Ana" is already stored (id 1)' });
      assert.deepEqual(await rowCounts(sql), before);
      assert.equal(ana.refused, undefined);
      assert.deepEqual(await store.revoke('Ana'), { value: { id: 1, name: 'Ana', website: '', identityUrl: '', hasToken: false } });
    });

    it('names a person by id: of two people of one name, each is given a token and revoked, and by name is refused in words', async () => {
      const twins = [{ id: 1, name: 'Ana', identityUrl: '', rating: 0 }, { id: 2, name: 'Ana', identityUrl: '', rating: 0 }];
      assert.ok(!(await store.importCatalog(parseDataset({ users: twins, codes: [], refactors: [] }, 'x'))).refused);
      const twice = { refused: 'invalid', message: 'More than one person is named "Ana": name one by id ("users list" shows the ids)' };
      assert.deepEqual(await store.replaceToken('Ana', await tokenHash('ana')), twice);
      assert.deepEqual(await store.revoke('Ana'), twice);

      const second = await tokenHash('second');
      assert.deepEqual(await store.replaceToken({ id: 2 }, second), { value: { id: 2, name: 'Ana', website: '', identityUrl: '', hasToken: true } });
      assert.equal((await store.writer.personByTokenHash(second))?.id, 2);
      assert.ok(!(await store.replaceToken({ id: 1 }, await tokenHash('first'))).refused, 'a token each');
      assert.equal((await store.revoke({ id: 2 })).refused, undefined);
      assert.equal(await store.writer.personByTokenHash(second), undefined, 'revoked at once');
      assert.deepEqual((await store.people()).map((p) => p.hasToken), [true, false]);
      assert.deepEqual(await store.revoke({ id: 9 }), { refused: 'not-found', message: 'There is no person with id 9' });
    });
  });

  describe('concurrency', () => {
    beforeEach(importSample);

    it('counts 20 people rating one refactoring at once, with the exact mean', async function () {
      this.timeout(30_000);
      const author = await person('Author');
      const added = await store.writer.addRefactor(author, 1, { title: '', comment: 'x', code: '' }, new Date());
      assert.ok(!added.refused);
      const raters = await Promise.all(Array.from({ length: 20 }, (_, i) => person(`Rater ${i}`)));
      const values = raters.map((_, i) => 1 + ((i * 7) % 5));
      const version = store.version;
      const results = await Promise.all(raters.map((who, i) => store.writer.rate(who, 1, added.value.id, values[i])));
      assert.deepEqual(results.map((r) => r.refused), values.map(() => undefined));
      const sum = values.reduce((a, b) => a + b, 0);
      const stored = (await store.refactor(1, added.value.id))!;
      assert.equal(stored.ratingsCount, 20);
      assert.equal(stored.rating, Math.floor(sum / 20 + 0.5));
      assert.equal(stored.user?.rating, stored.rating);
      assert.equal(store.version, version + 20);
    });

    it('gives a delete racing a refactoring of the same code one clear result each, and leaves no orphan', async function () {
      this.timeout(30_000);
      const owner = await person('Owner');
      const helper = await person('Helper');
      for (let round = 0; round < 8; round++) {
        const code = await store.writer.addCode(owner, newCode(), new Date());
        const [deleted, added] = await Promise.all([
          store.writer.deleteCode(owner, code.id),
          store.writer.addRefactor(helper, code.id, { title: '', comment: 'late', code: '' }, new Date()),
        ]);
        assert.deepEqual(deleted, { value: undefined });
        if (added.refused) assert.deepEqual(added, { refused: 'not-found', message: `There is no code ${code.id}` });
        const [orphans] = await sql.query<{ n: number | string }>('select count(*) as n from refactors where code_id = $1', [code.id]);
        assert.equal(Number(orphans.n), 0, `round ${round}`);
      }
    });
  });

  describe('migrations', () => {
    it('applies each migration once: opening again applies nothing and keeps the data', async () => {
      await importSample();
      const before = await sql.query('select version, name, applied_at from schema_migrations order by version');
      await migrate(sql);
      assert.deepEqual(await sql.query('select version, name, applied_at from schema_migrations order by version'), before);
      assert.deepEqual(before.map((r) => (r as { name: string }).name), MIGRATIONS.map((m) => m.name));
      assert.equal((await rowCounts(sql)).codes, 54);
    });

    it('applies only the migrations it has not applied yet', async () => {
      const next = { version: MIGRATIONS.length + 1, name: 'test-only', sql: 'create table test_only (x integer); insert into test_only values (1)' };
      try {
        await migrate(sql, [...MIGRATIONS, next]);
        await migrate(sql, [...MIGRATIONS, next]);
        assert.deepEqual(await sql.query('select x from test_only'), [{ x: 1 }]);
      } finally {
        await sql.query(`drop table if exists test_only; delete from schema_migrations where version = ${next.version}`);
      }
    });

    it('refuses a database a newer release migrated', async () => {
      const future = MIGRATIONS.length + 1;
      await sql.query('insert into schema_migrations (version, name) values ($1, $2)', [future, 'from the future']);
      try {
        await assert.rejects(migrate(sql), {
          message: `the database's schema is version ${future}, newer than this release of refactor-browser knows (${MIGRATIONS.length}): use the release that migrated it, or a newer one`,
        });
      } finally {
        await sql.query('delete from schema_migrations where version = $1', [future]);
      }
    });
  });

  if (server) {
    describe('two instances over one server', () => {
      it('tells the other instance of a write through NOTIFY within 2 s', async function () {
        this.timeout(20_000);
        const other = await openSqlStore(await open());
        try {
          const author = await person('Writer');
          const seen = other.version;
          await store.writer.addCode(author, newCode(), new Date());
          await waitFor(() => other.version > seen, 'the other instance to see the write', 2_000);
          assert.equal(other.version, store.version);
        } finally {
          await other.close();
        }
      });

      /** How many connections are listening: each instance holds one. */
      async function listeners(): Promise<number> {
        const [row] = await sql.query<{ n: number | string }>(`select count(*) as n from pg_stat_activity where query ilike 'listen%'`);
        return Number(row.n);
      }

      it('listens again after its LISTEN connection is cut, and sees the writes made meanwhile and after', async function () {
        this.timeout(30_000);
        const other = await openSqlStore(await open());
        try {
          const author = await person('Writer');
          await waitFor(async () => (await listeners()) === 2, 'both instances listening', 2_000);
          await sql.query(`select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'listen%'`);
          // Written while nobody listens: its NOTIFY reaches no one.
          await store.writer.addCode(author, newCode({ title: 'Unheard' }), new Date());
          await waitFor(() => other.version === store.version, 'the write made while nobody listened', 2_000);
          await waitFor(async () => (await listeners()) === 2, 'both instances listening again', 5_000);
          await store.writer.addCode(author, newCode({ title: 'Heard' }), new Date());
          await waitFor(() => other.version === store.version, 'the write made once listening again', 2_000);
        } finally {
          await other.close();
        }
      });

      it('reads the version once a second while it cannot listen again, and listens once it can', async function () {
        this.timeout(30_000);
        // The other instance connects as a role of its own, so that its new connections alone can be
        // refused (a superuser's cannot) while the connections its pool holds go on working.
        const role = 'refactor_browser_other';
        await sql.query(`drop owned by ${role}; drop role ${role}`).catch(() => undefined);
        await sql.query(
          `create role ${role} login; grant usage, create on schema public to ${role};
           grant all on all tables in schema public to ${role}; grant all on all sequences in schema public to ${role}`,
        );
        const url = new URL(TEST_DATABASE!);
        url.username = role;
        const other = await openSqlStore(await openPostgres(url.href));
        try {
          const author = await person('Writer');
          await waitFor(async () => (await listeners()) === 2, 'both instances listening', 2_000);
          await sql.query(`alter role ${role} connection limit 0`);
          await sql.query(`select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'listen%' and usename = '${role}'`);
          await new Promise((r) => setTimeout(r, 500));
          await store.writer.addCode(author, newCode({ title: 'Polled' }), new Date());
          const polled = Date.now();
          await waitFor(() => other.version === store.version, 'the write, seen by reading the version', 2_000);
          const took = Date.now() - polled;
          assert.equal(await listeners(), 1, `the other instance could not listen again (its write seen after ${took} ms)`);
          await sql.query(`alter role ${role} connection limit -1`);
          await waitFor(async () => (await listeners()) === 2, 'both instances listening again', 8_000);
          await store.writer.addCode(author, newCode({ title: 'Heard' }), new Date());
          await waitFor(() => other.version === store.version, 'the write made once listening again', 2_000);
        } finally {
          await other.close();
          await sql.query(`drop owned by ${role}; drop role ${role}`);
        }
      });
    });
  }
}

describe('SQL store on PGlite in memory', () => {
  storeTests(() => openPglite(undefined), false);
});

describe('SQL store on PGlite in memory on a worker thread', () => {
  storeTests(() => openPgliteWorker(undefined), false);
});

describe('SQL store on a PostgreSQL server (REFACTOR_BROWSER_TEST_DATABASE; pending when unset, outside CI)', function () {
  before(async function () {
    const server = postgresOrSkip(this);
    this.timeout(30_000);
    // A clean database for every run: its schema is the store's to make.
    const sql = await openPostgres(server);
    try {
      await sql.query('drop schema public cascade; create schema public');
    } finally {
      await sql.close();
    }
  });
  storeTests(() => openPostgres(TEST_DATABASE!), true);

  it('migrates a new database once when two instances open it at the same moment', async function () {
    this.timeout(30_000);
    const admin = await openPostgres(TEST_DATABASE!);
    const url = new URL(TEST_DATABASE!);
    url.pathname = '/refactor_browser_fresh';
    try {
      await admin.query('drop database if exists refactor_browser_fresh');
      await admin.query('create database refactor_browser_fresh');
      const stores = await Promise.all([0, 1].map(async () => openSqlStore(await openPostgres(url.href))));
      try {
        const [one] = await Promise.all(stores.map((s) => s.people()));
        assert.deepEqual(one, []);
        const probe = await openPostgres(url.href);
        try {
          assert.deepEqual((await probe.query<{ version: number }>('select version from schema_migrations')).map((r) => r.version), MIGRATIONS.map((m) => m.version));
        } finally {
          await probe.close();
        }
      } finally {
        await Promise.all(stores.map((s) => s.close()));
      }
    } finally {
      await admin.query('drop database if exists refactor_browser_fresh');
      await admin.close();
    }
  });
});
