// RefactorClient at the edges of cancelling and caching (client.test.ts covers the common cases):
// a signal aborted before the call, a new caller right after the only waiter left, what is logged
// for a cancelled request, the caller's signal left without listeners, and answers that cannot be
// revalidated not taking cache room from those that can.

import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { RefactorClient } from '../../../src/client/client';
import { createDispatcher, fetchVia } from '../../../src/client/dispatcher';
import type { Logger } from '../../../src/client/logger';
import { recentCodesUrl } from '../../../src/client/urls';
import { rejectsWith } from '../../helpers/apiAssert';
import { waitFor } from '../../helpers/poll';
import { startServer, type Handler, type TestServer } from '../../helpers/testServer';

const CODES = '<?xml version="1.0" encoding="UTF-8"?>\n<codes type="array"><code><id type="integer">1</id><title>Hello</title></code></codes>\n';

describe('RefactorClient at its edges', function () {
  this.timeout(8000);
  let server: TestServer;
  let client: RefactorClient;
  const dispatcher = createDispatcher({ env: {} });
  const infos: string[] = [];
  const logger: Logger = { trace() {}, warn() {}, error() {}, info: (m) => infos.push(m) };
  after(() => dispatcher.destroy());
  afterEach(async () => {
    infos.length = 0;
    await client.close();
    await server.close();
  });
  async function setup(handler: Handler): Promise<void> {
    server = await startServer(handler);
    client = new RefactorClient({ baseUrl: server.origin, fetch: fetchVia(dispatcher), logger });
  }

  it('refuses a call whose signal is already aborted, without a request', async () => {
    await setup((_req, res) => res.end(CODES));
    const signal = AbortSignal.abort();
    await rejectsWith(client.recentCodes({ signal }), 'aborted', `${recentCodesUrl(server.origin)}: cancelled`);
    assert.equal(server.requests.length, 0);
  });

  it('starts afresh for a caller who comes right after the only waiter left, and logs the cancel', async () => {
    // The first request is never answered; the second is.
    await setup((_req, res) => { if (server.requests.length > 1) res.end(CODES); });
    const controller = new AbortController();
    const first = client.recentCodes({ signal: controller.signal });
    await waitFor(() => server.requests.length === 1, 'the request', 3000);
    controller.abort();
    // In the same tick: the dying request must not be joined.
    const second = client.recentCodes();
    const url = recentCodesUrl(server.origin);
    await rejectsWith(first, 'aborted', `${url}: cancelled`);
    assert.deepEqual((await second).map((c) => c.title), ['Hello']);
    assert.equal(server.requests.length, 2);
    assert.ok(infos.includes(`GET ${url}: cancelled`), infos.join('\n'));
  });

  it('leaves no listener on the caller\'s signal once the call is over', async () => {
    await setup((_req, res) => res.end(CODES));
    const signal = new AbortController().signal;
    await client.recentCodes({ signal });
    await client.recentCodes({ signal, page: 2 });
    assert.equal(getEventListeners(signal, 'abort').length, 0);
  });

  it('keeps an answer it can revalidate while answers it cannot (no ETag, no max-age) come and go', async () => {
    await setup((req, res) => {
      if (req.url === '/codes/recent.xml') {
        if (req.headers['if-none-match'] === '"v1"') { res.statusCode = 304; res.end(); return; }
        res.setHeader('ETag', '"v1"');
      }
      res.end(CODES);
    });
    await client.recentCodes();
    // More uncacheable answers than the cache has room for (200 entries).
    for (let page = 2; page <= 202; page++) await client.recentCodes({ page });
    assert.deepEqual((await client.recentCodes()).map((c) => c.title), ['Hello']);
    const last = server.requests[server.requests.length - 1];
    assert.equal(last.headers['if-none-match'], '"v1"', 'still held, so revalidated');
  });
});
