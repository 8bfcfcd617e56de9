// Remembers the last text editor a person worked in. When a webview has focus (the code view, the
// walkthrough's page), `window.activeTextEditor` is undefined, yet Insert at Cursor must go where the
// cursor was, and Share Selection and Find Refactorings for This Code must read what was selected
// there. The one tracker, made in src/extension.ts, which hands the other features `selecting`.
import * as vscode from 'vscode';
import { Disposable } from '../common/dispose';
import { DOCUMENT_SCHEME } from './documentPaths';
import { tabsShowing } from '../common/tabs';

// Documents nobody types into: our read-only virtual documents and the Output panel.
const NOT_TARGETS = new Set([DOCUMENT_SCHEME, 'output']);

export class EditorTracker extends Disposable {
  private last: vscode.TextEditor | undefined;

  constructor() {
    super();
    this.remember(vscode.window.activeTextEditor);
    this._register(vscode.window.onDidChangeActiveTextEditor((e) => this.remember(e)));
  }

  private remember(editor: vscode.TextEditor | undefined): void {
    if (editor && !NOT_TARGETS.has(editor.document.uri.scheme)) this.last = editor;
  }

  /**
   * The editor to work in, visible again if its tab was covered meanwhile (e.g. by the code view
   * opened in the same group), with its selections as they were; undefined when its document is
   * closed, no tab shows it any more, or there never was one. (VS Code may keep a document open for
   * a while after its last editor closed: a person who closed it does not expect it back.)
   */
  async target(): Promise<vscode.TextEditor | undefined> {
    const active = vscode.window.activeTextEditor;
    if (active && !NOT_TARGETS.has(active.document.uri.scheme)) return active;
    const last = this.last;
    if (!last || last.document.isClosed || tabsShowing(last.document.uri).length === 0) return undefined;
    if (vscode.window.visibleTextEditors.includes(last)) return last;
    const selections = last.selections;
    const shown = await vscode.window.showTextDocument(last.document, { viewColumn: last.viewColumn, preserveFocus: false });
    shown.selections = selections;
    this.last = shown;
    return shown;
  }

  /**
   * The editor whose selection a command reads: the active text editor, whatever it shows, as
   * before; with none (a webview has focus), the one target() gives, with its selections.
   */
  async selecting(): Promise<vscode.TextEditor | undefined> {
    return vscode.window.activeTextEditor ?? this.target();
  }
}
