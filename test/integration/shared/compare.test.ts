// The compares inside VS Code against the built-in sample service: which document is on each side,
// what each side holds, and the titles; Compare Selected only with exactly two rows; the active
// editor's selection or whole document; every refactoring in the multi-diff editor, in the code view's order,
// each entry named as a person reads it and not marked renamed.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { Code } from '../../../src/core/model';
import { authorOf, titleOf } from '../../../src/core/names';
import { ratingPhrase } from '../../../src/core/ratings';
import { Commands } from '../../../src/extension/common/commandIds';
import {
  closeAllEditors, codeRow, documentText, fetchCode, refactorRow, untitledEditor, waitForDiff,
} from '../codeViewHelpers';
import { resetState, useSettings, waitFor } from '../helpers';

describe('Compare', function () {
  this.timeout(60_000);
  let code: Code;
  let other: Code;

  before(async () => {
    await resetState();
    [code, other] = await Promise.all([fetchCode(1), fetchCode(4)]);
    assert.ok((code.refactors?.length ?? 0) >= 2, 'sample code 1 has refactorings');
  });
  afterEach(closeAllEditors);
  after(resetState);

  it('Compare with Original: the code on the left, the refactoring on the right, titled with both', async () => {
    const refactor = code.refactors![1];
    await vscode.commands.executeCommand(Commands.compareWithOriginal, refactorRow(refactor));
    const diff = await waitForDiff(`${code.title} ↔ ${refactor.title}`);
    assert.strictEqual(diff.original.scheme, 'refactor-browser');
    assert.strictEqual(diff.original.path, `/codes/${code.id}/code.rb`);
    assert.strictEqual(diff.modified.path, `/codes/${code.id}/refactors/${refactor.id}.rb`);
    assert.strictEqual(await documentText(diff.original), code.code);
    assert.strictEqual(await documentText(diff.modified), refactor.code);
    const left = await vscode.workspace.openTextDocument(diff.original);
    assert.strictEqual(left.languageId, 'ruby');
  });

  it('Compare Selected: two rows, the first on the left; any other number only explains', async () => {
    const refactor = code.refactors![0];
    await vscode.commands.executeCommand(Commands.compareSelected, codeRow(other), [codeRow(other), refactorRow(refactor)]);
    const diff = await waitForDiff(`${other.title} ↔ ${refactor.title}`);
    assert.strictEqual(await documentText(diff.original), other.code);
    assert.strictEqual(await documentText(diff.modified), refactor.code);

    await closeAllEditors();
    await vscode.commands.executeCommand(Commands.compareSelected, codeRow(other), [codeRow(other)]);
    await vscode.commands.executeCommand(Commands.compareSelected, codeRow(other),
      [codeRow(other), codeRow(code), refactorRow(refactor)]);
    assert.strictEqual(vscode.window.tabGroups.activeTabGroup.activeTab, undefined, 'no diff should open');
  });

  it("Compare with Active Editor: against the editor's selection", async () => {
    const editor = await untitledEditor('first line\ndef total(items)\n  items.sum(&:price)\nend\nlast line\n', 'ruby');
    editor.selection = new vscode.Selection(1, 0, 3, 3);
    await vscode.commands.executeCommand(Commands.compareWithEditor, codeRow(code));
    const name = editor.document.uri.path.split('/').pop();
    const diff = await waitForDiff(`${code.title} ↔ ${name} (selection, lines 2–4)`);
    assert.strictEqual(await documentText(diff.original), code.code);
    assert.strictEqual(diff.modified.scheme, 'refactor-browser');
    assert.strictEqual(await documentText(diff.modified), 'def total(items)\n  items.sum(&:price)\nend');
  });

  it('Compare with Active Editor: against the whole document when nothing is selected', async () => {
    const editor = await untitledEditor('puts 1\n', 'ruby');
    const refactor = code.refactors![0];
    await vscode.commands.executeCommand(Commands.compareWithEditor, refactorRow(refactor));
    const diff = await waitFor(() => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    }, 'a diff');
    assert.strictEqual(await documentText(diff.original), refactor.code);
    assert.strictEqual(diff.modified.toString(), editor.document.uri.toString());
  });

  /** The pairs of the multi-diff editor Compare All Refactorings opens for `code`. */
  async function compareAll(): Promise<vscode.TabInputTextDiff[]> {
    await vscode.commands.executeCommand(Commands.compareAllRefactorings, codeRow(code));
    const tab = await waitFor(() => {
      const active = vscode.window.tabGroups.activeTabGroup.activeTab;
      // VS Code appends the number of pairs to the title: "<title> (9 files)".
      return active?.label === `${code.title}: all refactorings (${code.refactors!.length} files)` ? active : undefined;
    }, 'the multi-diff editor');
    // VS Code 1.96's API has no class for this input yet; its instances carry `textDiffs`.
    const pairs = (tab.input as { textDiffs?: vscode.TabInputTextDiff[] }).textDiffs;
    assert.ok(Array.isArray(pairs), `a multi-diff input, got ${JSON.stringify(tab.input)}`);
    assert.strictEqual(pairs.length, code.refactors!.length);
    for (const pair of pairs) assert.strictEqual(await documentText(pair.original), code.code);
    return pairs;
  }

  /** Which refactorings of `code` the pairs show on their right, top to bottom (each refactoring's text is its own). */
  async function refactorIds(pairs: vscode.TabInputTextDiff[]): Promise<Array<number | undefined>> {
    const texts = await Promise.all(pairs.map((p) => documentText(p.modified)));
    return texts.map((text) => code.refactors!.find((r) => r.code === text)?.id);
  }

  it('Compare All Refactorings: the multi-diff editor pairs the original with each refactoring, best rated first', async () => {
    // Sample code 1: #34 and #1 rated 5 by 31 and 5 votes, #28 5 by 4; #4, #10 and #15 rated 4 by 8,
    // 5 and 2; #24 3, #5 2; #22 not rated.
    assert.deepStrictEqual(await refactorIds(await compareAll()), [34, 1, 28, 4, 10, 15, 24, 5, 22]);
  });

  it('Compare All Refactorings follows refactorBrowser.refactoringOrder: newest first', async () => {
    await useSettings({ refactoringOrder: 'newest' });
    try {
      assert.deepStrictEqual(await refactorIds(await compareAll()), [34, 28, 24, 22, 15, 10, 5, 4, 1]);
    } finally {
      await useSettings({ refactoringOrder: undefined });
    }
  });

  it('Compare All Refactorings names each entry by its refactoring, author and rating, the same on both sides (no rename)', async () => {
    const pairs = await compareAll();
    const ids = await refactorIds(pairs);
    for (const [i, pair] of pairs.entries()) {
      const refactor = code.refactors!.find((r) => r.id === ids[i])!;
      // The multi-diff editor labels an entry by the file name of its right side, and marks it
      // renamed (an "R" beside the struck-through left name) when the two sides' paths differ.
      assert.strictEqual(pair.original.path, pair.modified.path, 'the same name on both sides');
      assert.strictEqual(pair.modified.path, `/${titleOf(refactor)} by ${authorOf(refactor)}, ${ratingPhrase(refactor)}`);
      assert.notStrictEqual(pair.original.toString(), pair.modified.toString(), 'two documents all the same');
    }
    assert.ok(pairs.some((p) => /^\/.+ by .+, rated \d(\.\d)? \(\d+ votes?\)$/.test(p.modified.path)), JSON.stringify(pairs.map((p) => p.modified.path)));
  });
});
