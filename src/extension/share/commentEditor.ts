// A comment of several lines, written in a scratch Markdown editor (VS Code has no multi-line input
// box) and taken with Use as Comment: the check mark in that editor's title, Ctrl+Enter (Cmd+Enter) in
// it, or the palette. The notification saying what to do is a progress one, which stays until the
// comment is taken or given up and then goes: a message's own button would hide with its toast after
// 15 seconds, or at the first Escape in the editor, while the comment is still being written. Cancel
// there, or closing the editor, gives the comment up.
import * as vscode from 'vscode';
import { Commands, ContextKeys } from '../common/commandIds';
import { Disposable } from '../common/dispose';
import type { ErrorReporter } from '../common/errorReporting';
import { notificationText } from '../common/notifications';

export class CommentEditors extends Disposable {
  /** Each open comment's document, with what taking it does. */
  private readonly open = new Map<vscode.TextDocument, () => void>();

  constructor(errors: ErrorReporter) {
    super();
    this._register(errors.command(Commands.useAsComment, vscode.l10n.t('Could not use the comment'), (uri) => this.take(uri)));
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.showContext()));
  }

  /** Opens `value` in a scratch editor, says `prompt`, and resolves with the text taken, or undefined if given up. */
  async ask(value: string, prompt: string): Promise<string | undefined> {
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: value });
    await vscode.window.showTextDocument(doc, { preview: false });
    const taken = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: notificationText(prompt), cancellable: true },
      (_progress, cancel) => new Promise<boolean>((resolve) => {
        const done = (take: boolean): void => {
          closed.dispose();
          cancelled.dispose();
          this.open.delete(doc);
          this.showContext();
          resolve(take);
        };
        const closed = vscode.workspace.onDidCloseTextDocument((d) => d === doc && done(false));
        const cancelled = cancel.onCancellationRequested(() => done(false));
        this.open.set(doc, () => done(true));
        this.showContext();
      }),
    );
    const text = doc.getText();
    // Taken or given up, the scratch editor goes without asking to save it.
    if (!doc.isClosed) {
      await vscode.window.showTextDocument(doc);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    return taken ? text : undefined;
  }

  /** Takes the comment of the editor whose title was clicked (`uri`), else of the active editor. */
  private take(uri: unknown): void {
    const target = uri instanceof vscode.Uri ? uri.toString() : vscode.window.activeTextEditor?.document.uri.toString();
    [...this.open].find(([doc]) => doc.uri.toString() === target)?.[1]();
  }

  private showContext(): void {
    const active = vscode.window.activeTextEditor?.document;
    void vscode.commands.executeCommand('setContext', ContextKeys.commentEditor, active !== undefined && this.open.has(active));
  }
}
