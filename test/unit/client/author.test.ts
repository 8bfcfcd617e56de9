// withAuthor (src/client/author.ts) names a single code's author, which the answer gives by user-id
// alone: from the list the code was reached from, else search's index, else the service's
// /users/<id>.xml; each only when the ones before did not name them, and nothing for a code whose
// answer names its author or an anonymous one. The service is the reference service answered in
// process, every request it gets counted; a service that nests <user> in the single code is a
// loopback server.
import * as assert from 'node:assert/strict';
import { withAuthor, type AuthorSources } from '../../../src/client/author';
import { RefactorClient } from '../../../src/client/client';
import { isApiError } from '../../../src/core/errors';
import type { Code } from '../../../src/core/model';
import { authorOf } from '../../../src/core/names';
import { decodeCode } from '../../../src/core/xmlDecode';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { inProcessFetch, SAMPLE_BASE_URL } from '../../../src/server/http/fetchHandler';
import { CodeSearch } from '../../../src/search/searchIndex';
import { startServer, type TestServer } from '../../helpers/testServer';

describe('withAuthor: the author of a single code', () => {
  const sample = loadSampleDataset();
  const served = inProcessFetch(sample);
  /** The paths the service was asked for, in order. */
  let asked: string[];
  let client: RefactorClient;
  /** The list's code, with its author nested, and the same code as its own answer gives it. */
  let listed: Code;
  let single: Code;
  /** How often the index was asked for. */
  let indexAsks: number;

  beforeEach(async () => {
    asked = [];
    indexAsks = 0;
    client = new RefactorClient({
      baseUrl: SAMPLE_BASE_URL,
      fetch: (input, init) => {
        asked.push(new URL(input).pathname);
        return served(input, init);
      },
    });
    listed = (await client.recentCodes()).find((c) => c.userId !== null)!;
    single = await client.code(listed.id);
    asked = [];
  });
  afterEach(() => client.close());

  const indexOf = (codes: readonly Code[]): AuthorSources['index'] => () => {
    indexAsks++;
    const search = CodeSearch.empty();
    search.addCodes(codes);
    return Promise.resolve(search);
  };

  it('the reference service\'s single code gives user-id alone', () => {
    assert.equal(single.user, undefined);
    assert.equal(single.userId, listed.userId);
    assert.equal(authorOf(single), `user #${single.userId}`);
  });

  it('takes the name from the list the code was reached from, and asks neither the index nor the service', async () => {
    const named = await withAuthor(single, { listed, index: indexOf([listed]), client });
    assert.deepEqual(named.user, listed.user);
    assert.deepEqual([indexAsks, asked], [0, []]);
  });

  it('takes it from the index when there is no list, or the list names no one, and does not ask the service', async () => {
    for (const from of [undefined, { ...listed, user: undefined }, { ...listed, id: listed.id + 1 }]) {
      indexAsks = 0;
      const named = await withAuthor(single, { listed: from, index: indexOf([listed]), client });
      assert.equal(named.user?.name, listed.user!.name);
      assert.deepEqual([indexAsks, asked], [1, []]);
    }
  });

  it('asks /users/<id>.xml when neither the list nor the index names the author, once while the answer is fresh', async () => {
    for (const index of [undefined, () => Promise.resolve(undefined), indexOf([]), () => Promise.reject(new Error('unreadable'))]) {
      const named = await withAuthor(single, { index, client });
      assert.deepEqual(named.user, sample.users.get(single.userId!), 'every User field, as lists nest them');
      assert.equal(authorOf(named), listed.user!.name);
    }
    assert.deepEqual(asked, [`/users/${single.userId}.xml`], 'asked once: the client holds the answer');
  });

  it('asks nothing for a code whose answer names its author, nor for an anonymous one', async () => {
    const anonymous: Code = { ...single, userId: null };
    assert.equal(await withAuthor(anonymous, { index: indexOf([listed]), client }), anonymous);
    assert.equal(await withAuthor(listed, { index: indexOf([listed]), client }), listed);
    assert.deepEqual([indexAsks, asked], [0, []]);
  });

  it('leaves the code as it came when the service cannot name the author: "user #N", and says why', async () => {
    const unknown: Code = { ...single, userId: 99999 };
    const failures: unknown[] = [];
    const shown = await withAuthor(unknown, { client, failed: (source, err) => failures.push([source, isApiError(err) && err.message]) });
    assert.equal(shown, unknown);
    assert.equal(authorOf(shown), 'user #99999');
    assert.deepEqual(asked, ['/users/99999.xml']);
    assert.equal(failures.length, 1);
    assert.match(String((failures[0] as unknown[])[1]), /404/);
  });

  it('does not believe a service that answers for another person', async () => {
    const liar = { user: async () => ({ ...sample.users.get(single.userId!)!, id: single.userId! + 1 }) };
    assert.equal((await withAuthor(single, { client: liar })).user, undefined);
  });

  describe('from a service that nests <user> in the single code too', () => {
    let server: TestServer;
    let other: RefactorClient;
    before(async () => {
      server = await startServer((_req, res) => {
        res.setHeader('content-type', 'application/xml; charset=utf-8');
        res.end('<?xml version="1.0" encoding="UTF-8"?>\n<code><code>x</code><comment></comment><created-at type="datetime">2008-02-01T10:20:30+09:00</created-at>'
          + '<id type="integer">5</id><language>Ruby</language><permalink>p</permalink><refactors-count type="integer">0</refactors-count><title>T</title>'
          + '<trackback-url></trackback-url><updated-at type="datetime">2008-02-01T10:20:30+09:00</updated-at><user-id type="integer">7</user-id>'
          + '<user><id type="integer">7</id><identity-url></identity-url><name>ann</name><rating type="float">1.0</rating>'
          + '<refactors-count type="integer">0</refactors-count><website></website></user><refactors type="array"></refactors></code>\n');
      });
      other = new RefactorClient({ baseUrl: server.origin });
    });
    after(async () => {
      await other.close();
      await server.close();
    });

    it('takes the code with its <user>, and asks nothing more', async () => {
      const code = await other.code(5);
      assert.equal(code.user?.name, 'ann');
      assert.deepEqual(code, decodeCode(await (await fetch(`${server.origin}/codes/5.xml`)).text()));
      const before = server.requests.length;
      assert.equal(await withAuthor(code, { index: indexOf([]), client: other }), code);
      assert.deepEqual([indexAsks, server.requests.length], [0, before]);
    });
  });
});
