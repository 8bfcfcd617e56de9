// Helpers for the code view, insert, compare and document tests: rows shaped as the Catalog passes
// them to commands, the service's own data through a RefactorClient, and what the workbench shows
// (code view tabs, the active diff) read back through VS Code's API.
import * as vscode from 'vscode';
import { RefactorClient } from '../../src/client/client';
import type { Code, Refactor } from '../../src/core/model';
import { inProcessFetch, SAMPLE_BASE_URL } from '../../src/server/http/fetchHandler';
import { loadSampleDataset } from '../../src/server/catalog/sampleDataset';
import { Commands } from '../../src/extension/common/commandIds';
import type { Context } from 'mocha';
import { api, resetState, signOut, waitFor } from './helpers';
import { uiOrSkip, type Ui } from './ui';

/** What a CodeNode is to the commands: its contextValue and its code. */
export function codeRow(code: Code): { contextValue: string; code: Code } {
  return { contextValue: 'refactorBrowser.code', code };
}

export function refactorRow(refactor: Refactor): { contextValue: string; refactor: Refactor } {
  return { contextValue: 'refactorBrowser.refactor', refactor };
}

/** A client for whatever service the extension talks to now; close it after the test. */
export async function serviceClient(): Promise<RefactorClient> {
  const baseUrl = await (await api()).serviceUrl();
  // The built-in sample catalog is answered in the extension's process: the test answers it in its own.
  const fetch = baseUrl === SAMPLE_BASE_URL ? inProcessFetch(loadSampleDataset()) : undefined;
  return new RefactorClient({ baseUrl, timeoutMs: 10_000, fetch });
}

/** A code with its refactorings, from the service the extension talks to. */
export async function fetchCode(id: number): Promise<Code> {
  const client = await serviceClient();
  try {
    return await client.code(id);
  } finally {
    await client.close();
  }
}

/** Tabs of code views, in every group. */
export function codeViewTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('refactorBrowser.code'));
}

/** Waits for a code view tab with this label (the code's title once loaded). */
export function waitForCodeViewTab(label: string, timeoutMs = 10_000): Promise<vscode.Tab> {
  return waitFor(() => codeViewTabs().find((t) => t.label === label), `a code view tab ${JSON.stringify(label)}`, timeoutMs);
}

/** The active tab's diff input once its label is `label`. */
export function waitForDiff(label: string, timeoutMs = 10_000): Promise<vscode.TabInputTextDiff> {
  return waitFor(() => {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    return tab?.label === label && tab.input instanceof vscode.TabInputTextDiff ? tab.input : undefined;
  }, `a diff titled ${JSON.stringify(label)}`, timeoutMs);
}

export async function documentText(uri: vscode.Uri): Promise<string> {
  return (await vscode.workspace.openTextDocument(uri)).getText();
}

/** An untitled editor holding `content` (its line endings decide the document's EOL). */
export async function untitledEditor(content: string, language = 'plaintext'): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument({ language, content });
  return vscode.window.showTextDocument(doc);
}

/** Closes every editor, discarding untitled documents' changes so no save prompt blocks the window. */
export async function closeAllEditors(): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const dirty = vscode.workspace.textDocuments.find((d) => d.isDirty && !d.isClosed);
    if (!dirty) break;
    await vscode.window.showTextDocument(dirty);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Tree rows of the Catalog as the UI shows them. */
export const TREE_ROWS = '.part.sidebar .monaco-list-row[role=treeitem]';

/**
 * Shows the Refactor Browser container with only the root row `label` expanded: the list renders the
 * rows that fit, so another expanded root could push this one's rows off screen.
 */
export async function showRoot(ui: Ui, label: string): Promise<void> {
  // Not a click on the activity bar: that hides the side bar when it already shows the container.
  await vscode.commands.executeCommand('workbench.view.extension.refactorBrowser');
  await collapseCatalog();
  const [root] = await ui.query({ css: `${TREE_ROWS}[aria-level="1"]`, hasText: label }, ['aria-expanded'], 1);
  if (root.attributes['aria-expanded'] !== 'true') await ui.click({ css: `${TREE_ROWS}[aria-level="1"]`, hasText: label });
  await ui.query({ css: `${TREE_ROWS}[aria-level="2"]` }, [], 1);
}

/** The text of the first webview frame that contains every one of `texts`; bounded in time. */
export async function webviewText(ui: Ui, texts: string[], timeoutMs = 15_000): Promise<string> {
  let seen: string[] = [];
  try {
    return await waitFor(async () => {
      const frames = await ui.webviewFrames();
      seen = frames.map((f) => `${f.url.slice(0, 120)}: ${f.text.slice(0, 300)}`);
      return frames.find((f) => texts.every((t) => f.text.includes(t)))?.text;
    }, `a webview showing ${JSON.stringify(texts)}`, timeoutMs);
  } catch (err) {
    throw new Error(`${(err as Error).message}; webviews show ${JSON.stringify(seen)}`, { cause: err });
  }
}

/**
 * Opens a sample code's view and waits until its webview shows the code, opening it a second time if the
 * first webview stays blank. Why: in VS Code for the web (code-server) every webview's outer frame
 * registers a service worker and waits for it to take control before loading anything; right after
 * webviews were created and closed in quick succession (as codeView.test.ts does), the next one can
 * wait for a `controllerchange` that never comes (pre/index.html logs "Found unexpected service
 * worker controller") and stays blank, while the one after it loads. Desktop VS Code has no such
 * worker. UI suites call this once in `before`, so their own webviews start from a settled worker.
 */
export async function settleWebviews(ui: Ui): Promise<void> {
  // Any code will do; the extension must be browsing the sample catalog (every caller's is, then).
  const { id: codeId, title } = loadSampleDataset().codes.get(3)!;
  for (let attempt = 1; ; attempt++) {
    await vscode.commands.executeCommand(Commands.openCode, codeId);
    try {
      await webviewText(ui, [title], 10_000);
      break;
    } catch (err) {
      if (attempt === 3) throw err;
    } finally {
      await closeAllEditors();
    }
  }
}

const COLLAPSE_ALL = 'workbench.actions.treeView.refactorBrowser.catalog.collapseAll';

/** Collapses the Catalog's rows again, as the other UI tests expect to find them. */
export async function collapseCatalog(): Promise<void> {
  // VS Code registers the command once the view has been shown: before that there is nothing to collapse.
  if ((await vscode.commands.getCommands()).includes(COLLAPSE_ALL)) await vscode.commands.executeCommand(COLLAPSE_ALL);
}

/**
 * The `before` of a UI test that contributes (shares, refactors, rates, deletes): the UI, or the
 * test skipped where there is none; default settings; webviews settled (settleWebviews).
 */
export async function startContributingUi(context: Context): Promise<Ui> {
  const ui = uiOrSkip(context);
  await resetState();
  await settleWebviews(ui);
  return ui;
}

/**
 * What a contributing UI test leaves behind, undone: signed out, no notifications, no editors, the
 * Catalog collapsed (VS Code's tree keeps the rows a test opened open, and a list open there is
 * fetched again whenever the service changes, which later tests do not expect), default settings.
 */
export async function endContributingUi(): Promise<void> {
  await signOut();
  await vscode.commands.executeCommand('notifications.clearAll');
  await closeAllEditors();
  await collapseCatalog();
  await resetState();
}
