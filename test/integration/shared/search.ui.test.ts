// Search Codes… as a person uses it, in both extension hosts: an empty search offers to index the
// catalog, the notification counts codes, a typed query lists ranked rows with the matching line, Enter
// opens the code view scrolled to the refactoring that matched, and the language filter's button
// searches all languages.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { Commands } from '../../../src/extension/common/commandIds';
import { closeAllEditors, waitForCodeViewTab } from '../codeViewHelpers';
import { api, resetState, useSettings, waitFor } from '../helpers';
import { uiOrSkip, type Ui } from '../ui';
import { startFront, startService } from '../services';

const sample = loadSampleDataset();
const QUICK_INPUT = '.quick-input-widget';
const ROWS = `${QUICK_INPUT} .monaco-list-row`;
const NOTIFICATIONS = '.notifications-toasts .notification-toast';

/** A word of `text` that no other code or refactoring of the sample holds (so a search for it has one answer). */
function uniqueWord(text: string, others: string[]): string | undefined {
  const words = [...new Set(text.match(/[A-Za-z]{6,}/g) ?? [])];
  return words.find((w) => !others.some((o) => o.toLowerCase().includes(w.toLowerCase())));
}

describe('Search Codes (UI)', function () {
  this.timeout(120_000);
  let ui: Ui;

  before(async function () {
    ui = uiOrSkip(this);
    await resetState();
    await (await api()).forgetSearch();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('notifications.clearAll');
    await closeAllEditors();
  });
  after(async () => {
    await resetState();
    await (await api()).forgetSearch();
  });

  it('an empty search offers Index the Catalog, which ends saying how many codes and refactorings search knows', async () => {
    await (await api()).forgetSearch();
    // Toasts from earlier suites would leave no room for this one's.
    await vscode.commands.executeCommand('notifications.clearAll');
    void vscode.commands.executeCommand(Commands.search);
    await ui.waitFor({ css: ROWS, hasText: 'Index the Catalog for Search' });
    const [input] = await ui.query({ css: `${QUICK_INPUT} input` }, ['placeholder'], 1);
    assert.match(input.attributes.placeholder ?? '', /knows no code of the built-in sample catalog yet/);
    await ui.press('Enter');
    const refactors = [...sample.codes.values()].reduce((n, c) => n + c.refactors.length, 0);
    const said = `Search knows all ${sample.codes.size} codes and ${refactors} refactorings of the built-in sample catalog.`;
    let shown: string[] = [];
    try {
      await waitFor(async () => {
        shown = (await ui.query({ css: NOTIFICATIONS })).map((n) => n.text);
        return shown.some((t) => t.includes(said)) ? true : undefined;
      }, said, 30_000);
    } catch (e) {
      throw new Error(`${(e as Error).message}; notifications shown: ${JSON.stringify(shown)}; log: ${(await api()).recentLog().slice(-5).join(' | ')}`, { cause: e });
    }
  });

  it('finds a refactoring by a word of its code, and Enter opens the code view scrolled to it', async () => {
    const browser = await api();
    if ((await browser.searchIndex()).indexedAt === 0) await browser.indexCatalog();
    const all = [...sample.codes.values()];
    const texts = all.flatMap((c) => [c.code, c.title, ...c.refactors.map((r) => `${r.code}\n${r.title}`)]);
    // A refactoring (past the first of its code) with a word of code nothing else holds.
    let chosen: { codeId: number; refactorId: number; title: string; word: string } | undefined;
    for (const c of all) {
      for (const r of c.refactors.slice(1)) {
        const word = uniqueWord(r.code, texts.filter((t) => t !== `${r.code}\n${r.title}`));
        if (word && r.title) chosen ??= { codeId: c.id, refactorId: r.id, title: r.title, word };
      }
    }
    assert.ok(chosen, 'a refactoring with a word of its own');
    void vscode.commands.executeCommand(Commands.search);
    await ui.waitFor({ css: `${QUICK_INPUT} input` });
    await ui.type(chosen.word);
    await ui.waitFor({ css: ROWS, hasText: chosen.title });
    const [row] = await ui.query({ css: ROWS }, ['aria-label'], 1);
    assert.ok(row.text.includes(chosen.title), `the first row is the refactoring: ${row.text}`);
    assert.ok(row.text.includes(chosen.word), `it shows the line that matched: ${row.text}`);
    const [input] = await ui.query({ css: `${QUICK_INPUT} input` }, ['placeholder'], 1);
    const refactors = [...sample.codes.values()].reduce((n, c) => n + c.refactors.length, 0);
    assert.match(input.attributes.placeholder ?? '', new RegExp(`^Search ${sample.codes.size} codes and ${refactors} refactorings \\(indexed (just now|\\d+ minutes? ago)\\)$`));
    await ui.press('Enter');
    const code = sample.codes.get(chosen.codeId)!;
    await waitForCodeViewTab(code.title);
    await waitFor(async () => {
      const [section] = await ui.dom({ css: `#refactor-${chosen.refactorId}` }, { webview: true, frameText: code.title });
      return section && section.top >= -2 && section.top <= 24 ? true : undefined;
    }, `refactoring #${chosen.refactorId} scrolled to the top`);
  });

  it('keeps to the Catalog\'s language, with a button that searches all languages', async () => {
    const browser = await api();
    if ((await browser.searchIndex()).indexedAt === 0) await browser.indexCatalog();
    const other = [...sample.codes.values()].find((c) => c.language !== 'Ruby')!;
    await useSettings({ language: 'Ruby' });
    void vscode.commands.executeCommand(Commands.search);
    await ui.waitFor({ css: `${QUICK_INPUT} input` });
    await ui.waitFor({ css: `${QUICK_INPUT} .quick-input-title`, hasText: 'Search Codes in Ruby' });
    await ui.type(other.title);
    // Nothing outside Ruby: the other language's code is not among the rows.
    await waitFor(async () => {
      const rows = await ui.query({ css: ROWS });
      return rows.length > 0 ? rows : undefined;
    }, 'rows for the query');
    assert.ok(!(await ui.query({ css: ROWS })).some((r) => r.text.includes(other.title)), `${other.title} (${other.language}) is not shown`);
    await ui.click({ css: `${QUICK_INPUT} .action-label[aria-label="Search All Languages"]` });
    await ui.waitFor({ css: ROWS, hasText: other.title });
    const [title] = await ui.query({ css: `${QUICK_INPUT} .quick-input-title` }, [], 1);
    assert.strictEqual(title.text.trim(), 'Search Codes');
  });

  it('the Catalog\'s title bar has a Search button that opens it', async () => {
    await vscode.commands.executeCommand('refactorBrowser.catalog.focus');
    await ui.click({ css: '.part.sidebar .title-actions .action-label[aria-label="Search Codes…"], .part.sidebar .actions .action-label[aria-label="Search Codes…"]' });
    await ui.waitFor({ css: `${QUICK_INPUT} .quick-input-title`, hasText: 'Search Codes' });
  });

  it('Index the Catalog counts codes in its notification, and its Cancel button stops it keeping what it read', async () => {
    const service = await startService();
    const front = await startFront(service.url);
    try {
      await useSettings({ baseUrl: front.url });
      await (await api()).forgetSearch();
      await front.hold();
      void vscode.commands.executeCommand(Commands.indexCatalog);
      await ui.waitFor({ css: NOTIFICATIONS, hasText: `Indexing ${front.url} for search` });
      await ui.waitFor({ css: NOTIFICATIONS, hasText: '0 codes, 0 refactorings' });
      await ui.click({ css: `${NOTIFICATIONS} .monaco-button`, hasText: 'Cancel' });
      await ui.waitFor({ css: NOTIFICATIONS, hasText: `Indexing was cancelled: search knows 0 codes and 0 refactorings of ${front.url}.` });
      assert.strictEqual((await (await api()).searchIndex()).indexedAt, 0);
    } finally {
      await front.release();
      await (await api()).forgetSearch();
      await resetState();
      await front.close();
      await service.close();
    }
  });
});
