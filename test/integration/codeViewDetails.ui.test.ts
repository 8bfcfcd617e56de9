// The code view's details, read off the webview: the dates of the code and of every refactoring,
// ratings with their votes, highlighted code; opening a refactoring scrolls to it; the Copy and Open
// as Document buttons; a view restored from the state its webview keeps (what VS Code does after a
// window reload); and Open in Browser handing over the code's page.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { Code } from '../../src/core/model';
import { sortRefactorings } from '../../src/core/ratings';
import { codeRefOf } from '../../src/client/urls';
import { DOCUMENT_SCHEME } from '../../src/extension/code/documentPaths';
import { Commands } from '../../src/extension/common/commandIds';
import {
  closeAllEditors, codeRow, codeViewTabs, fetchCode, refactorRow, settleWebviews, waitForCodeViewTab, webviewText,
} from './codeViewHelpers';
import { api, resetState, useSettings, waitFor } from './helpers';
import { uiOrSkip, type Ui } from './ui';
import { startService } from './services';

describe('Code view details (UI)', function () {
  this.timeout(90_000);
  let ui: Ui;
  /** The sample code with the most refactorings: long enough to scroll. */
  let code: Code;

  before(async function () {
    ui = uiOrSkip(this);
    await resetState();
    code = await fetchCode(1);
    assert.ok(code.refactors!.length >= 6, 'code 1 has refactorings enough to scroll');
    await settleWebviews(ui);
  });
  afterEach(closeAllEditors);
  after(resetState);

  /** The elements matching `css` in the code view of `code`. */
  const dom = (css: string) => ui.dom({ css }, { webview: true, frameText: code.title, maxText: 200 });

  it('shows when the code and each refactoring were posted, each rating with its votes, and highlighted code', async () => {
    await vscode.commands.executeCommand(Commands.openCode, code.id);
    await webviewText(ui, [code.title, `Refactorings (${code.refactors!.length})`]);
    const instants = (await dom('time')).map((t) => new Date(t.attributes.datetime).getTime());
    // The refactorings are shown best rated first (codeViewOrder.ui.test.ts holds that order).
    const expected = [code.createdAt, ...(code.updatedAt?.getTime() !== code.createdAt?.getTime() ? [code.updatedAt] : []),
      ...sortRefactorings(code.refactors!, 'bestRated').map((r) => r.createdAt)].map((d) => d!.getTime());
    assert.deepStrictEqual(instants, expected);
    for (const r of code.refactors!) {
      const [meta] = await dom(`#refactor-${r.id} .meta`);
      const votes = r.ratingsCount === 1 ? '1 vote' : `${r.ratingsCount} votes`;
      // The service writes a refactoring nobody rated yet as 0 from 0 votes: the view says so.
      const rating = r.ratingsCount === 0 ? 'not rated' : `rated ${r.rating} (${votes})`;
      assert.ok(meta.text.includes(rating), `refactoring ${r.id}: ${meta.text}`);
      assert.ok(meta.text.includes(`by ${r.userName || 'anonymous'}`), `refactoring ${r.id}: ${meta.text}`);
    }
    // highlight.js marks tokens with hljs-* classes once the block has been on screen.
    const tokens = await waitFor(async () => {
      const found = await dom(`#code-${code.id} [class*="hljs-"]`);
      return found.length > 0 ? found : undefined;
    }, 'highlighted tokens in the code');
    assert.ok(tokens.every((t) => code.code.includes(t.text)), 'tokens are pieces of the code');
  });

  /** Waits until the refactoring's section is at the top of the view. */
  async function atTop(refactorId: number): Promise<void> {
    let top: number | undefined;
    try {
      await waitFor(async () => {
        top = (await dom(`#refactor-${refactorId}`))[0]?.top;
        // At the top, give or take the view's own padding.
        return top !== undefined && top >= -2 && top <= 24 ? true : undefined;
      }, `refactoring #${refactorId} scrolled to the top`);
    } catch (err) {
      throw new Error(`${(err as Error).message} (its top was at ${top} px)`, { cause: err });
    }
  }

  it('scrolls to a refactoring opened from its row, and to another one opened in the same view', async () => {
    // One in the middle: the last ones cannot reach the top, as the page ends below them.
    const middle = code.refactors![Math.floor(code.refactors!.length / 2)];
    await vscode.commands.executeCommand(Commands.openCode, refactorRow(middle));
    await waitForCodeViewTab(code.title);
    await atTop(middle.id);
    const [original] = await dom(`#code-${code.id}`);
    assert.ok(original.top < 0, `the original is scrolled out of view (top ${original.top})`);

    const second = code.refactors![1];
    await vscode.commands.executeCommand(Commands.openCode, refactorRow(second));
    await atTop(second.id);
    assert.strictEqual(codeViewTabs().length, 1, 'the same view');
  });

  it('copies a refactoring and opens it as a read-only document from its buttons', async () => {
    // The third shown (blocks far down the page are laid out, and hold their text, only once scrolled to).
    const r = sortRefactorings(code.refactors!, 'bestRated')[2];
    await vscode.commands.executeCommand(Commands.openCode, code.id);
    await webviewText(ui, [code.title, r.title]);
    await vscode.env.clipboard.writeText('');
    await ui.webviewClick({ css: `#refactor-${r.id} button`, hasText: 'Copy' }, code.title);
    await waitFor(async () => ((await vscode.env.clipboard.readText()) === r.code ? true : undefined), 'the refactoring on the clipboard');

    await ui.webviewClick({ css: `#refactor-${r.id} button`, hasText: 'Open as Document' }, code.title);
    const editor = await waitFor(() => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === DOCUMENT_SCHEME ? e : undefined;
    }, 'the refactoring as a document');
    assert.strictEqual(editor.document.getText(), r.code);
    assert.ok(editor.document.uri.path.includes(String(r.id)), editor.document.uri.toString());
  });

  it('restores a code view from the state its webview keeps, and closes one whose state names no code', async () => {
    const restored = await fetchCode(5);
    const browser = await api();
    // What VS Code hands the serializer after a reload: a fresh panel of our type and the kept state.
    const panel = vscode.window.createWebviewPanel('refactorBrowser.code', 'Code #5', vscode.ViewColumn.Active, {});
    await browser.restoreCodeView(panel, { codeId: restored.id });
    await waitForCodeViewTab(restored.title);
    await webviewText(ui, [restored.title, `Refactorings (${restored.refactors!.length})`]);

    const junk = vscode.window.createWebviewPanel('refactorBrowser.code', 'junk', vscode.ViewColumn.Active, {});
    let disposed = false;
    junk.onDidDispose(() => (disposed = true));
    await browser.restoreCodeView(junk, { codeId: 'five' });
    await waitFor(() => disposed || undefined, 'a panel with unusable state closed rather than left empty');
    // Restoring a code that is open already leaves one view of it.
    const twin = vscode.window.createWebviewPanel('refactorBrowser.code', 'twin', vscode.ViewColumn.Active, {});
    await browser.restoreCodeView(twin, { codeId: restored.id });
    await waitFor(() => (codeViewTabs().some((t) => t.label === 'twin') ? undefined : true), 'the twin closed');
    assert.strictEqual(codeViewTabs().filter((t) => t.label === restored.title).length, 1);
  });

  it('Open in Browser hands over the code\'s page, which the service serves as HTML', async () => {
    const service = await startService();
    try {
      await useSettings({ baseUrl: service.url });
      const browser = await api();
      await vscode.commands.executeCommand(Commands.openInBrowser, codeRow(code));
      const line = await waitFor(() => browser.recentLog().find((l) => l.includes(' in the browser')), 'the opened URL in the log');
      const url = /opening (\S+) in the browser/.exec(line)?.[1];
      assert.strictEqual(url, `${service.url}/codes/${codeRefOf(code)}`);
      const res = await fetch(url);
      assert.strictEqual(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.ok((await res.text()).includes(code.title.replace(/&/g, '&amp;').replace(/</g, '&lt;')), 'the page shows the code');
    } finally {
      await resetState();
      await service.close();
    }
  });

  it('offers no page for the built-in sample catalog: no Open in Browser link, and the command says why', async () => {
    await vscode.commands.executeCommand(Commands.openCode, code.id);
    await webviewText(ui, [code.title]);
    assert.deepStrictEqual((await dom('button')).filter((b) => b.text === 'Open in Browser'), []);
    await vscode.commands.executeCommand(Commands.openInBrowser, codeRow(code));
    await ui.waitFor({ css: '.notifications-toasts .notification-toast', hasText: 'The built-in sample catalog has no web pages' });
    await vscode.commands.executeCommand('notifications.clearAll');
  });
});
