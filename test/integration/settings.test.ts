// Issue 5, points 5 and 6: settings apply without a reload; VS Code's http.proxy and
// http.proxyStrictSSL are honoured (the bundled undici is not patched by VS Code); with refactorBrowser.baseUrl empty the built-in sample
// catalog is served on loopback and the view says so; changing the address switches services.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../src/server/dataset';
import sampleJson from '../../src/server/sample-catalog.json';
import { makeTestCertificate } from '../hostile/tls';
import { startForwardProxy } from '../unit/helpers/forwardProxy';
import { startFrontServer } from '../unit/helpers/frontServer';
import { api, resetState, startService, useSettings, waitFor, type RunningService } from './helpers';
import { items, useFrontedService } from './catalogHelpers';

/** Sets (undefined: removes) VS Code's http.proxy and http.proxyStrictSSL, and waits until the extension uses them. */
async function setProxy(url: string | undefined, strictSSL?: boolean): Promise<void> {
  const browser = await api();
  const http = vscode.workspace.getConfiguration('http');
  await http.update('proxy', url, vscode.ConfigurationTarget.Global);
  await http.update('proxyStrictSSL', strictSSL, vscode.ConfigurationTarget.Global);
  const expected = url ? { url, strictSSL: strictSSL !== false } : undefined;
  await waitFor(() => {
    const proxy = browser.settings().proxy;
    return proxy?.url === expected?.url && proxy?.strictSSL === expected?.strictSSL ? true : undefined;
  }, 'the proxy settings to apply');
}

describe('Settings and services', function () {
  this.timeout(30_000);
  const services: RunningService[] = [];
  beforeEach(resetState);
  afterEach(async () => {
    await setProxy(undefined);
    await resetState();
    for (const s of services.splice(0)) await s.close();
  });

  it('browses the built-in sample catalog on loopback, says so, and switches services both ways without a reload', async () => {
    const browser = await api();
    assert.match(browser.view().message, /sample catalog/);
    const sampleUrl = await browser.serviceUrl();
    assert.match(sampleUrl, /^http:\/\/127\.0\.0\.1:\d+\/?$/);
    const sampleFirst = items(await browser.treeRows(['Recent Codes']))[0].label;

    const codes = sampleJson.codes.slice(0, 2).map((c, i) => ({ ...c, title: `Other service ${i + 1}` }));
    const other = await startService({ users: sampleJson.users, codes, refactors: [] });
    services.push(other);
    await useSettings({ baseUrl: other.url });
    assert.strictEqual(browser.view().message, '');
    assert.deepStrictEqual(items(await browser.treeRows(['Recent Codes'])).map((r) => r.label).sort(), ['Other service 1', 'Other service 2']);

    await useSettings({ baseUrl: undefined });
    assert.match(browser.view().message, /sample catalog/);
    assert.strictEqual(items(await browser.treeRows(['Recent Codes']))[0].label, sampleFirst);
  });

  it('gives up a request after refactorBrowser.requestTimeout seconds', async () => {
    // A service that accepts the connection and never answers.
    const net = await import('node:net');
    const sockets: import('node:net').Socket[] = [];
    const silent = net.createServer((s) => { sockets.push(s); });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as import('node:net').AddressInfo).port;
      await useSettings({ baseUrl: `http://127.0.0.1:${port}/`, requestTimeout: 1 });
      const started = Date.now();
      const rows = await (await api()).treeRows(['Popular Codes']);
      assert.strictEqual(rows[0].contextValue, 'refactorBrowser.error', JSON.stringify(rows));
      assert.ok(Date.now() - started < 8000, `took ${Date.now() - started} ms`);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('refuses a base URL with a user name or password: an error row that does not repeat them, and no request', async () => {
    // A front server the extension was never pointed at: whatever it sees came from the credentialed URL
    // (the tree reloads rows expanded by earlier tests from the service configured before).
    const service = await startService();
    const front = await startFrontServer(service.url, {});
    try {
      const withCredentials = new URL(front.url);
      withCredentials.username = 'ana';
      withCredentials.password = 's3cret';
      await useSettings({ baseUrl: withCredentials.href });
      const browser = await api();
      for (const root of ['Recent Codes', 'Popular Codes']) {
        const rows = await browser.treeRows([root]);
        assert.deepStrictEqual(rows.map((r) => r.contextValue), ['refactorBrowser.error'], root);
        assert.match(rows[0].label, /must not contain a user name or password/);
      }
      await vscode.commands.executeCommand('refactorBrowser.openCode', 1);
      const shown = [
        ...(await browser.treeRows(['Recent Codes'])).map((r) => `${r.label} ${r.description}`),
        browser.view().message, browser.view().description, ...browser.recentLog(),
      ];
      assert.deepStrictEqual(shown.filter((t) => /s3cret|ana(:|@)/.test(t)), [], 'the credentials are shown nowhere');
      assert.deepStrictEqual(front.paths, [], 'nothing was requested');
    } finally {
      await front.close();
      await service.close();
    }
  });

  it('sends requests through http.proxy (the reference service answers absolute-form requests as a proxy would)', async () => {
    const proxy = await startService();
    services.push(proxy);
    // Nothing resolves this name: only a proxy can answer for it.
    await useSettings({ baseUrl: 'http://refactor-browser.invalid/' });
    await setProxy(proxy.url, false);
    const browser = await api();
    assert.deepStrictEqual(browser.settings().proxy, { url: proxy.url, strictSSL: false });
    const rows = items(await browser.treeRows(['Recent Codes']));
    assert.strictEqual(rows.length, 25);
    assert.ok(browser.recentLog().some((l) => l.includes('GET http://refactor-browser.invalid/codes/recent.xml -> 200')));

    // Without the proxy the name does not resolve: what shows is the copy kept offline.
    await setProxy(undefined);
    const direct = items(await browser.treeRows(['Recent Codes']));
    assert.deepStrictEqual(direct, rows);
    assert.match((await browser.row(['Recent Codes'])).description, /^cached /);
  });

  it('checks an https service\'s certificate through http.proxy, and accepts any once http.proxyStrictSSL is false', async function () {
    const cert = makeTestCertificate();
    if (!cert) this.skip(); // no openssl
    const proxy = await startForwardProxy();
    // The reference service behind https with a throwaway self-signed certificate nothing trusts.
    const served = await useFrontedService({ tls: cert });
    try {
      const browser = await api();
      const port = new URL(served.front.url).port;
      await setProxy(proxy.origin, true);
      const failed = await browser.treeRows(['Recent Codes']);
      assert.deepStrictEqual(failed.map((r) => r.contextValue), ['refactorBrowser.error'], JSON.stringify(failed));
      assert.match(failed[0].label, /certificate/i);
      assert.strictEqual(served.front.paths.length, 0, `no request gets past the TLS handshake: ${served.front.paths.join(', ')}`);
      assert.ok(proxy.seen.includes(`CONNECT 127.0.0.1:${port}`), proxy.seen.join(', '));

      // Applies without a reload: the lists are fetched again through a client that accepts the certificate.
      await setProxy(proxy.origin, false);
      const rows = items(await browser.treeRows(['Recent Codes']));
      assert.deepStrictEqual(rows.map((r) => r.label), loadSampleDataset().recentCodes.all.slice(0, 25).map((c) => c.title));
      assert.ok(served.front.paths.includes('/codes/recent.xml'), served.front.paths.join(', '));
      assert.ok(proxy.seen.every((l) => l === `CONNECT 127.0.0.1:${port}`), proxy.seen.join(', '));
    } finally {
      await setProxy(undefined);
      await resetState();
      await served.close();
      await proxy.close();
      cert.dispose();
    }
  });
});
