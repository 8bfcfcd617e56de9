// Large content in VS Code (docs/hostile.md, case 9): 2,000 codes paged by the service (one page, then Load more), the
// hostile server's 2,000 items in one answer (all listed, and held by the tree on screen), and a
// 10,000-line code and a 1 MB single-line code in the code view and in a virtual document, each
// within a bound (not a benchmark: the bound says "does not freeze").
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { RefactorClient } from '../../src/client/client';
import { PAGE_SIZE, type Code } from '../../src/core/model';
import sampleJson from '../../src/server/catalog/sample-catalog.json';
import { Commands } from '../../src/extension/common/commandIds';
import { startHostileServer, type HostileServer } from '../hostile/server';
import { closeAllEditors, codeRow, collapseCatalog, settleWebviews, showRoot, TREE_ROWS, webviewText } from './codeViewHelpers';
import { api, resetState, useSettings, waitFor } from './helpers';
import { report, watchUnhandled } from './hostileHelpers';
import { hasLoadMore, items, rowsWhen } from './catalogHelpers';
import { uiOrSkip, type Ui } from './ui';
import { startService } from './services';

/**
 * Where real time is the point (a huge answer must not freeze the host): generous, since what it
 * guards against, a list or a view stuck on megabytes, takes minutes; a loaded machine takes seconds.
 */
const BOUND_MS = 10_000;

async function timed<T>(what: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const value = await work();
  const ms = Date.now() - started;
  report(`| ${what} | ${ms} ms |`);
  assert.ok(ms < BOUND_MS, `${what} took ${ms} ms`);
  return value;
}

async function codeAt(baseUrl: string, id: number): Promise<Code> {
  const client = new RefactorClient({ baseUrl, timeoutMs: 10_000 });
  try {
    return await client.code(id);
  } finally {
    await client.close();
  }
}

describe('Hostile large content in VS Code', function () {
  this.timeout(90_000);
  const unhandled = watchUnhandled();
  let hostile: HostileServer;

  before(async () => {
    unhandled.start();
    await resetState();
    hostile = await startHostileServer({ lifetimeMs: 600_000 });
  });
  afterEach(resetState);
  after(async () => {
    await hostile.close();
    unhandled.stop();
    assert.deepStrictEqual(unhandled.take(), [], 'no unhandled rejection or uncaught exception in the extension host');
  });

  it('2,000 codes on a paging service: one page of 25, then Load more adds the next', async () => {
    const codes = Array.from({ length: 2000 }, (_, i) => ({ ...sampleJson.codes[0], id: i + 1, permalink: `c${i + 1}`, title: `Code number ${i + 1}` }));
    const service = await startService({ users: sampleJson.users, codes, refactors: [] });
    try {
      await useSettings({ baseUrl: service.url });
      const browser = await api();
      const first = await timed('2,000-code catalog: page 1', () => browser.treeRows(['Recent Codes']));
      assert.strictEqual(items(first).length, PAGE_SIZE);
      assert.ok(hasLoadMore(first));
      await browser.click(['Recent Codes', 'Load more…']);
      const second = await timed('2,000-code catalog: Load more', () =>
        rowsWhen(['Recent Codes'], (r) => items(r).length > PAGE_SIZE, 'page 2', BOUND_MS));
      assert.strictEqual(items(second).length, 2 * PAGE_SIZE);
      assert.strictEqual(new Set(second.map((r) => r.id)).size, second.length, 'no row twice');
      assert.ok(hasLoadMore(second));
    } finally {
      await resetState();
      await service.close();
    }
  });

  it('2,000 items in one answer: all listed; Load more then ends (the next page repeats)', async () => {
    await useSettings({ baseUrl: `${hostile.url}/many-items` });
    const browser = await api();
    const rows = await timed('2,000 items in one answer: listed', () => browser.treeRows(['Recent Codes']));
    assert.strictEqual(items(rows).length, 2000);
    await browser.click(['Recent Codes', 'Load more…']);
    const after = await rowsWhen(['Recent Codes'], (r) => !hasLoadMore(r), 'Load more to go', BOUND_MS);
    assert.strictEqual(items(after).length, 2000, 'no row twice');
    assert.deepStrictEqual(unhandled.take(), []);
  });

  describe('on screen (UI)', function () {
    this.timeout(120_000);
    let ui: Ui;

    before(async function () {
      ui = uiOrSkip(this);
      await settleWebviews(ui);
    });
    afterEach(closeAllEditors);
    after(async () => {
      await collapseCatalog();
      await vscode.commands.executeCommand('workbench.view.explorer');
    });

    it('the tree holds 2,000 rows from one answer and scrolls to the last', async () => {
      await useSettings({ baseUrl: `${hostile.url}/many-items` });
      await timed('2,000 items: rows on screen', () => showRoot(ui, 'Recent Codes'));
      const [row] = await ui.query({ css: `${TREE_ROWS}[aria-level="2"]` }, ['aria-setsize'], 1);
      // 2,000 codes and the Load more row (the one answer was a full page as far as the tree knows).
      assert.strictEqual(row.attributes['aria-setsize'], '2001');
      // Focus, not a click: a click on a code row would open its code view.
      await vscode.commands.executeCommand('refactorBrowser.catalog.focus');
      await ui.press('End');
      await timed('2,000 items: scrolled to the last row', () => ui.waitFor({ css: `${TREE_ROWS}[aria-posinset="2001"]` }));
    });

    for (const [name, what] of [['many-lines', '10,000-line code'], ['long-line', '1 MB single-line code']] as const) {
      it(`a ${what} opens in the code view and as a document`, async () => {
        const base = `${hostile.url}/${name}`;
        await useSettings({ baseUrl: base });
        const code = await codeAt(base, 1);
        const lastLine = code.code.trimEnd().split('\n').at(-1)!;

        await timed(`${what}: code view`, async () => {
          await vscode.commands.executeCommand(Commands.openCode, 1);
          await webviewText(ui, ['Code 1', 'Refactorings (2)'], BOUND_MS);
        });
        const [block] = await ui.dom({ css: '#code-1 pre code' }, { webview: true, frameText: 'Refactorings (2)', maxText: 40 });
        assert.strictEqual(block.textLength, code.code.length, 'the whole code is in the view');
        assert.ok(code.code.startsWith(block.text));
        if (name === 'many-lines') await webviewText(ui, [lastLine.trim()], BOUND_MS);
        await closeAllEditors();

        // Both codes are code 1 of their services: the second document must not show the first's text.
        const editor = await timed(`${what}: virtual document`, async () => {
          await vscode.commands.executeCommand(Commands.openAsDocument, codeRow(code));
          return waitFor(() => {
            const e = vscode.window.activeTextEditor;
            return e?.document.uri.scheme === 'refactor-browser' ? e : undefined;
          }, 'the document', BOUND_MS);
        });
        assert.strictEqual(editor.document.getText(), code.code);
        assert.strictEqual(editor.document.isDirty, false);
        let shown = '';
        await waitFor(async () => ((shown = await ui.editorText()).startsWith(code.code.slice(0, 20)) ? true : undefined), 'the text on screen', BOUND_MS)
          .catch((err: Error) => assert.fail(`${err.message}: ${shown.slice(0, 80)}`));
        assert.deepStrictEqual(unhandled.take(), []);
      });
    }
  });
});
