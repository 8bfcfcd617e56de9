// What people expect when things go wrong: an error row with the one-line cause
// and Retry (that list only) while the rest works; the last good lists, marked as cached with their
// time, when the service goes down; welcome content when it cannot be reached and nothing is kept;
// every request and error in the log. In both extension hosts: in the browser's, a service
// that does not allow other sites' requests (CORS) is named in the row, and the deadline holds there too.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { shownUrl } from '../../../src/core/errors';
import { Commands } from '../../../src/extension/common/commandIds';
import { expectedHost } from '../bridgeClient';
import { api, resetState, useSettings, waitFor } from '../helpers';
import { items, rowsWhen, useFrontedService } from '../catalogHelpers';
import { refusedUrl, startHostile, startService } from '../services';

/** What the extension says in the browser when a request fails without a status (src/extension/service.ts). */
function corsCause(origin: string): string {
  return `no answer VS Code for the Web may read: ${origin} may not allow requests from other sites (CORS), or cannot be reached`;
}

describe('Errors, offline and the log', function () {
  this.timeout(40_000);
  beforeEach(resetState);
  after(resetState);

  it('shows an error row with the cause; Retry re-fetches that list only; the other lists work', async () => {
    const served = await useFrontedService({});
    try {
      await served.front.fail(['/codes/popular.xml']);
      const browser = await api();
      const rows = await browser.treeRows(['Popular Codes']);
      assert.deepStrictEqual(rows.map((r) => [r.contextValue, r.command]), [['refactorBrowser.error', Commands.retry]]);
      assert.match(rows[0].label, /^Could not load: HTTP 500/);
      assert.ok(!rows[0].label.includes('127.0.0.1'), 'one line, the cause, not the URL');
      assert.strictEqual(items(await browser.treeRows(['Recent Codes'])).length, 25);
      const logged = browser.recentLog().filter((l) => l.startsWith('error ') && l.includes(`${served.front.url}codes/popular.xml`));
      assert.strictEqual(logged.length, 1, `the error is logged once, by the client:\n${logged.join('\n')}`);
      // Said in words too, for whoever does not see the row (a screen reader reads the view's message).
      assert.match(browser.view().message, /^Popular Codes could not be loaded: HTTP 500/);

      await served.front.fail([]);
      const before = (await served.front.paths()).length;
      await browser.click(['Popular Codes', rows[0].label]);
      const again = await rowsWhen(['Popular Codes'], (r) => items(r).length > 0, 'Popular Codes after Retry');
      assert.strictEqual(items(again).length, 25);
      assert.deepStrictEqual((await served.front.paths()).slice(before), ['/codes/popular.xml']);
      assert.strictEqual(items(await browser.treeRows(['Recent Codes'])).length, 25, 'Recent Codes kept');
      assert.strictEqual(browser.view().message, '', 'loaded again: nothing to say');
    } finally {
      await resetState();
      await served.close();
    }
  });

  it('says in the view\'s message what is loading while a request takes long, and which code\'s refactorings failed', async () => {
    const served = await useFrontedService({});
    try {
      const browser = await api();
      assert.strictEqual(browser.view().message, '');
      await served.front.hold();
      const loading = browser.treeRows(['Recent Refactorings']);
      await waitFor(() => (browser.view().message === 'Loading Recent Refactorings…' ? true : undefined), 'the loading message')
        .catch((err: Error) => assert.fail(`${err.message}: ${JSON.stringify(browser.view().message)}`));
      await served.front.release();
      assert.ok(items(await loading).length > 0);
      await waitFor(() => (browser.view().message === '' ? true : undefined), 'the message to go');

      const [code] = items(await browser.treeRows(['Recent Codes'])).filter((r) => r.collapsible);
      const id = Number(/\d+$/.exec(code.id)![0]);
      await served.front.fail([`/codes/${id}.xml`]);
      const rows = await browser.treeRows(['Recent Codes', code.label]);
      assert.strictEqual(rows[0].contextValue, 'refactorBrowser.error');
      assert.match(browser.view().message, new RegExp(`^Refactorings of "${code.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" could not be loaded: HTTP 500`));
      // Refresh starts over: what failed is no longer said.
      await served.front.fail([]);
      await vscode.commands.executeCommand(Commands.refresh);
      assert.strictEqual(browser.view().message, '');
    } finally {
      await resetState();
      await served.close();
    }
  });

  it('logs every request with its URL, status and milliseconds', async () => {
    const browser = await api();
    await vscode.commands.executeCommand(Commands.refresh);
    await browser.treeRows(['Recent Refactorings']);
    // The built-in sample catalog's address is shown by its name, never as an address to open.
    const url = shownUrl(new URL('refactorings/recent.xml', `${(await browser.serviceUrl()).replace(/\/$/, '')}/`).href);
    assert.ok(browser.recentLog().some((l) => new RegExp(`^info GET ${url.replace(/[.?]/g, '\\$&')} -> (200|304) in \\d+ ms$`).test(l)),
      browser.recentLog().slice(-5).join('\n'));
  });

  it('shows the last good lists, marked as cached with their time, when the service goes down', async () => {
    const service = await startService();
    await useSettings({ baseUrl: service.url, requestTimeout: 5 });
    const browser = await api();
    const recent = await browser.treeRows(['Recent Codes']);
    const refactors = await browser.treeRows(['Recent Refactorings']);
    assert.strictEqual((await browser.row(['Recent Codes'])).description, '');
    // A code expanded to its refactorings (the single-code response) is kept too.
    const expanded = ['Recent Codes', recent[0].label];
    const itsRefactors = await browser.treeRows(expanded);
    assert.ok(itsRefactors.every((r) => r.contextValue === 'refactorBrowser.refactor') && itsRefactors.length > 0);
    await service.close();

    await vscode.commands.executeCommand(Commands.refresh);
    assert.deepStrictEqual(await browser.treeRows(['Recent Codes']), recent);
    assert.deepStrictEqual(await browser.treeRows(['Recent Refactorings']), refactors);
    const again = await browser.treeRows(expanded);
    assert.deepStrictEqual(again.slice(0, -1), itsRefactors);
    assert.strictEqual(again.at(-1)!.contextValue, 'refactorBrowser.note');
    assert.match(again.at(-1)!.label, /^cached (at|on) \d.*: the service could not be reached$/);
    const root = await browser.row(['Recent Codes']);
    assert.match(root.description, /^cached (at|on) \d/);
    assert.match(root.tooltip.replace(/&nbsp;/g, ' '), /could not be reached/);
    // A list never loaded has nothing kept: its error row, while the cached ones stay.
    const popular = await browser.treeRows(['Popular Codes']);
    assert.strictEqual(popular[0].contextValue, 'refactorBrowser.error');
    assert.strictEqual(browser.view().unreachable, false, 'lists are shown, so no welcome page');
  });

  it('shows welcome content when the service cannot be reached and nothing is kept; Retry brings the roots back', async () => {
    const refused = await refusedUrl();
    await useSettings({ baseUrl: refused, requestTimeout: 5 });
    const browser = await api();
    const rows = await browser.treeRows(['Recent Codes']);
    assert.strictEqual(rows[0].contextValue, 'refactorBrowser.error');
    await waitFor(() => (browser.view().unreachable ? true : undefined), 'the unreachable state');
    assert.deepStrictEqual(await browser.treeRows(), [], 'an empty tree, so the welcome content shows');
    assert.strictEqual(browser.view().message, '', 'VS Code shows welcome content only without a message');
    // The browser tells no cause: a refused connection reads as any failure without a status there.
    const cause = expectedHost() === 'web' ? corsCause(new URL(refused).origin) : /connection refused|ECONNREFUSED/i;
    assert.ok(browser.recentLog().some((l) => l.startsWith('error ') && (typeof cause === 'string' ? l.includes(cause) : cause.test(l))),
      `the cause is logged:\n${browser.recentLog().slice(-5).join('\n')}`);
    await vscode.commands.executeCommand(Commands.refresh);
    assert.strictEqual((await browser.treeRows()).length, 4);
    assert.strictEqual(browser.view().unreachable, false);
  });

  it('in the browser, a service that does not allow CORS: one error row saying so, naming its origin (in Node it lists)', async () => {
    const served = await useFrontedService({ noCors: true });
    try {
      const browser = await api();
      const rows = await browser.treeRows(['Recent Codes']);
      if (expectedHost() === 'web') {
        assert.deepStrictEqual(rows.map((r) => [r.contextValue, r.command]), [['refactorBrowser.error', Commands.retry]]);
        assert.strictEqual(rows[0].label, `Could not load: ${corsCause(new URL(served.front.url).origin)}`);
      } else {
        // Node's fetch enforces no CORS: the same service lists.
        assert.strictEqual(items(rows).length, 25, JSON.stringify(rows.map((r) => r.label)));
      }
    } finally {
      await resetState();
      await served.close();
    }
  });

  it('gives up a service that never answers after refactorBrowser.requestTimeout: an error row saying so', async () => {
    const hostile = await startHostile();
    try {
      await useSettings({ baseUrl: `${hostile.url}/never`, requestTimeout: 1 });
      const started = Date.now();
      const rows = await (await api()).treeRows(['Popular Codes']);
      assert.deepStrictEqual(rows.map((r) => [r.contextValue, r.label]), [['refactorBrowser.error', 'Could not load: timed out after 1 s']]);
      // Real time is the point: 4 s over the 1 s deadline is room for a loaded machine; without the
      // deadline the row would wait for a server that never answers.
      assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    } finally {
      await resetState();
      await hostile.close();
    }
  });
});
