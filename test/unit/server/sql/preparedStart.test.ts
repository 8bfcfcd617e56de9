// A new embedded database made from the prepared data directory (the build's
// dist/pglite-datadir/<PGlite version>.tar.gz; pending before a build), and a large import in
// batches. The prepared database is this release's schema already, opens again as any database
// does, and is unpacked whole or not at all; an import of several batches reads back the same and
// stores nothing when a later batch fails. Every database is closed, every folder removed.

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parseDataset } from '../../../../src/server/catalog/dataset';
import { loadCatalogApart } from '../../../../src/server/catalog/catalogApart';
import { loadDatasetFile } from '../../../../src/server/catalog/datasetFile';
import { generateCatalog, generateCatalogJson } from '../../../../src/server/catalog/generatedCatalog';
import { openPgliteWorker, SqlError, type Sql } from '../../../../src/server/sql/executor';
import { MIGRATIONS } from '../../../../src/server/sql/migrations';
import { installedPgliteVersion, startFromPrepared } from '../../../../src/server/sql/preparedDataDir';
import { openSqlStore, type SqlStore } from '../../../../src/server/sql/sqlStore';
import { IMPORT_BATCH } from '../../../../src/server/sql/transfer';

const root = path.resolve(__dirname, '../../../../..');
const PREPARED = path.join(root, 'dist', 'pglite-datadir', `${installedPgliteVersion()}.tar.gz`);

describe('a new embedded database from the prepared data directory', function () {
  this.timeout(120_000);
  let work: string;
  const open: Sql[] = [];

  before(function () {
    if (!existsSync(PREPARED)) this.skip(); // made by node esbuild.config.mjs
  });
  beforeEach(() => {
    work = mkdtempSync(path.join(tmpdir(), 'rb-prepared-'));
  });
  afterEach(async () => {
    for (const sql of open.splice(0)) await sql.close().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  });

  it('starts from it, already at this release\'s schema, takes writes, and opens again as the database it became', async () => {
    const dataDir = path.join(work, 'data', 'postgres');
    const first = await openPgliteWorker(dataDir, { prepared: PREPARED });
    open.push(first);
    assert.equal(first.fromPrepared, true);
    const versions = await first.query<{ version: number }>('select version from schema_migrations order by version');
    assert.deepEqual(versions.map((v) => Number(v.version)), MIGRATIONS.map((m) => m.version), 'migrated when the build prepared it');
    const store = await openSqlStore(first);
    const generated = generateCatalog({ codes: 3 });
    assert.deepEqual(await store.importCatalog(generated), { value: { users: generated.users.size, codes: 3, refactors: 9 } });
    await store.close();
    open.pop();
    assert.deepEqual(readdirSync(path.dirname(dataDir)), ['postgres'], 'no partial folder is left beside it');

    const again = await openPgliteWorker(dataDir, { prepared: PREPARED });
    open.push(again);
    assert.equal(again.fromPrepared, false, 'a database is never unpacked over');
    assert.deepEqual(await again.query<{ n: number }>('select count(*)::int as n from codes'), [{ n: 3 }]);
  });

  it('leaves a folder that holds anything alone, and clears what a killed first start left half unpacked', async () => {
    const parent = path.join(work, 'data');
    const dataDir = path.join(parent, 'postgres');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, 'something'), 'x');
    assert.equal(await startFromPrepared(PREPARED, dataDir), false);
    assert.deepEqual(readdirSync(dataDir), ['something']);

    rmSync(dataDir, { recursive: true });
    mkdirSync(path.join(parent, 'postgres.partial-1'));
    assert.equal(await startFromPrepared(PREPARED, dataDir), true);
    assert.deepEqual(readdirSync(parent), ['postgres']);
    assert.ok(existsSync(path.join(dataDir, 'PG_VERSION')));
  });

  it('a tarball cut short makes no data directory, and leaves nothing beside it', async () => {
    const whole = gunzipSync(readFileSync(PREPARED));
    const cut = path.join(work, 'cut.tar.gz');
    writeFileSync(cut, gzipSync(whole.subarray(0, Math.floor(whole.length / 2))));
    const dataDir = path.join(work, 'data', 'postgres');
    await assert.rejects(startFromPrepared(cut, dataDir), /cut short/);
    assert.deepEqual(readdirSync(path.dirname(dataDir)), []);
  });

  it('refuses an entry that would land outside the data directory', async function () {
    // GNU tar keeps a leading ../ with -P; another tar may not, and then there is nothing to test.
    const inner = path.join(work, 'inner');
    mkdirSync(inner);
    writeFileSync(path.join(work, 'outside'), 'x');
    const tarball = path.join(work, 'escape.tar');
    try {
      execFileSync('tar', ['-P', '-cf', tarball, '-C', inner, '../outside'], { stdio: 'ignore' });
    } catch {
      this.skip();
    }
    writeFileSync(`${tarball}.gz`, gzipSync(readFileSync(tarball)));
    rmSync(path.join(work, 'outside'));
    await assert.rejects(startFromPrepared(`${tarball}.gz`, path.join(inner, 'data', 'postgres')), /outside its folder/);
    assert.equal(existsSync(path.join(work, 'outside')), false);
    assert.equal(existsSync(path.join(inner, 'outside')), false);
  });
});

describe('an import of several batches', function () {
  this.timeout(180_000);
  let sql: Sql;
  let store: SqlStore;

  beforeEach(async () => {
    sql = await openPgliteWorker(undefined);
    store = await openSqlStore(sql);
  });
  afterEach(async () => {
    await store.close();
  });

  it('reads back as the catalog it was, every batch in order', async () => {
    const codes = 2 * IMPORT_BATCH + 7;
    const generated = generateCatalog({ codes });
    assert.ok(generated.recentRefactors.all.length > 3 * IMPORT_BATCH);
    assert.deepEqual(await store.importCatalog(generated), { value: { users: generated.users.size, codes, refactors: generated.recentRefactors.all.length } });
    assert.deepEqual(parseDataset(await store.exportCatalog(), generated.source), generated);
  });

  it('imports a catalog file read on a thread of its own, handed over in packed batches, as the file reads', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'rb-apart-import-'));
    try {
      const file = path.join(work, 'catalog.json');
      writeFileSync(file, JSON.stringify(generateCatalogJson({ codes: 2 * IMPORT_BATCH + 7 }), null, 2));
      const here = loadDatasetFile(file);
      const rows = await loadCatalogApart({ file });
      assert.deepEqual(await store.importCatalog(rows), { value: { users: here.users.size, codes: here.codes.size, refactors: here.recentRefactors.all.length } });
      assert.deepEqual(parseDataset(await store.exportCatalog(), file), here);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it('a retried import sends every packed batch again', async () => {
    await store.close();
    // The first attempt's second batch of codes meets a deadlock, which the write retries.
    let codeBatches = 0;
    const retrying = await openPgliteWorker(undefined);
    const deadlockOnce = (tx: Sql): Sql => ({
      ...tx,
      query: (text, params) => {
        if (/^\s*insert into codes/.test(text) && ++codeBatches === 2) return Promise.reject(new SqlError('deadlock detected', '40P01'));
        return tx.query(text, params);
      },
      transaction: (fn) => tx.transaction((inner) => fn(deadlockOnce(inner))),
    });
    store = await openSqlStore({ ...retrying, transaction: (fn) => retrying.transaction((tx) => fn(deadlockOnce(tx))) });
    const rows = await loadCatalogApart({ generate: 2 * IMPORT_BATCH + 7 });
    assert.deepEqual(await store.importCatalog(rows), { value: rows.counts });
    assert.equal(codeBatches, 2 + 3, 'two batches tried, then all three');
    assert.equal((await retrying.query<{ n: number }>('select count(*)::int as n from codes'))[0].n, 2 * IMPORT_BATCH + 7);
    assert.equal((await retrying.query<{ n: number }>('select count(*)::int as n from refactors'))[0].n, rows.counts.refactors);
  });

  it('stores nothing when a later batch fails: one transaction for them all', async () => {
    await store.close();
    // The database refuses the third batch of refactorings, as it would a row breaking a constraint.
    let refactorBatches = 0;
    const failing = await openPgliteWorker(undefined);
    const failingTx = (tx: Sql): Sql => ({
      ...tx,
      query: (text, params) => {
        if (/^\s*insert into refactors/.test(text) && ++refactorBatches === 3) return Promise.reject(new SqlError('refused', '23514'));
        return tx.query(text, params);
      },
      transaction: (fn) => tx.transaction((inner) => fn(failingTx(inner))),
    });
    store = await openSqlStore({ ...failing, transaction: (fn) => failing.transaction((tx) => fn(failingTx(tx))) });
    await assert.rejects(store.importCatalog(generateCatalog({ codes: 2 * IMPORT_BATCH })), /refused/);
    assert.equal(refactorBatches, 3);
    assert.equal((await failing.query<{ n: number }>('select count(*)::int as n from codes'))[0].n, 0);
    assert.equal((await failing.query<{ n: number }>('select count(*)::int as n from users'))[0].n, 0);
  });
});
