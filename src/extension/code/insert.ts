// Insert at Cursor: a code or refactoring into the last active text editor, at every cursor,
// replacing selections, in one edit (one undo step). Plain text through editor.edit, never a
// snippet: `$1` and `${x}` stay literal. With no text editor, an untitled document in the code's language.
import * as vscode from 'vscode';
import type { EditorTracker } from './editorTracker';
import { indentationAt, prepareInsertion } from './insertText';
import { toVsCodeLanguageId } from '../../core/languages';

export interface InsertResult {
  editor: vscode.TextEditor;
  /** False when the text went into a new untitled document. */
  atCursor: boolean;
}

export async function insertAtCursor(text: string, serviceLanguage: string, editors: EditorTracker): Promise<InsertResult> {
  const editor = await editors.target();
  if (!editor) return { editor: await openUntitled(text, serviceLanguage), atCursor: false };

  const doc = editor.document;
  const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  // Read every selection before the edit: each replacement is computed against the same document.
  const edits = editor.selections.map((selection) => {
    const indentation = indentationAt(doc.lineAt(selection.start.line).text, selection.start.character);
    const lineRest = doc.lineAt(selection.end.line).text.slice(selection.end.character);
    return { range: new vscode.Range(selection.start, selection.end), text: prepareInsertion(text, { indentation, eol, lineRest }) };
  });
  const applied = await editor.edit((builder) => {
    for (const e of edits) builder.replace(e.range, e.text);
  }, { undoStopBefore: true, undoStopAfter: true });
  if (!applied) {
    throw new Error(doc.uri.scheme === 'untitled'
      ? vscode.l10n.t('the editor did not accept the edit (is it read-only?)')
      : vscode.l10n.t('{0} did not accept the edit (is it read-only?)', doc.fileName));
  }
  // Where the person looks next: back in the editor, with the inserted code.
  await vscode.window.showTextDocument(doc, { viewColumn: editor.viewColumn, preserveFocus: false });
  return { editor, atCursor: true };
}

async function openUntitled(text: string, serviceLanguage: string): Promise<vscode.TextEditor> {
  const language = toVsCodeLanguageId(serviceLanguage, new Set(await vscode.languages.getLanguages()));
  const doc = await vscode.workspace.openTextDocument({ language, content: text });
  return vscode.window.showTextDocument(doc);
}
