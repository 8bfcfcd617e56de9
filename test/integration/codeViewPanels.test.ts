// The code view's panels inside VS Code against the built-in sample service: every way of opening a
// code (row, refactoring row, id, code_ref, page URL) leads to one panel per code, titled with the
// code's title once loaded. What the panel shows is read in codeView.ui.test.ts, which runs before
// this file (name order) so that its webviews do not follow this file's quick opening and closing
// of panels (see settleWebviews in codeViewHelpers.ts).
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { codeRefOf } from '../../src/client/urls';
import { Commands } from '../../src/extension/common/commandIds';
import { closeAllEditors, codeRow, codeViewTabs, fetchCode, refactorRow, waitForCodeViewTab } from './codeViewHelpers';
import { api, resetState, waitFor } from './helpers';

describe('Code view panels', function () {
  this.timeout(60_000);
  before(resetState);
  afterEach(closeAllEditors);
  after(resetState);

  it('opens one panel per code, whichever way the code is named', async () => {
    const code = await fetchCode(1);
    const base = await (await api()).serviceUrl();
    const page = new URL(`codes/${codeRefOf(code)}`, base.endsWith('/') ? base : `${base}/`).href;
    await vscode.commands.executeCommand(Commands.openCode, codeRow(code));
    await waitForCodeViewTab(code.title);
    for (const arg of [code.id, codeRefOf(code), String(code.id), page, `${page}.xml`, refactorRow(code.refactors![0])]) {
      await vscode.commands.executeCommand(Commands.openCode, arg);
      assert.strictEqual(codeViewTabs().length, 1, `after opening ${JSON.stringify(arg)}`);
    }
    const other = await fetchCode(3);
    await vscode.commands.executeCommand(Commands.openCode, codeRow(other));
    await waitForCodeViewTab(other.title);
    assert.deepStrictEqual(codeViewTabs().map((t) => t.label).sort(), [code.title, other.title].sort());
  });

  it('opens the code of a refactoring row', async () => {
    const code = await fetchCode(5);
    await vscode.commands.executeCommand(Commands.openCode, refactorRow(code.refactors![2]));
    await waitForCodeViewTab(code.title);
  });

  it('keeps a panel for a code that cannot be loaded, named by its id', async () => {
    await vscode.commands.executeCommand(Commands.openCode, 999_999);
    const tab = await waitFor(() => codeViewTabs()[0], 'a code view tab');
    assert.strictEqual(tab.label, 'Code #999999');
  });

  it('closes with the editor group like any editor', async () => {
    await vscode.commands.executeCommand(Commands.openCode, 4);
    await waitFor(() => codeViewTabs()[0], 'a code view tab');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => (codeViewTabs().length === 0 ? true : undefined), 'no code view tab');
  });
});
