// A contribution that PostgreSQL gives up on with a deadlock (40P01) or a serialization failure
// (40001) did nothing and is run again (src/server/sql/contributions.ts), a few times at most; any
// other failure is the writer's answer at once. Two transactions conflict only over a server with
// several connections, and the embedded database in memory has one, so here the database itself
// raises the failure inside the write's own transaction (the store takes its executor by
// injection): the work before it is rolled back by the database, as a real conflict's would be.

import * as assert from 'node:assert/strict';
import { openPglite, SqlError, type Sql } from '../../../../src/server/sql/executor';
import { openSqlStore, type SqlStore } from '../../../../src/server/sql/sqlStore';
import { tokenHash } from '../../../../src/server/tokens';

/** What a transaction raises after the write's own statements, in order; none once it is empty. */
type Failure = { code: string; name: string };
const DEADLOCK: Failure = { code: '40P01', name: 'deadlock_detected' };
const SERIALIZATION: Failure = { code: '40001', name: 'serialization_failure' };
const CHECK: Failure = { code: '23514', name: 'check_violation' };

describe('SQL store: a write the database gave up on is run again', () => {
  let db: Sql;
  let store: SqlStore;
  let failures: Failure[];
  let transactions: number;
  let author: number;
  let codeId: number;

  const refactorings = async (): Promise<number> => Number((await db.query<{ n: number | string }>('select count(*) as n from refactors'))[0].n);

  beforeEach(async function () {
    this.timeout(60_000);
    db = await openPglite(undefined);
    failures = [];
    transactions = 0;
    const failing: Sql = {
      ...db,
      transaction: (fn) => {
        transactions++;
        const failure = failures.shift();
        return db.transaction(async (tx) => {
          const value = await fn(tx);
          if (failure) await tx.query(`do $$ begin raise exception 'injected %', '${failure.code}' using errcode = '${failure.name}'; end $$`);
          return value;
        });
      },
    };
    store = await openSqlStore(failing);
    const person = await store.addPerson('Ana', {}, await tokenHash('token of Ana'));
    assert.ok(!person.refused);
    author = person.value.id;
    codeId = (await store.writer.addCode(author, { title: 'Sum', language: 'Ruby', comment: 'Shorter?', code: 'xs.sum\n', tags: [] }, new Date())).id;
    transactions = 0;
  });

  afterEach(async () => {
    await store.close();
  });

  it('stores a refactoring once after a deadlock and then a serialization failure, one version later', async () => {
    failures = [DEADLOCK, SERIALIZATION];
    const version = store.version;
    const added = await store.writer.addRefactor(author, codeId, { title: 'Again', comment: '', code: 'xs.sum\n' }, new Date());
    assert.ok(!added.refused, added.refused && added.message);
    assert.equal(added.value.title, 'Again');
    assert.equal(transactions, 3, 'run again after each');
    assert.equal(await refactorings(), 1, 'the attempts the database gave up on stored nothing');
    assert.equal((await store.code(codeId))?.refactors.length, 1);
    assert.equal(store.version, version + 1);
  });

  it('gives up after five attempts, answering the database\'s failure and storing nothing', async () => {
    failures = Array.from({ length: 6 }, () => SERIALIZATION);
    const version = store.version;
    await assert.rejects(
      store.writer.addRefactor(author, codeId, { title: '', comment: 'Never stored', code: '' }, new Date()),
      (e: unknown) => e instanceof SqlError && e.code === SERIALIZATION.code,
    );
    assert.equal(transactions, 5);
    assert.equal(await refactorings(), 0);
    assert.equal(store.version, version);
  });

  it('answers any other failure at once, without running the write again', async () => {
    failures = [CHECK];
    await assert.rejects(
      store.writer.addRefactor(author, codeId, { title: '', comment: 'Refused', code: '' }, new Date()),
      (e: unknown) => e instanceof SqlError && e.code === CHECK.code,
    );
    assert.equal(transactions, 1);
    assert.equal(await refactorings(), 0);
  });
});
