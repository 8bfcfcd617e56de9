// What the web worker extension host's tests rely on in the launcher (test/runners/bridge.ts,
// test/services/): the bridge answers a browser's CORS preflight and lets it read every answer, starts
// and stops loopback servers on request, stops all of them at the end of a run; the front server's own
// answers are readable cross-origin unless it is told to send no CORS header, and a browser's
// preflights are not counted as the client's requests.
import * as assert from 'node:assert/strict';
import { startBridge, withCallLog, type Bridge } from '../../runners/bridge';
import { startFrontServer, type FrontServer } from '../../helpers/frontServer';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { request } from '../../helpers/referenceService';

/** One bridge message as the suite sends it; resolves with the bridge's reply. */
async function post(bridge: Bridge, message: unknown): Promise<{ ok: boolean; result?: unknown; error?: string }> {
  const res = await fetch(bridge.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
  assert.equal(res.headers.get('access-control-allow-origin'), '*');
  return (await res.json()) as { ok: boolean; result?: unknown; error?: string };
}

describe('launcher bridge', () => {
  let bridge: Bridge;
  before(async () => {
    bridge = await startBridge({ onLines: () => {}, screenshotDir: '/nonexistent' });
  });
  after(() => bridge.close());

  it('answers the preflight of a cross-origin JSON POST', async () => {
    const res = await request(bridge.url, '/', {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:1', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['access-control-allow-methods'], 'POST');
    assert.match(String(res.headers['access-control-allow-headers']), /content-type/i);
  });

  it('starts a reference service and a front server on loopback, stops one by its id and the rest at the end of a run', async () => {
    const service = await post(bridge, { type: 'service', request: { verb: 'startService' } });
    assert.ok(service.ok, service.error);
    const { id, url } = service.result as { id: number; url: string };
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal((await request(url, '/codes/recent.xml')).status, 200);

    const front = await post(bridge, { type: 'service', request: { verb: 'startFront', upstream: url, options: {} } });
    assert.ok(front.ok, front.error);
    const frontUrl = (front.result as { url: string }).url;
    assert.equal((await request(frontUrl, '/codes/recent.xml')).status, 200);

    assert.deepEqual(await post(bridge, { type: 'service', request: { verb: 'stop', id } }), { ok: true, result: {} });
    await assert.rejects(request(url, '/codes/recent.xml'), /ECONNREFUSED/);
    await bridge.stopServices();
    await assert.rejects(request(frontUrl, '/codes/recent.xml'), /ECONNREFUSED/);
  });

  it('refuses a front server for anything but loopback http, and a malformed request', async () => {
    const far = await post(bridge, { type: 'service', request: { verb: 'startFront', upstream: 'http://example.org/', options: {} } });
    assert.equal(far.ok, false);
    assert.match(far.error ?? '', /loopback/);
    assert.deepEqual(await post(bridge, { type: 'service', request: { verb: 'stop' } }), { ok: false, error: 'not a bridge message' });
  });
});

describe("a UI step's failure, as the test reads it", () => {
  it("keeps what Playwright was waiting for when it timed out, the log's last steps, on one line", () => {
    const message = [
      'locator.click: Timeout 15000ms exceeded.',
      'Call log:',
      "  - waiting for locator('.monaco-list-row[aria-level=\"2\"]').filter({ hasText: 'A title' }).first()",
      '',
    ].join('\n');
    assert.equal(withCallLog(message), `locator.click: Timeout 15000ms exceeded. (waiting for locator('.monaco-list-row[aria-level="2"]').filter({ hasText: 'A title' }).first())`);
    assert.equal(withCallLog('the context menu has no "Copy"\n    at x (y.js:1:1)'), 'the context menu has no "Copy"');
  });
});

describe('front server and CORS', () => {
  let service: RunningServer;
  let front: FrontServer | undefined;
  before(async () => {
    service = await startServer();
  });
  afterEach(async () => {
    await front?.close();
    front = undefined;
  });
  after(() => service.close());

  const preflight = { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:1', 'access-control-request-method': 'GET' } };

  it("forwards the service's CORS headers, adds them to its own answers, and leaves preflights out of what it counts", async () => {
    front = await startFrontServer(service.url, {});
    front.failing.add('/codes/popular.xml');
    assert.equal((await request(front.url, '/codes/popular.xml', preflight)).status, 204, 'a preflight is never failed');
    const failed = await request(front.url, '/codes/popular.xml', { headers: { origin: 'http://127.0.0.1:1' } });
    assert.equal(failed.status, 500);
    assert.equal(failed.headers['access-control-allow-origin'], '*');
    assert.equal((await request(front.url, '/codes/recent.xml')).headers['access-control-allow-origin'], '*');
    assert.deepEqual(front.paths, ['/codes/popular.xml', '/codes/recent.xml']);
    assert.deepEqual(front.requests.map((r) => [r.method, r.path, r.origin]), [['GET', '/codes/popular.xml', 'http://127.0.0.1:1'], ['GET', '/codes/recent.xml', null]]);
  });

  it('with noCors, sends no Access-Control header at all, preflights included', async () => {
    front = await startFrontServer(service.url, { noCors: true });
    front.failing.add('/codes/popular.xml');
    for (const res of [
      await request(front.url, '/codes/recent.xml', preflight),
      await request(front.url, '/codes/recent.xml'),
      await request(front.url, '/codes/popular.xml'),
    ]) {
      assert.deepEqual(Object.keys(res.headers).filter((h) => h.startsWith('access-control-')), [], `${res.status}`);
    }
  });
});
