// Insert at Cursor and Compare with Original from the Catalog rows' context menus, as a person does
// it, with the editors read back from the screen. Saves media/screenshots/diff.png. Compare All
// Refactorings as it shows on screen: each entry named by its refactoring, none marked renamed.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../src/server/catalog/sampleDataset';
import { authorOf, titleOf } from '../../src/core/names';
import { ratingPhrase, sortRefactorings } from '../../src/core/ratings';
import { Commands } from '../../src/extension/common/commandIds';
import { closeAllEditors, codeRow, collapseCatalog, fetchCode, showRoot, TREE_ROWS, untitledEditor, waitForDiff } from './codeViewHelpers';
import { resetState, waitFor } from './helpers';
import { uiOrSkip, type Ui } from './ui';

const sample = loadSampleDataset();

describe('Context menus (UI)', function () {
  this.timeout(90_000);
  let ui: Ui;

  before(async function () {
    ui = uiOrSkip(this);
    await resetState();
  });
  afterEach(closeAllEditors);
  after(async () => {
    await collapseCatalog();
    await resetState();
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  it('Insert at Cursor on a code row inserts it at the cursor, indented', async () => {
    const code = await fetchCode(sample.recentCodes.all[0].id);
    const editor = await untitledEditor('begin\n  \nend', 'plaintext');
    editor.selection = new vscode.Selection(1, 2, 1, 2);
    await showRoot(ui, 'Recent Codes');
    await ui.contextMenu({ css: `${TREE_ROWS}[aria-level="2"]`, hasText: code.title }, 'Insert at Cursor');
    const lines = code.code.replace(/\n$/, '').split('\n');
    const expected = `begin\n  ${lines.map((l, i) => (i === 0 || l.trim() === '' ? l : `  ${l}`)).join('\n')}\nend`;
    await waitFor(() => (editor.document.getText() === expected ? true : undefined), 'the inserted code', 10_000)
      .catch((err: Error) => assert.fail(`${err.message}: ${JSON.stringify(editor.document.getText())}`));
    // On screen too, once the editor has rendered the edit.
    await waitFor(async () => ((await ui.editorText()).split('\n')[1] === `  ${lines[0]}` ? true : undefined), 'the inserted line on screen')
      .catch(async (err: Error) => assert.fail(`${err.message}: ${JSON.stringify(await ui.editorText())}`));
  });

  it('Compare Selected on two rows selected with Ctrl+click opens the first beside the second', async () => {
    const [first, second] = [sample.recentCodes.all[1], sample.recentCodes.all[2]];
    await showRoot(ui, 'Recent Codes');
    await ui.click({ css: `${TREE_ROWS}[aria-level="2"]`, hasText: first.title });
    await ui.click({ css: `${TREE_ROWS}[aria-level="2"]`, hasText: second.title }, { modifiers: ['ControlOrMeta'] });
    await closeAllEditors(); // the clicks opened code views; the diff is what this test reads
    await ui.contextMenu({ css: `${TREE_ROWS}[aria-level="2"]`, hasText: second.title }, 'Compare Selected');
    const diff = await waitForDiff(`${first.title} ↔ ${second.title}`);
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.original)).getText(), first.code);
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.modified)).getText(), second.code);
  });

  it('Compare with Original on a refactoring row opens the code beside the refactoring', async () => {
    const latest = sample.recentRefactors.all[0];
    const code = await fetchCode(latest.codeId);
    const refactor = code.refactors!.find((r) => r.id === latest.id)!;
    await showRoot(ui, 'Recent Refactorings');
    await ui.contextMenu({ css: `${TREE_ROWS}[aria-level="2"]`, hasText: refactor.title }, 'Compare with Original');
    const diff = await waitForDiff(`${code.title} ↔ ${refactor.title}`);
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.original)).getText(), code.code);
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.modified)).getText(), refactor.code);
    // On screen: the diff's two editors, the original first, once they have rendered their lines.
    const firstLine = (s: string): string => s.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
    let shown: string[] = [];
    await waitFor(async () => {
      const editors = await ui.query({ css: '.editor-group-container.active .monaco-diff-editor .monaco-editor .view-lines' }, [], 2);
      shown = editors.map((e) => e.text.replace(/\u00a0/g, ' '));
      return shown.length === 2 && shown[0].includes(firstLine(code.code)) && shown[1].includes(firstLine(refactor.code)) ? true : undefined;
    }, 'the original and the refactoring on screen').catch((err: Error) => assert.fail(`${err.message}: ${JSON.stringify(shown)}`));
    await vscode.commands.executeCommand('notifications.clearAll');
    await ui.screenshot('diff');
  });

  it('Compare All Refactorings heads each entry with its refactoring, author and rating, and marks none renamed', async () => {
    const code = await fetchCode(sample.recentCodes.all[0].id);
    assert.ok((code.refactors?.length ?? 0) >= 2, 'the code has refactorings');
    await vscode.commands.executeCommand(Commands.compareAllRefactorings, codeRow(code));
    const [best] = sortRefactorings(code.refactors!, 'bestRated');
    const name = `${titleOf(best)} by ${authorOf(best)}, ${ratingPhrase(best)}`;
    // The multi-diff editor's entry header: the right side's file name, then an "R" and the left
    // side's name struck through when the two names differ.
    let headers: string[] = [];
    await waitFor(async () => {
      headers = (await ui.query({ css: '.multiDiffEntry .file-path' })).map((h) => h.text.replace(/\u00a0/g, ' ').trim());
      return headers.some((h) => h.startsWith(name)) ? true : undefined;
    }, `an entry headed "${name}"`).catch((err: Error) => assert.fail(`${err.message}: ${JSON.stringify(headers)}`));
    const marks = await ui.query({ css: '.multiDiffEntry .status' });
    assert.ok(marks.length > 0 && marks.every((m) => m.text.trim() === ''), JSON.stringify(marks));
    const struck = await ui.query({ css: '.multiDiffEntry .title.original' });
    assert.ok(struck.every((o) => o.text.trim() === ''), JSON.stringify(struck));
  });
});
