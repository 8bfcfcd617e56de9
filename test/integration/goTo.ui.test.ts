// Go to Code… and Open Code… as a person types into them: a loaded code by its title, a typed id,
// and a pasted page URL with a refactoring's anchor.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { PAGE_SIZE } from '../../src/core/model';
import { codeRefOf } from '../../src/client/urls';
import { loadSampleDataset } from '../../src/server/catalog/sampleDataset';
import { closeAllEditors, codeViewTabs, waitForCodeViewTab } from './codeViewHelpers';
import { api, resetState, useSettings, waitFor } from './helpers';
import sampleJson from '../../src/server/catalog/sample-catalog.json';
import { Commands } from '../../src/extension/common/commandIds';
import { uiOrSkip, type Ui } from './ui';
import { startService } from './services';

const sample = loadSampleDataset();
const QUICK_INPUT = '.quick-input-widget';

describe('Go to Code and Open Code (UI)', function () {
  this.timeout(90_000);
  let ui: Ui;

  before(async function () {
    ui = uiOrSkip(this);
    await resetState();
  });
  afterEach(closeAllEditors);
  after(resetState);

  it('Go to Code finds a loaded code by its title', async () => {
    const browser = await api();
    await browser.treeRows(['Recent Codes']); // what the Catalog has loaded is what the pick offers
    const code = sample.recentCodes.all[1];
    void vscode.commands.executeCommand(Commands.goToCode);
    await ui.waitFor({ css: QUICK_INPUT });
    await ui.type(code.title);
    await ui.waitFor({ css: `${QUICK_INPUT} .monaco-list-row`, hasText: code.title });
    await ui.press('Enter');
    await waitForCodeViewTab(code.title);
  });

  it('Go to Code opens a typed code id', async () => {
    const code = sample.codes.get(7)!;
    void vscode.commands.executeCommand(Commands.goToCode);
    await ui.waitFor({ css: QUICK_INPUT });
    await ui.type('7');
    await ui.waitFor({ css: `${QUICK_INPUT} .monaco-list-row`, hasText: 'Open code 7' });
    await ui.press('Enter');
    await waitForCodeViewTab(code.title);
  });

  it('Go to Code finds a loaded refactoring by its author, and opens its code', async () => {
    const browser = await api();
    await browser.treeRows(['Recent Refactorings']);
    // A refactoring by a registered author whose name no code title holds, so the match is on the description.
    const firstPage = sample.recentRefactors.all.slice(0, PAGE_SIZE);
    const refactor = firstPage.find((r) => r.user && r.title !== ''
      && ![...sample.codes.values()].some((c) => c.title.includes(r.user!.name) || c.refactors.some((o) => o.title.includes(r.user!.name))))!;
    assert.ok(refactor, 'a refactoring whose author no title names');
    const code = sample.codes.get(refactor.codeId)!;
    void vscode.commands.executeCommand(Commands.goToCode);
    await ui.waitFor({ css: QUICK_INPUT });
    await ui.type(refactor.user!.name);
    // Only the description (language · author) holds the name: the row shows because it matched there.
    await ui.waitFor({ css: `${QUICK_INPUT} .monaco-list-row`, hasText: refactor.title });
    // Down to its row with the keyboard, as a person would, then Enter.
    const seen: string[] = [];
    const mine = new RegExp(`refactoring #${refactor.id}\\b`);
    for (let i = 0; i < 20; i++) {
      const focused = await ui.query({ css: `${QUICK_INPUT} .monaco-list-row.focused` }, [], 1);
      seen.push(focused[0].text);
      if (mine.test(focused[0].text)) break;
      await ui.press('ArrowDown');
    }
    assert.match(seen.at(-1)!, mine, `rows passed: ${seen.map((t) => JSON.stringify(t)).join(' | ')}`);
    await ui.press('Enter');
    await waitForCodeViewTab(code.title);
  });

  it('Go to Code opens a typed code_ref and a pasted page URL', async () => {
    const code = sample.codes.get(9)!;
    const base = await (await api()).serviceUrl();
    const page = new URL(`codes/${codeRefOf(code)}`, base.endsWith('/') ? base : `${base}/`).href;
    for (const typed of [codeRefOf(code), page]) {
      void vscode.commands.executeCommand(Commands.goToCode);
      await ui.waitFor({ css: QUICK_INPUT });
      await ui.type(typed);
      await ui.waitFor({ css: `${QUICK_INPUT} .monaco-list-row`, hasText: `Open code ${codeRefOf(code)}` });
      await ui.press('Enter');
      await waitForCodeViewTab(code.title);
      await closeAllEditors();
    }
  });

  it('Open Code… takes a pasted page URL', async () => {
    const code = sample.codes.get(5)!;
    const base = await (await api()).serviceUrl();
    const page = `${new URL(`codes/${codeRefOf(code)}`, base.endsWith('/') ? base : `${base}/`).href}#refactor-${code.refactors[1].id}`;
    void vscode.commands.executeCommand(Commands.openCode);
    await ui.waitFor({ css: QUICK_INPUT });
    await ui.type(page);
    await ui.press('Enter');
    await waitForCodeViewTab(code.title);
    await waitFor(() => (codeViewTabs().length === 1 ? true : undefined), 'exactly one code view');
  });

  it('Go to Code shows a title like `$(alert) Click me` as text, not as an icon', async () => {
    const base = sampleJson.codes[0];
    const service = await startService({
      users: sampleJson.users,
      codes: [{ ...base, id: 301, title: '$(alert) Click me $(loading~spin)', permalink: 'click-me', tags: [] }],
      refactors: [],
    });
    try {
      await useSettings({ baseUrl: service.url });
      await (await api()).treeRows(['Recent Codes']);
      void vscode.commands.executeCommand(Commands.goToCode);
      await ui.waitFor({ css: QUICK_INPUT });
      const row = `${QUICK_INPUT} .monaco-list-row`;
      await ui.waitFor({ css: row, hasText: '$(alert) Click me $(loading~spin)' });
      assert.deepStrictEqual(await ui.query({ css: `${row} .codicon-alert, ${row} .codicon-loading` }), [], 'no icon drawn from the title');
      await ui.type('Click me');
      await ui.waitFor({ css: row, hasText: '$(alert) Click me' });
      await ui.press('Enter');
      await waitForCodeViewTab('$(alert) Click me $(loading~spin)');
    } finally {
      await resetState();
      await service.close();
    }
  });

  it('answers a reference that names no code with one line and Show Log', async () => {
    await vscode.commands.executeCommand(Commands.openCode, 'codes/../secret');
    await ui.waitFor({ css: '.notifications-toasts .notification-toast', hasText: 'Could not open the code: not a code id, code_ref or code page URL' });
    await ui.waitFor({ css: '.notifications-toasts .notification-toast .monaco-button', hasText: 'Show Log' });
    await vscode.commands.executeCommand('notifications.clearAll');
  });
});
