// A request that carries a token (Sign In's account read; writes are never redirected at all) against
// two real loopback servers: a service that redirects, and "elsewhere", where it points. The token
// must not leave for another origin, and a person elsewhere names must not be taken as signed in;
// a redirect within the service's own origin still works. Also where a browser hides the redirect.
import * as assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { RefactorClient } from '../../../src/client/client';
import { createDispatcher, fetchVia } from '../../../src/client/dispatcher';
import { fetchXml } from '../../../src/client/http';
import { rejectsWith } from '../../helpers/apiAssert';
import { browserLike } from '../../helpers/browserFetch';
import { startServer, type TestServer } from '../../helpers/testServer';

const TOKEN = 'sEcReT-t0ken_value';
const USER = '<?xml version="1.0" encoding="UTF-8"?>\n<user><id type="integer">9</id><identity-url></identity-url><name>mallory</name>'
  + '<rating type="float"></rating><refactors-count type="integer">0</refactors-count><website></website></user>\n';
const REFUSED = 'a token goes only to the service it was given for';

function answerUser(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' }).end(USER);
}

describe('a token is not sent on by a redirect to another origin', function () {
  this.timeout(8000);
  let service: TestServer;
  let elsewhere: TestServer;
  let dispatcher: Dispatcher;

  beforeEach(async () => {
    dispatcher = createDispatcher({ env: {} });
    elsewhere = await startServer(answerUser);
    service = await startServer((req, res) => {
      if (req.url === '/same/account.xml') answerUser(req, res);
      else if (req.url === '/moved/account.xml') res.writeHead(301, { location: '/same/account.xml' }).end();
      else res.writeHead(302, { location: `${elsewhere.origin}/account.xml` }).end();
    });
  });
  afterEach(async () => {
    await Promise.all([service?.close(), elsewhere?.close()]);
    await dispatcher.destroy();
  });

  const authorizations = (server: TestServer) => server.requests.map((r) => r.headers.authorization);

  it('Sign In is refused, naming where it was sent, and elsewhere is never asked', async () => {
    const client = new RefactorClient({ baseUrl: service.origin, token: TOKEN, fetch: fetchVia(dispatcher) });
    try {
      const err = await rejectsWith(client.account(), 'insecure-redirect',
        `${service.origin}/account.xml: redirect to ${elsewhere.origin} refused (${REFUSED})`);
      assert.equal(err.status, 302);
    } finally {
      await client.close();
    }
    assert.deepEqual(authorizations(service), [`Bearer ${TOKEN}`]);
    assert.deepEqual(elsewhere.requests, [], 'elsewhere never sees the token');
  });

  it('a redirect within the service\'s origin keeps the token and signs in', async () => {
    const client = new RefactorClient({ baseUrl: `${service.origin}/moved`, token: TOKEN, fetch: fetchVia(dispatcher) });
    try {
      assert.equal((await client.account()).name, 'mallory');
    } finally {
      await client.close();
    }
    assert.deepEqual(service.requests.map((r) => `${r.url} ${r.headers.authorization}`),
      [`/moved/account.xml Bearer ${TOKEN}`, `/same/account.xml Bearer ${TOKEN}`]);
  });

  it('where a browser hides the redirect, Sign In is refused before it is followed', async () => {
    const client = new RefactorClient({ baseUrl: service.origin, token: TOKEN, fetch: browserLike(dispatcher) });
    try {
      await rejectsWith(client.account(), 'insecure-redirect',
        `${service.origin}/account.xml: redirected, and the browser does not say where (${REFUSED})`);
    } finally {
      await client.close();
    }
    assert.equal(service.requests.length, 1);
    assert.deepEqual(elsewhere.requests, [], 'elsewhere never sees the token');
  });

  it('a read, which carries no token, still follows a redirect to another origin', async () => {
    const result = await fetchXml(`${service.origin}/codes/recent.xml`, { fetch: fetchVia(dispatcher) });
    assert.equal(result.url, `${elsewhere.origin}/account.xml`);
    assert.deepEqual(authorizations(elsewhere), [undefined]);
  });
});
