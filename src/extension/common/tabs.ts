// Which tabs show a text document: a text editor's, or the changed (right) side of a diff. Drafts
// close theirs by it, and the editor used last (code/editorTracker.ts) counts as open only while one
// shows it.
import * as vscode from 'vscode';

/** The document a tab shows for editing: a text editor's, or a diff's changed side; else undefined. */
export function textUriOf(tab: vscode.Tab | undefined): vscode.Uri | undefined {
  const input = tab?.input;
  return input instanceof vscode.TabInputTextDiff ? input.modified : input instanceof vscode.TabInputText ? input.uri : undefined;
}

/** Every tab, in any group, that shows `uri` for editing. */
export function tabsShowing(uri: vscode.Uri): vscode.Tab[] {
  const key = uri.toString();
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((tab) => textUriOf(tab)?.toString() === key);
}
