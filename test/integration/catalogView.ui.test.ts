// The Catalog view as a person uses it, read off the screen: click the activity-bar item, expand Recent
// Codes, page with "Load more…", filter through the quick pick (a listed language, a typed one, All
// Languages), add a tag through its input box and remove it from the tag row's menu, select several
// rows, open a row with the keyboard, read what a screen reader says of a row, watch the progress bar
// and the message while a list loads, and the welcome content when the service cannot be reached. Saves media/screenshots/catalog.png for the README.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { PAGE_SIZE } from '../../src/core/model';
import { loadSampleDataset } from '../../src/server/catalog/sampleDataset';
import { Commands } from '../../src/extension/common/commandIds';
import { api, resetState, ROOT_LABELS, useSettings, waitFor } from './helpers';
import { items, useFrontedService } from './catalogHelpers';
import { closeAllEditors, codeViewTabs, collapseCatalog, waitForCodeViewTab } from './codeViewHelpers';
import { uiOrSkip, type Ui } from './ui';
import { refusedUrl } from './services';

const ROWS = '.part.sidebar .monaco-list-row[role=treeitem]';
const QUICK_INPUT = '.quick-input-widget';
const sample = loadSampleDataset();

/** Shows the view with only `label` expanded, as clicked. */
async function expandRoot(ui: Ui, label: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.view.extension.refactorBrowser');
  await collapseCatalog();
  await ui.click({ css: `${ROWS}[aria-level="1"]`, hasText: label });
  await ui.query({ css: `${ROWS}[aria-level="2"]` }, [], 1);
}

describe('Catalog view (UI)', function () {
  this.timeout(90_000);
  let ui: Ui;

  before(async function () {
    ui = uiOrSkip(this);
    await resetState();
    // Start from the Explorer, as a fresh window does: clicking our item must open our container.
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  after(async () => {
    await collapseCatalog();
    await resetState();
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  it('opens from the activity bar and lists Recent Codes when expanded', async () => {
    await ui.click({ role: 'tab', name: 'Refactor Browser' });
    const roots = await ui.query({ css: `${ROWS}[aria-level="1"]` }, ['aria-expanded'], ROOT_LABELS.length);
    assert.deepStrictEqual(roots.map((r) => r.text.split('\n')[0]), ROOT_LABELS);
    assert.ok(roots.every((r) => r.attributes['aria-expanded'] === 'false'), 'roots should start collapsed');

    await ui.click({ css: ROWS, hasText: 'Recent Codes' });
    const shown = await ui.query({ css: `${ROWS}[aria-level="2"]` }, ['aria-label'], 1);
    const expected = await (await api()).treeRows(['Recent Codes']);
    assert.ok(expected.length > 0, 'the sample catalog has recent codes');
    // The list is virtual: it renders the rows that fit, in order from the top.
    assert.ok(shown.length >= Math.min(expected.length, 10), `only ${shown.length} rows on screen`);
    shown.forEach((row, i) => {
      assert.ok(row.text.includes(expected[i].label), `row ${i}: ${JSON.stringify(row.text)} lacks ${expected[i].label}`);
      assert.ok(row.text.includes(expected[i].description), `row ${i}: ${JSON.stringify(row.text)} lacks ${expected[i].description}`);
      // What a screen reader says of the row: a sentence, not the description's dots.
      if (expected[i].contextValue !== 'refactorBrowser.code') return;
      const [language, author, count] = expected[i].description.split(' · ');
      assert.strictEqual(row.attributes['aria-label'], `${expected[i].label}, ${language}, by ${author}, ${count}`);
    });

    // A code expands to its refactorings (revealing one expands its code), best rated first: in sample
    // code 53, Tell, don't ask (4 from 12 votes) before the older Object#try (4 from 1 vote).
    const code = sample.recentCodes.all[0];
    assert.deepStrictEqual(code.refactors.map((r) => r.title), ['Object#try', "Tell, don't ask"]);
    await (await api()).reveal(['Recent Codes', code.title, 'Object#try']);
    const nested = await ui.query({ css: `${ROWS}[aria-level="3"]` }, ['aria-label'], 2);
    assert.ok(nested[0].text.includes("Tell, don't ask") && nested[0].text.includes('★ 4 (12) · Hiroshi Tanaka'), nested[0].text);
    assert.strictEqual(nested[0].attributes['aria-label'], `Tell, don't ask, a refactoring of ${code.title}, by Hiroshi Tanaka, rated 4 (12 votes)`);
    assert.strictEqual(nested[1].attributes['aria-label'], `Object#try, a refactoring of ${code.title}, by Fatima Haddad, rated 4 (1 vote)`);
    await ui.screenshot('catalog');
  });

  afterEach(async () => {
    await useSettings({ language: undefined, baseUrl: undefined, requestTimeout: undefined, tags: undefined });
  });

  it('opens the focused row with Enter, as a keyboard user does', async () => {
    await closeAllEditors();
    // Clicking a root expands it and leaves keyboard focus on it; the arrow moves to its first code.
    await expandRoot(ui, 'Recent Codes');
    await ui.press('ArrowDown');
    const code = sample.recentCodes.all[0];
    await ui.waitFor({ css: `${ROWS}.focused[aria-level="2"]`, hasText: code.title });
    assert.strictEqual(codeViewTabs().length, 0, 'moving focus opens nothing');
    await ui.press('Enter');
    await waitForCodeViewTab(code.title);
    await closeAllEditors();
  });

  it('says it shows the sample catalog, and its gear button opens the base URL setting', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.refactorBrowser');
    await ui.waitFor({ css: '.part.sidebar', hasText: 'Browsing the built-in sample catalog' });
    await ui.click({ css: '.part.sidebar .action-label[aria-label="Open Settings"]' });
    // The settings editor, searched for the setting the message names.
    await ui.waitFor({ css: '.settings-editor .setting-item-contents', hasText: 'Refactor Browser: Base Url' });
    const [shown] = await ui.query({ css: '.settings-editor .setting-item-contents', hasText: 'Base Url' }, [], 1);
    assert.ok(shown.text.includes('browse the built-in sample catalog'), shown.text);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('selects several rows with Ctrl+click', async () => {
    await expandRoot(ui, 'Popular Codes');
    const [a, b] = sample.popularCodes.all;
    await ui.click({ css: `${ROWS}[aria-level="2"]`, hasText: a.title });
    await ui.click({ css: `${ROWS}[aria-level="2"]`, hasText: b.title }, { modifiers: ['ControlOrMeta'] });
    const selected = await ui.query({ css: `${ROWS}[aria-selected="true"]` });
    assert.ok(selected.length >= 2, `selected: ${selected.map((s) => s.text.split('\n')[0]).join(', ')}`);
    assert.ok(selected.some((s) => s.text.includes(a.title)) && selected.some((s) => s.text.includes(b.title)));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('loads the next page when "Load more…" is clicked', async () => {
    await expandRoot(ui, 'Recent Codes');
    const browser = await api();
    // Scrolls the last row into view, as a person scrolling down would.
    await browser.reveal(['Recent Codes', 'Load more…']);
    await ui.click({ css: `${ROWS}[aria-level="2"]`, hasText: 'Load more…' });
    const next = sample.recentCodes.all[PAGE_SIZE];
    await ui.waitFor({ css: `${ROWS}[aria-level="2"]`, hasText: next.title });
    const rows = items(await browser.treeRows(['Recent Codes']));
    assert.strictEqual(rows.length, 2 * PAGE_SIZE);
  });

  it('filters by a language picked in Filter by Language…, by one typed in, and clears it with All Languages', async () => {
    const browser = await api();
    void vscode.commands.executeCommand(Commands.filterLanguage);
    await ui.waitFor({ css: QUICK_INPUT });
    await ui.type('Haskell');
    await ui.waitFor({ css: `${QUICK_INPUT} .monaco-list-row`, hasText: 'Haskell' });
    await ui.press('Enter');
    await waitFor(() => (browser.settings().language === 'Haskell' ? true : undefined), 'the Haskell filter');
    await expandRoot(ui, 'Recent Codes');
    const haskell = sample.recentCodes.all.filter((c) => c.language === 'Haskell');
    // The refresh reaches the screen a moment after the setting.
    const shown = await waitFor(async () => {
      const rows = await ui.query({ css: `${ROWS}[aria-level="2"]` }, [], 1);
      return rows.length === haskell.length ? rows : undefined;
    }, 'the Haskell rows on screen');
    shown.forEach((row, i) => assert.ok(row.text.startsWith(haskell[i].title) && row.text.includes('Haskell · '), row.text));
    const description = await ui.query({ css: '.part.sidebar .pane-header .description' });
    assert.ok(description.some((d) => d.text.includes('Haskell')), JSON.stringify(description));

    // The pick that just closed must be gone before the next opens, or typing may reach the old one.
    await ui.waitFor({ css: QUICK_INPUT }, 'hidden');
    void vscode.commands.executeCommand(Commands.filterLanguage);
    await ui.waitFor({ css: QUICK_INPUT });
    await ui.type('Cobol');
    await ui.waitFor({ css: `${QUICK_INPUT} .monaco-list-row`, hasText: 'filter by this name' });
    await ui.press('Enter');
    await waitFor(() => (browser.settings().language === 'Cobol' ? true : undefined), 'the typed filter');

    await ui.waitFor({ css: QUICK_INPUT }, 'hidden');
    void vscode.commands.executeCommand(Commands.filterLanguage);
    // By the keyboard, as with the others: a click could land on the row of the pick that just closed
    // (one full run in four timed out that way).
    await ui.waitFor({ css: `${QUICK_INPUT} .monaco-list-row`, hasText: 'All Languages' });
    await ui.type('All Languages');
    await ui.waitFor({ css: `${QUICK_INPUT} .monaco-list-row.focused`, hasText: 'All Languages' });
    await ui.press('Enter');
    await waitFor(() => (browser.settings().language === '' ? true : undefined), 'the filter to be cleared');
    assert.strictEqual(vscode.workspace.getConfiguration('refactorBrowser').get('language'), '');
    await waitFor(async () => {
      const shown = await ui.query({ css: '.part.sidebar .pane-header .description' });
      return shown.every((d) => d.text.trim() === '') ? true : undefined;
    }, 'the view description to go');
    await expandRoot(ui, 'Recent Codes');
    const first = sample.recentCodes.all.slice(0, 5);
    const unfiltered = await waitFor(async () => {
      const rows = await ui.query({ css: `${ROWS}[aria-level="2"]` }, [], first.length);
      return rows[0].text.startsWith(first[0].title) ? rows : undefined;
    }, 'the unfiltered rows on screen');
    first.forEach((code, i) => assert.ok(unfiltered[i].text.startsWith(code.title) && unfiltered[i].text.includes(`${code.language} · `), unfiltered[i].text));
    assert.ok(new Set(first.map((c) => c.language)).size > 1, 'the first recent codes are in several languages');
  });

  it('adds a tag through Add Tag…, and removes it with Remove Tag in the tag row\'s context menu', async () => {
    const browser = await api();
    const tag = [...sample.tags.values()][0].name;
    await vscode.commands.executeCommand('workbench.view.extension.refactorBrowser');
    await ui.click({ css: '.part.sidebar .action-label[aria-label^="Add Tag"]' });
    await ui.waitFor({ css: QUICK_INPUT, hasText: 'A tag of the service' });
    await ui.type(tag);
    await ui.press('Enter');
    await waitFor(() => (browser.settings().tags.length > 0 ? true : undefined), 'the tag to be saved');
    assert.deepStrictEqual(vscode.workspace.getConfiguration('refactorBrowser').get('tags'), [tag]);
    await expandRoot(ui, 'Tags');
    await ui.waitFor({ css: `${ROWS}[aria-level="2"]`, hasText: tag });

    await ui.contextMenu({ css: `${ROWS}[aria-level="2"]`, hasText: tag }, 'Remove Tag');
    await waitFor(() => (browser.settings().tags.length === 0 ? true : undefined), 'the tag to be removed');
    assert.deepStrictEqual(vscode.workspace.getConfiguration('refactorBrowser').get('tags'), []);
    await ui.waitFor({ css: `${ROWS}[aria-level="2"]`, hasText: 'No saved tags' });
    const shown = await ui.query({ css: `${ROWS}[aria-level="2"]` });
    assert.ok(shown.every((r) => !r.text.includes(tag)), JSON.stringify(shown.map((r) => r.text)));
  });

  it('shows progress in the view while a list loads, and says in its message what loads', async () => {
    const served = await useFrontedService({});
    try {
      await served.front.hold();
      await collapseCatalog();
      await vscode.commands.executeCommand('workbench.view.extension.refactorBrowser');
      await ui.click({ css: `${ROWS}[aria-level="1"]`, hasText: 'Recent Refactorings' });
      await waitFor(async () => {
        const bars = await ui.query({ css: '.part.sidebar .monaco-progress-container' }, ['class']);
        return bars.some((b) => /\bactive\b/.test(b.attributes.class ?? '')) ? true : undefined;
      }, 'a progress bar in the view', 10_000).catch(async (err: Error) => {
        const bars = await ui.query({ css: '.part.sidebar .monaco-progress-container' }, ['class', 'aria-hidden']);
        throw new Error(`${err.message}: ${JSON.stringify(bars.map((b) => b.attributes))}`);
      });
      // Text on the page, where a screen reader finds it, not only an animation.
      await ui.waitFor({ css: '.part.sidebar .tree-explorer-viewlet-tree-view > .message', hasText: 'Loading Recent Refactorings…' });
      await served.front.release();
      await ui.waitFor({ css: `${ROWS}[aria-level="2"]`, hasText: sample.recentRefactors.all[0].title });
      await waitFor(async () => {
        const bars = await ui.query({ css: '.part.sidebar .monaco-progress-container' }, ['class']);
        return bars.every((b) => !/\bactive\b/.test(b.attributes.class ?? '')) ? true : undefined;
      }, 'the progress bar to go', 10_000);
    } finally {
      await resetState();
      await served.close();
    }
  });

  it('shows the welcome content with Retry when the service cannot be reached', async () => {
    await useSettings({ baseUrl: await refusedUrl(), requestTimeout: 5 });
    await expandRoot(ui, 'Recent Codes').catch(() => undefined);
    await waitFor(() => ((async () => (await api()).view().unreachable ? true : undefined))(), 'the unreachable state');
    await waitFor(async () => {
      const shown = await ui.query({ css: '.part.sidebar .pane-body' });
      return shown.some((p) => p.text.includes('cannot be reached')) ? true : undefined;
    }, 'the welcome content', 10_000).catch(async (err: Error) => {
      await ui.screenshot('catalog-welcome-debug');
      const shown = await ui.query({ css: '.part.sidebar .pane-body' });
      throw new Error(`${err.message}: ${JSON.stringify(shown.map((p) => p.text.slice(0, 300)))}`);
    });
    const buttons = await ui.query({ css: '.part.sidebar .welcome-view-content a, .part.sidebar .welcome-view-content button' }, ['class', 'role']);
    assert.ok(buttons.some((b) => b.text.includes('Retry')), JSON.stringify(buttons));
    await ui.click({ css: '.part.sidebar .welcome-view-content a, .part.sidebar .welcome-view-content button', hasText: 'Retry' });
    await useSettings({ baseUrl: undefined, requestTimeout: undefined });
    await ui.waitFor({ css: `${ROWS}[aria-level="1"]`, hasText: 'Recent Codes' });
  });
});
