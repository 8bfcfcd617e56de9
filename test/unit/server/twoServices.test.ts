// Two reference services over one PostgreSQL server, as two `serve` processes behind a load balancer
// run: what one takes over HTTP, the other serves within 2 s, under a new ETag, although it had the
// old page rendered and kept. Needs REFACTOR_BROWSER_TEST_DATABASE (scripts/withPostgres.sh); pending
// when unset, outside CI.
import * as assert from 'node:assert/strict';
import { decodeCode, decodeCodes } from '../../../src/core/xmlDecode';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { openPostgres } from '../../../src/server/sql/executor';
import { openSqlStore, type SqlStore } from '../../../src/server/sql/sqlStore';
import { newToken, tokenHash } from '../../../src/server/tokens';
import { deleteCode, postCode, postRefactor, rate } from '../../helpers/contributions';
import { waitForAnswer } from '../../helpers/poll';
import { postgresOrSkip, TEST_DATABASE } from '../../helpers/postgres';
import { request, type RawResponse } from '../../helpers/referenceService';

const DATABASE = 'refactor_browser_two_services';
const SEEN_WITHIN_MS = 2_000;

describe('two services over one PostgreSQL server, over HTTP (REFACTOR_BROWSER_TEST_DATABASE; pending when unset, outside CI)', function () {
  this.timeout(30_000);
  let url: string;
  const stores: SqlStore[] = [];
  const servers: RunningServer[] = [];
  let a: string;
  let b: string;
  const tokens: Record<string, string> = {};

  before(async function () {
    const server = postgresOrSkip(this);
    const admin = await openPostgres(server);
    try {
      await admin.query(`drop database if exists ${DATABASE}`);
      await admin.query(`create database ${DATABASE}`);
    } finally {
      await admin.close();
    }
    const at = new URL(server);
    at.pathname = `/${DATABASE}`;
    url = at.href;
    for (let i = 0; i < 2; i++) {
      const store = await openSqlStore(await openPostgres(url));
      stores.push(store);
      servers.push(await startServer({ port: 0, host: '127.0.0.1', store, contributions: { writesPerMinute: 1000 } }));
    }
    [a, b] = servers.map((s) => s.url);
    for (const name of ['Ana', 'Bo', 'Carl']) {
      tokens[name] = newToken();
      const added = await stores[0].addPerson(name, {}, await tokenHash(tokens[name]));
      assert.ok(!added.refused);
    }
    // A list with something in it, which B keeps once rendered (an empty page is not kept).
    assert.equal((await postCode(a, tokens.Ana, 'Already there')).status, 201);
  });

  after(async function () {
    for (const server of servers) await server.close();
    for (const store of stores) await store.close();
    if (TEST_DATABASE) {
      const admin = await openPostgres(TEST_DATABASE);
      try {
        await admin.query(`drop database if exists ${DATABASE}`);
      } finally {
        await admin.close();
      }
    }
  });

  const get = async (base: string, path: string): Promise<RawResponse> => {
    const res = await request(base, path);
    assert.ok(res.status === 200 || res.status === 404, `${path}: ${res.status} ${res.text}`);
    return res;
  };
  const recentIds = (res: RawResponse): number[] => decodeCodes(res.text).map((c) => c.id);

  it('serves on B a code posted through A, then its rating, then its deletion, each under a new ETag', async () => {
    // B renders and keeps the page first, so that what it serves next must come from learning of the write.
    const before = await get(b, '/codes/recent.xml');

    const posted = await postCode(a, tokens.Ana, 'Posted through A');
    assert.equal(posted.status, 201, posted.text);
    const id = decodeCode(posted.text).id;
    const listed = await waitForAnswer(() => get(b, '/codes/recent.xml'), (res) => recentIds(res).includes(id), 'the new code on B', SEEN_WITHIN_MS);
    assert.notEqual(listed.headers.etag, before.headers.etag);
    assert.equal(decodeCodes(listed.text).find((c) => c.id === id)?.title, 'Posted through A');

    const refactored = await postRefactor(a, tokens.Bo, id);
    assert.equal(refactored.status, 201, refactored.text);
    const refactorId = decodeCode((await waitForAnswer(() => get(b, `/codes/${id}.xml`), (res) => (decodeCode(res.text).refactors ?? []).length === 1, 'the refactoring on B', SEEN_WITHIN_MS)).text).refactors![0].id;
    const unrated = await get(b, `/codes/${id}.xml`);
    assert.equal(decodeCode(unrated.text).refactors![0].ratingsCount, 0);

    const rated = await rate(a, tokens.Carl, id, refactorId, 4);
    assert.equal(rated.status, 200, rated.text);
    const seenRated = await waitForAnswer(() => get(b, `/codes/${id}.xml`), (res) => decodeCode(res.text).refactors![0].ratingsCount === 1, 'the rating on B', SEEN_WITHIN_MS);
    assert.equal(decodeCode(seenRated.text).refactors![0].rating, 4);
    assert.notEqual(seenRated.headers.etag, unrated.headers.etag);

    const listedNow = await get(b, '/codes/recent.xml');
    const deleted = await deleteCode(a, tokens.Ana, id);
    assert.equal(deleted.status, 204, deleted.text);
    const gone = await waitForAnswer(() => get(b, '/codes/recent.xml'), (res) => !recentIds(res).includes(id), 'the deletion on B', SEEN_WITHIN_MS);
    assert.notEqual(gone.headers.etag, listedNow.headers.etag);
    assert.equal((await get(b, `/codes/${id}.xml`)).status, 404);
  });

  it('serves on A what was written through B: the instances are peers', async () => {
    const before = await get(a, '/codes/recent.xml');
    const posted = await postCode(b, tokens.Bo, 'Posted through B');
    assert.equal(posted.status, 201, posted.text);
    const id = decodeCode(posted.text).id;
    const listed = await waitForAnswer(() => get(a, '/codes/recent.xml'), (res) => recentIds(res).includes(id), 'the new code on A', SEEN_WITHIN_MS);
    assert.notEqual(listed.headers.etag, before.headers.etag);
  });

  it('still serves on B what A takes after B\'s LISTEN connection was cut', async () => {
    const admin = await openPostgres(url);
    try {
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where query ilike 'listen%'`);
    } finally {
      await admin.close();
    }
    await get(b, '/codes/recent.xml');
    const posted = await postCode(a, tokens.Ana, 'Posted while nobody listened');
    assert.equal(posted.status, 201, posted.text);
    const id = decodeCode(posted.text).id;
    await waitForAnswer(() => get(b, '/codes/recent.xml'), (res) => recentIds(res).includes(id), 'the new code on B', SEEN_WITHIN_MS);
  });

  it('refuses on B, within moments, a token revoked through A, though B had let it write just before', async () => {
    const token = newToken();
    assert.ok(!(await stores[0].addPerson('Dee', {}, await tokenHash(token))).refused);
    // B writes for Dee, and keeps her token as one that may write.
    const first = await postCode(b, token, 'Before the revocation');
    assert.equal(first.status, 201, first.text);
    assert.ok(!(await stores[0].revoke('Dee')).refused);
    await waitForAnswer(() => postCode(b, token, 'After the revocation'), (res) => res.status === 401, 'the revocation on B', SEEN_WITHIN_MS);
  });
});
