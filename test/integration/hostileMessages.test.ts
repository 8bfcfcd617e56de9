// Link syntax from a service in VS Code's notifications: VS Code renders `[text](command:…)` in a
// message as a link that runs the command when clicked. A code's title, a URL the service redirected
// to and a reason phrase it made up reach the notifications as text: read from the workbench's DOM,
// no link is in them.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { DomInfo } from '../ui/protocol';
import { COMMAND_LINK } from '../hostile/cases';
import sampleJson from '../../src/server/catalog/sample-catalog.json';
import { loadSampleDataset } from '../../src/server/catalog/sampleDataset';
import { Commands } from '../../src/extension/common/commandIds';
import { api, resetState, useSettings, waitFor } from './helpers';
import { startSwitchboard, watchUnhandled, type Switchboard } from './hostileHelpers';
import { startService } from './services';
import { uiOrSkip, type Ui } from './ui';

const TOAST = '.notifications-toasts .notification-toast';
/** Where VS Code renders a notification's message, links included (its buttons and toolbar are elsewhere). */
const MESSAGE = `${TOAST} .notification-list-item-message`;
const sample = loadSampleDataset();

describe('Hostile text in notifications (UI)', function () {
  this.timeout(90_000);
  const unhandled = watchUnhandled();
  let ui: Ui;
  let board: Switchboard | undefined;

  before(async function () {
    ui = uiOrSkip(this);
    unhandled.start();
    await resetState();
    await vscode.commands.executeCommand('notifications.clearAll');
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await resetState();
    await board?.close();
    board = undefined;
  });
  after(() => {
    unhandled.stop();
    assert.deepStrictEqual(unhandled.take(), [], 'no unhandled rejection or uncaught exception in the extension host');
  });

  /** The text of the one notification message that says `opening`, once no link is in any message. */
  async function notification(opening: string): Promise<string> {
    await ui.waitFor({ css: MESSAGE, hasText: opening });
    const links = (await ui.dom({ css: `${MESSAGE} *` })).filter((e: DomInfo) => e.tag === 'a' || e.attributes.href !== undefined);
    assert.deepStrictEqual(links, [], 'no link in a notification');
    const shown = await ui.query({ css: MESSAGE, hasText: opening });
    assert.strictEqual(shown.length, 1, JSON.stringify(shown.map((s) => s.text)));
    // The word joiner that keeps `](` from reading as a link is invisible; the text is the service's.
    return shown[0].text.replaceAll('\u2060', '');
  }

  it("a code's title with a command link shows as its text", async () => {
    const title = `${COMMAND_LINK} https://evil.example/ file:///etc/passwd`;
    const base = sampleJson.codes[0];
    const service = await startService({ users: sampleJson.users, codes: [{ ...base, id: 303, title, permalink: 'link', tags: [] }], refactors: [] });
    try {
      await useSettings({ baseUrl: service.url });
      const [row] = (await (await api()).treeRows(['Recent Codes'])).filter((r) => r.label === title);
      assert.ok(row, 'the code is listed');
      // The row's own title is not the one shown: the code is asked for, and its title comes from the service.
      void vscode.commands.executeCommand(Commands.compareAllRefactorings, { contextValue: 'refactorBrowser.code', code: { id: 303, title: 'row' } });
      const text = await notification('has no refactorings yet');
      assert.ok(text.includes(`${title} has no refactorings yet.`), text);
    } finally {
      await service.close();
    }
  });

  it('a URL the service redirected to and a reason phrase it made up show as text; the phrase not at all', async () => {
    board = await startSwitchboard();
    await useSettings({ baseUrl: board.url, requestTimeout: 5 });
    const browser = await api();
    const held = new Set(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'refactor-browser').map((d) => d.uri.path.split('/')[2]));
    const [redirected, madeUp] = sample.recentCodes.all.filter((c) => !held.has(String(c.id)));
    for (const [code, name, cause] of [
      [redirected, 'to-link', `${board.url}/${COMMAND_LINK}/codes/${redirected.id}.xml: HTTP 404 Not Found`],
      [madeUp, 'link-phrase', `${board.url}/codes/${madeUp.id}.xml: HTTP 599`],
    ] as const) {
      board.set(`/codes/${code.id}.xml`, name);
      const row = { contextValue: 'refactorBrowser.code', code: { ...code, user: undefined, refactors: undefined } };
      void vscode.commands.executeCommand(Commands.openAsDocument, row);
      const text = await notification('Could not open the document');
      assert.ok(text.includes(`Could not open the document: ${cause}`), text);
      assert.ok(!text.includes('Try again'), `the made-up phrase is not shown: ${text}`);
      await waitFor(() => (browser.recentLog().some((l) => l.includes(cause)) ? true : undefined), 'the failure logged', 5000);
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  });

  it('a user name and password in a redirect or in the base URL, in any form: in no notification, row or log line', async () => {
    board = await startSwitchboard();
    await useSettings({ baseUrl: board.url, requestTimeout: 5 });
    const browser = await api();
    const held = new Set(vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'refactor-browser').map((d) => d.uri.path.split('/')[2]));
    const [code] = sample.recentCodes.all.filter((c) => !held.has(String(c.id)));
    const row = { contextValue: 'refactorBrowser.code', code: { ...code, user: undefined, refactors: undefined } };
    board.set(`/codes/${code.id}.xml`, 'to-credentials');
    void vscode.commands.executeCommand(Commands.openAsDocument, row);
    const shown = [await notification('Could not open the document')];
    const masked = `${board.url.replace('http://', 'http://***@')}/ok/codes/${code.id}.xml`;
    assert.ok(shown[0].includes(`Could not open the document: ${masked}: `), shown[0]);
    await waitFor(() => (browser.recentLog().some((l) => l.includes(masked)) ? true : undefined), 'the failure logged', 5000);
    await vscode.commands.executeCommand('notifications.clearAll');
    await ui.waitFor({ css: MESSAGE }, 'detached');

    // Base URLs the URL parser reads with credentials, written as no one would expect: refused, and
    // the last one named in a notification (one more is all this test waits for).
    const host = board.url.slice('http://'.length);
    for (const base of [`HTTP:/ana:s3cret@${host}/`, `http:ana:s3cret@${host}/`, `http://ana:p@ss@s3cret@${host}/`, `http:\\\\ana:s3cret@${host}/`]) {
      await useSettings({ baseUrl: base });
      const rows = await browser.treeRows(['Recent Codes']);
      assert.match(rows[0]?.label ?? '', /must not contain a user name or password/, base);
      shown.push(...rows.map((r) => `${r.label} ${r.description}`), browser.view().message);
    }
    void vscode.commands.executeCommand(Commands.openAsDocument, row);
    const text = await notification('Could not open the document');
    assert.ok(text.includes(`Could not open the document: http:\\\\***@${host}/: a base URL must not contain a user name or password`), text);
    shown.push(text);
    shown.push(...browser.recentLog());
    assert.deepStrictEqual(shown.filter((t) => /s3cret|ana:|p@ss/.test(t)), [], 'the credentials are shown nowhere');
  });
});
