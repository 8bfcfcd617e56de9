// The compares: a refactoring against its original, any two rows, an item against the active
// editor (its selection or whole document), and every refactoring of a code in VS Code's multi-diff
// editor. Every side is a read-only virtual document (documents.ts), except the editor's own document.
import * as vscode from 'vscode';
import { showInformationMessage } from '../common/notifications';
import type { Code, Refactor } from '../../core/model';
import { sortRefactorings, type RefactoringOrder } from '../../core/ratings';
import type { CodeDocuments } from './documents';
import type { EditorTracker } from './editorTracker';
import { languageOf, type Item } from '../common/items';
import { authorOf, ratingPhrase, titleOf } from '../common/names';
import { diffTitle } from '../common/labels';


async function diff(docs: CodeDocuments, left: Item, right: Item, title: string): Promise<void> {
  // Opened first so each side has its language before the diff editor shows it.
  const [l, r] = await Promise.all([docs.openItem(left), docs.openItem(right)]);
  await vscode.commands.executeCommand('vscode.diff', l.uri, r.uri, title);
}

/** The refactoring's code (left) against the refactoring (right). */
export async function compareWithOriginal(docs: CodeDocuments, refactor: Item & { kind: 'refactor' }, original?: Code): Promise<void> {
  const code = original ?? (await docs.fetchCode(refactor.refactor.codeId));
  const left: Item = { kind: 'code', code };
  await diff(docs, left, refactor, diffTitle(titleOf(left), titleOf(refactor)));
}

/** Two items, the first on the left. */
export async function compareTwo(docs: CodeDocuments, items: readonly Item[]): Promise<boolean> {
  if (items.length !== 2) {
    void showInformationMessage(
      vscode.l10n.t('Compare Selected needs exactly two codes or refactorings selected ({0} selected).', items.length));
    return false;
  }
  await diff(docs, items[0], items[1], diffTitle(titleOf(items[0]), titleOf(items[1])));
  return true;
}

/**
 * The item (left) against the active editor (right): its selection as a read-only snapshot, or,
 * with nothing selected, the editor's document itself (so it can be edited in the diff).
 */
export async function compareWithEditor(docs: CodeDocuments, item: Item, editors: EditorTracker): Promise<boolean> {
  const editor = await editors.target();
  if (!editor) {
    void showInformationMessage(vscode.l10n.t('Compare with Active Editor needs an open text editor.'));
    return false;
  }
  const left = await docs.openItem(item);
  const selection = editor.selection;
  const name = editor.document.uri.path.split('/').pop() || editor.document.uri.toString();
  let right: vscode.Uri;
  let rightTitle: string;
  if (selection.isEmpty) {
    right = editor.document.uri;
    rightTitle = name;
  } else {
    const snapshot = docs.snapshotUri(editor.document.getText(selection), languageOf(item));
    const doc = await vscode.workspace.openTextDocument(snapshot);
    if (doc.languageId !== editor.document.languageId) await vscode.languages.setTextDocumentLanguage(doc, editor.document.languageId);
    right = snapshot;
    rightTitle = vscode.l10n.t('{0} (selection, lines {1}–{2})', name, selection.start.line + 1, selection.end.line + 1);
  }
  await vscode.commands.executeCommand('vscode.diff', left.uri, right, diffTitle(titleOf(item), rightTitle));
  return true;
}

/** The title of the multi-diff editor for a code. */
export function allRefactoringsTitle(code: Code): string {
  return vscode.l10n.t('{0}: all refactorings', titleOf({ kind: 'code', code }));
}

/** How Compare All Refactorings names a refactoring's entry: `Refactoring #81 by bobby, rated 4.5 (2 votes)`. */
export function compareEntryName(refactor: Refactor): string {
  return vscode.l10n.t('{0} by {1}, {2}', titleOf(refactor), authorOf(refactor), ratingPhrase(refactor));
}

/**
 * The original (left) against each of its refactorings (right), in one multi-diff editor, in the code
 * view's order. The editor labels an entry by its documents' file name and marks it renamed when the
 * two sides' names differ: both sides are named after the refactoring, and their queries tell them apart.
 */
export async function compareAllRefactorings(docs: CodeDocuments, codeId: number, order: RefactoringOrder): Promise<boolean> {
  const code = await docs.fetchCode(codeId);
  const refactors = sortRefactorings(code.refactors ?? [], order);
  if (refactors.length === 0) {
    void showInformationMessage(vscode.l10n.t('{0} has no refactorings yet.', titleOf({ kind: 'code', code })));
    return false;
  }
  const rows: Array<[vscode.Uri, vscode.Uri, vscode.Uri]> = [];
  for (const refactor of refactors) {
    const name = compareEntryName(refactor);
    const left = await docs.open(docs.namedItemUri({ kind: 'code', code }, name), code.language);
    const right = await docs.open(docs.namedItemUri({ kind: 'refactor', refactor }, name), refactor.language);
    rows.push([right.uri, left.uri, right.uri]);
  }
  await vscode.commands.executeCommand('vscode.changes', allRefactoringsTitle(code), rows);
  return true;
}
