// Settings apply without a reload; requests go through VS Code's own fetch, so its http.proxy and
// http.proxyStrictSSL apply; with refactorBrowser.baseUrl empty the built-in sample catalog is
// served and the view says so; changing the address switches services.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import sampleJson from '../../src/server/catalog/sample-catalog.json';
import { Commands } from '../../src/extension/common/commandIds';
import { certificateOrSkip } from '../hostile/tls';
import { startForwardProxy } from '../helpers/forwardProxy';
import { startFrontServer } from '../helpers/frontServer';
import { api, resetState, useSettings, waitFor } from './helpers';
import { items } from './catalogHelpers';
import { startService, type RunningService } from './services';

/** Sets (undefined: removes) VS Code's http.proxy and http.proxyStrictSSL, and waits until the extension has taken them in. */
async function setProxy(url: string | undefined, strictSSL?: boolean): Promise<void> {
  const browser = await api();
  const http = vscode.workspace.getConfiguration('http');
  await http.update('proxy', url, vscode.ConfigurationTarget.Global);
  await http.update('proxyStrictSSL', strictSSL, vscode.ConfigurationTarget.Global);
  await waitFor(() => {
    const [proxy, , strict] = JSON.parse(browser.settings().network) as [unknown, unknown, unknown];
    return (proxy ?? '') === (url ?? '') && (strict ?? true) === (strictSSL ?? true) ? true : undefined;
  }, 'the proxy settings to apply');
}

/** A name nothing resolves: only a proxy that maps it can answer for it. */
const PROXIED_HOST = 'refactor-browser-proxied.test';

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
    assert.strictEqual(await browser.serviceUrl(), 'http://sample.refactor-browser.invalid/');
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
      await vscode.commands.executeCommand(Commands.openCode, 1);
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

  it('sends requests through http.proxy with VS Code\'s own fetch, and applies a change without a reload', async () => {
    const service = await startService();
    services.push(service);
    const port = new URL(service.url).port;
    const proxy = await startForwardProxy({ [PROXIED_HOST]: '127.0.0.1' });
    try {
      await useSettings({ baseUrl: `http://${PROXIED_HOST}:${port}/` });
      await setProxy(proxy.origin);
      const browser = await api();
      const rows = items(await browser.treeRows(['Recent Codes']));
      assert.strictEqual(rows.length, 25);
      assert.ok(proxy.seen.some((l) => l === `CONNECT ${PROXIED_HOST}:${port}` || l.startsWith(`GET http://${PROXIED_HOST}:${port}/codes/recent.xml`)), proxy.seen.join(', '));

      // Without the proxy the name does not resolve: what shows is the copy kept offline.
      await setProxy(undefined);
      const direct = items(await browser.treeRows(['Recent Codes']));
      assert.deepStrictEqual(direct, rows);
      assert.match((await browser.row(['Recent Codes'])).description, /^cached /);
    } finally {
      await proxy.close();
    }
  });

  it('checks an https service\'s certificate through http.proxy: a self-signed one is an error row naming it', async function () {
    // VS Code's fetch takes the certificates it trusts from the system (http.systemCertificates);
    // http.proxyStrictSSL does not relax it (vscode-proxy-agent's fetch patch sets no
    // rejectUnauthorized), and the extension never turns verification off itself.
    const cert = certificateOrSkip(this);
    // The reference service behind https with a throwaway self-signed certificate nothing trusts.
    const service = await startService();
    services.push(service);
    const front = await startFrontServer(service.url, { tls: cert });
    const port = new URL(front.url).port;
    const proxy = await startForwardProxy({ [PROXIED_HOST]: '127.0.0.1' });
    try {
      const browser = await api();
      await useSettings({ baseUrl: `https://${PROXIED_HOST}:${port}/` });
      await setProxy(proxy.origin, true);
      const failed = await browser.treeRows(['Recent Codes']);
      assert.deepStrictEqual(failed.map((r) => r.contextValue), ['refactorBrowser.error'], JSON.stringify(failed));
      assert.match(failed[0].label, /certificate/i);
      assert.strictEqual(front.paths.length, 0, `no request gets past the TLS handshake: ${front.paths.join(', ')}`);
      assert.ok(proxy.seen.includes(`CONNECT ${PROXIED_HOST}:${port}`), proxy.seen.join(', '));
    } finally {
      await setProxy(undefined);
      await resetState();
      await front.close();
      await proxy.close();
      cert.dispose();
    }
  });
});
