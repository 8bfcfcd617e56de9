// What a code view's webview is given: its options, its HTML shell (html.ts) with the script, the
// stylesheet and the words it needs, and the `show` message that carries a code to it.
import * as vscode from 'vscode';
import type { RefactoringOrder } from '../../../core/ratings';
import { formatDateTime } from '../../common/names';
import type { BlockTarget, ToWebview } from '../../../protocol/codeView';
import type { ItemTarget } from '../../common/items';
import { buildCodeViewModel, CODE_VIEW_WEBVIEW_OPTIONS, renderCodeViewHtml } from './html';
import type { ShownState } from './state';

/** CODE_VIEW_WEBVIEW_OPTIONS, its folders made into URIs inside the extension. */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  const { localResourceFolders, ...options } = CODE_VIEW_WEBVIEW_OPTIONS;
  return { ...options, localResourceRoots: localResourceFolders.map((f) => vscode.Uri.joinPath(extensionUri, f)) };
}

/** The page a code view's webview starts from, under the panel's title, until its script asks for the code. */
export function codeViewHtml(panel: vscode.WebviewPanel, extensionUri: vscode.Uri): string {
  return renderCodeViewHtml({
    cspSource: panel.webview.cspSource,
    scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js')).toString(),
    styleUris: [panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'codeView.css')).toString()],
    title: panel.title,
    language: vscode.env.language,
    l10nBundle: vscode.l10n.bundle,
    loading: vscode.l10n.t('Loading…'),
  });
}

/**
 * The message that shows a code: in `order`, its `starred` blocks marked, scrolled to `reveal`, with
 * Rate…, Delete… and Refactor… for `me` (the person signed in, if any).
 */
export function showMessage(s: ShownState, order: RefactoringOrder, starred: readonly ItemTarget[], reveal: number | undefined, me: number | undefined): ToWebview {
  const shown: ToWebview = { type: 'show', code: buildCodeViewModel(s.code, s.pageUrl), order, starred: blocksOf(starred) };
  if (s.keptAt) shown.note = vscode.l10n.t('The service could not be reached: this is the copy kept when it was starred, as it was on {0}.', formatDateTime(s.keptAt));
  if (reveal !== undefined) shown.revealRefactorId = reveal;
  if (me !== undefined) shown.me = me;
  return shown;
}

/** Stars as the webview names blocks: a code by its id, a refactoring by its own. */
export function blocksOf(targets: readonly ItemTarget[]): BlockTarget[] {
  return targets.map((t) => (t.kind === 'code' ? { kind: 'code', id: t.codeId } : { kind: 'refactor', id: t.refactorId }));
}
