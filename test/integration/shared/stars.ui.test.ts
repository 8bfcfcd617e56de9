// Stars as a person uses them, in both extension hosts: the code view's Star buttons (the code
// and a refactoring), the Starred root that appears in the Catalog, the row's own Unstar button, which
// the open code view follows at once; and a starred code read offline in the code view, which says it
// shows the copy kept when it was starred; and the palette's Star or Unstar, as the open code view's code is.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { Commands } from '../../../src/extension/common/commandIds';
import { closeAllEditors, settleWebviews, showRoot, TREE_ROWS, webviewText } from '../codeViewHelpers';
import { api, resetState, useSettings, waitFor } from '../helpers';
import { startService } from '../services';
import { uiOrSkip, type Ui } from '../ui';

const sample = loadSampleDataset();
// Sample code 1 and its best-rated refactoring.
const CODE = { id: 1, title: 'Sum an array of prices' };
const REFACTOR = 34;
const QUICK_INPUT = '.quick-input-widget';

describe('Starred (UI)', function () {
  this.timeout(120_000);
  let ui: Ui;

  before(async function () {
    ui = uiOrSkip(this);
    await resetState();
    await settleWebviews(ui);
  });
  afterEach(closeAllEditors);
  after(resetState);

  /** What the Star buttons of the view of `title` say: each block's id with its button's text. */
  async function starButtons(title: string): Promise<Array<[string, string]>> {
    const buttons = await ui.dom({ css: 'button.star' }, { webview: true, frameText: title, maxText: 50 });
    return buttons.map((b) => [b.attributes['aria-label'] ?? '', b.text.trim()]);
  }

  async function waitForButton(title: string, name: string, text: string): Promise<void> {
    let seen: unknown;
    try {
      await waitFor(async () => {
        seen = await starButtons(title);
        return (seen as Array<[string, string]>).some(([n, t]) => n === name && t === text) ? true : undefined;
      }, `the button ${name} to say ${text}`);
    } catch (err) {
      throw new Error(`${(err as Error).message}: the view's Star buttons are ${JSON.stringify(seen)}`, { cause: err });
    }
  }

  it('stars the code and a refactoring with the code view\'s buttons; Starred lists them; the row\'s Unstar button unstars, and the view follows', async () => {
    const browser = await api();
    await vscode.commands.executeCommand(Commands.openCode, CODE.id);
    await webviewText(ui, [CODE.title, 'Refactorings (9)']);
    await waitForButton(CODE.title, `Star: code #${CODE.id}`, 'Star');

    await ui.webviewClick({ css: `#code-${CODE.id} button.star` }, CODE.title);
    await waitForButton(CODE.title, `Unstar: code #${CODE.id}`, 'Unstar');
    await ui.webviewClick({ css: `#refactor-${REFACTOR} button.star` }, CODE.title);
    await waitForButton(CODE.title, `Unstar: refactoring #${REFACTOR}`, 'Unstar');
    assert.deepStrictEqual((await browser.stars()).map((s) => [s.kind, s.codeId, s.refactorId]),
      [['refactor', CODE.id, REFACTOR], ['code', CODE.id, undefined]]);

    // The Catalog shows Starred at the top, with both.
    await showRoot(ui, 'Starred');
    const refactorTitle = sample.codes.get(CODE.id)!.refactors.find((r) => r.id === REFACTOR)!.title;
    const rows = await ui.query({ css: `${TREE_ROWS}[aria-level="2"]` }, ['aria-label'], 2);
    assert.deepStrictEqual(rows.map((r) => r.attributes['aria-label']?.endsWith(', starred')), [true, true]);
    assert.ok(rows[0].text.includes(refactorTitle) && rows[1].text.includes(CODE.title), JSON.stringify(rows.map((r) => r.text)));

    // The row's inline Unstar button, as a person hovers the row and clicks the filled star.
    const row = { css: `${TREE_ROWS}[aria-level="2"]`, hasText: refactorTitle };
    await ui.hover(row);
    await ui.click({ css: `${TREE_ROWS}[aria-level="2"] .actions .action-label[aria-label="Unstar"]`, nth: 0 });
    await waitFor(async () => ((await browser.stars()).length === 1 ? true : undefined), 'the refactoring to be unstarred');
    await waitForButton(CODE.title, `Star: refactoring #${REFACTOR}`, 'Star');
    await ui.waitFor({ css: `${TREE_ROWS}[aria-level="2"]`, hasText: refactorTitle }, 'detached');
  });

  /** Whether the command palette lists `title` ("Refactor Browser: Star"), as a person finds it by typing it. */
  async function paletteOffers(title: string): Promise<boolean> {
    // Focus that settles in a webview just clicked closes the palette again: open it until it stays.
    for (let attempt = 1; ; attempt++) {
      void vscode.commands.executeCommand('workbench.action.showCommands');
      try {
        await ui.waitFor({ css: QUICK_INPUT }, 'visible', 3000);
        break;
      } catch (err) {
        if (attempt === 3) throw err;
      }
    }
    await ui.type(title);
    // Every prefix of the title matches what the title matches, so the first decisive list is the last.
    let seen = '';
    const offered = await waitFor(async () => {
      const [widget] = await ui.query({ css: QUICK_INPUT }, [], 1);
      seen = widget?.text ?? '';
      const rows = (await ui.query({ css: `${QUICK_INPUT} .monaco-list-row` })).map((r) => r.text);
      if (rows.some((t) => t.includes(title))) return { offered: true };
      // What VS Code shows when nothing matches: a line saying so, or other commands under "similar commands".
      // (An answer of its own: waitFor keeps asking while the probe gives undefined or false.)
      return /No matching commands|similar commands/.test(seen) ? { offered: false } : undefined;
    }, `the palette to list ${title} or nothing`).catch((err: Error) => {
      throw new Error(`${err.message}; the palette shows: ${seen.slice(0, 500)}`);
    });
    await ui.press('Escape');
    await ui.waitFor({ css: QUICK_INPUT }, 'hidden');
    return offered.offered;
  }

  it('offers Star in the command palette for the open code view\'s code, Unstar once it is starred, and neither with no code view', async () => {
    await resetState();
    const browser = await api();
    assert.deepStrictEqual(await browser.stars(), []);
    await vscode.commands.executeCommand(Commands.openCode, CODE.id);
    await webviewText(ui, [CODE.title, 'Refactorings (9)']);
    assert.deepStrictEqual([await paletteOffers('Refactor Browser: Star'), await paletteOffers('Refactor Browser: Unstar')], [true, false]);

    await ui.webviewClick({ css: `#code-${CODE.id} button.star` }, CODE.title);
    await waitFor(async () => ((await browser.stars()).length === 1 ? true : undefined), 'the code to be starred');
    await waitForButton(CODE.title, `Unstar: code #${CODE.id}`, 'Unstar');
    assert.deepStrictEqual([await paletteOffers('Refactor Browser: Star'), await paletteOffers('Refactor Browser: Unstar')], [false, true]);

    // Unstarred from the Catalog's side (the palette's command), the palette follows too.
    await vscode.commands.executeCommand(Commands.unstar);
    await waitFor(async () => ((await browser.stars()).length === 0 ? true : undefined), 'the code to be unstarred');
    assert.deepStrictEqual([await paletteOffers('Refactor Browser: Star'), await paletteOffers('Refactor Browser: Unstar')], [true, false]);

    await closeAllEditors();
    assert.deepStrictEqual([await paletteOffers('Refactor Browser: Star'), await paletteOffers('Refactor Browser: Unstar')], [false, false]);
  });

  it('shows a starred code in the code view while its service is down, saying it is the copy kept when it was starred', async () => {
    const service = await startService();
    try {
      await useSettings({ baseUrl: service.url, requestTimeout: 5 });
      const browser = await api();
      const code = (await browser.treeRows(['Recent Codes']))[0];
      await browser.runOnRow(Commands.star, ['Recent Codes', code.label]);
      assert.ok((await browser.stars())[0].keptAt);
      await service.close();
      await vscode.commands.executeCommand(Commands.refresh); // what the client holds is asked for again
      const id = Number(/code:(\d+)$/.exec(code.id)![1]);
      await vscode.commands.executeCommand(Commands.openCode, id);
      const text = await webviewText(ui, [code.label, 'this is the copy kept when it was starred']);
      assert.match(text, /The service could not be reached: this is the copy kept when it was starred, as it was on /);
      const [note] = await ui.dom({ css: 'p.note.kept' }, { webview: true, frameText: code.label });
      assert.strictEqual(note?.attributes.role, 'status', 'a screen reader is told');
    } finally {
      await resetState();
      await service.close();
    }
  });
});
