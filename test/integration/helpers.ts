// Helpers for the integration suite inside VS Code: the extension and its test API, settings changes
// that wait until the extension has applied them, a reset to a clean state between tests, and
// signing in and out of the current service, and the walkthrough opened at a step. No
// Node module: the tests in shared/ use them in the browser's web worker extension host too
// (services.ts starts the loopback servers).
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { RefactorBrowserApi } from '../../src/extension';
import { Commands } from '../../src/extension/common/commandIds';
import type { Settings } from '../../src/extension/common/settings';
import type { RefactoringOrder } from '../../src/core/ratings';
import type { Target } from '../ui/protocol';
import { waitFor } from '../helpers/poll';

export const EXTENSION_ID = 'refactor-browser.refactor-browser';
export const ROOT_LABELS = ['Recent Codes', 'Popular Codes', 'Tags', 'Recent Refactorings'];

export function extension(): vscode.Extension<RefactorBrowserApi> {
  const ext = vscode.extensions.getExtension<RefactorBrowserApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded`);
  return ext;
}

/** The test API; activates the extension if nothing has yet. */
export async function api(): Promise<RefactorBrowserApi> {
  return extension().activate();
}

/** The walkthrough ("Get Started with Refactor Browser") as the Welcome page names it. */
export const WALKTHROUGH = `${EXTENSION_ID}#getStarted`;

/**
 * Opens the walkthrough at its step `step`, as the Welcome page does, and waits until its page has
 * the focus: then VS Code has no active text editor, as when a person reads the walkthrough.
 */
export async function openWalkthrough(step: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', { category: WALKTHROUGH, step }, false);
  await waitFor(() => (vscode.window.activeTextEditor === undefined ? true : undefined), 'the walkthrough to take the focus from the text editor');
}

/** The button `label` of the walkthrough's open step (a command link on a line of its own). */
export function walkthroughButton(label: string): Target {
  return { css: '.getting-started-step.expanded .step-description-container .monaco-button', hasText: label };
}

// The tests' one polling loop, handed on with the other helpers both extension hosts' tests import.
export { waitFor };

/** The settings a test may change, by their names under `refactorBrowser.`. */
export interface SettingValues {
  baseUrl?: string;
  language?: string;
  followEditorLanguage?: boolean;
  tags?: string[];
  requestTimeout?: number;
  refactoringOrder?: RefactoringOrder;
}
const SNAPSHOT_KEY: Record<keyof SettingValues, keyof Settings> = {
  baseUrl: 'baseUrl',
  language: 'language',
  followEditorLanguage: 'followEditorLanguage',
  tags: 'tags',
  requestTimeout: 'requestTimeoutSeconds',
  refactoringOrder: 'refactoringOrder',
};
const DEFAULTS: Required<SettingValues> = {
  baseUrl: '', language: '', followEditorLanguage: false, tags: [], requestTimeout: 15, refactoringOrder: 'bestRated',
};

function applied(settings: Settings, values: SettingValues): boolean {
  return (Object.keys(values) as Array<keyof SettingValues>).every((k) => {
    try {
      assert.deepStrictEqual(settings[SNAPSHOT_KEY[k]], values[k]);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Writes the settings to the user settings (undefined removes one) and resolves once the extension
 * works with them, as its onDidChangeSettings reports.
 */
export async function useSettings(values: SettingValues, timeoutMs = 10_000): Promise<void> {
  const browser = await api();
  const expected: SettingValues = {};
  const config = vscode.workspace.getConfiguration('refactorBrowser');
  for (const [key, value] of Object.entries(values) as Array<[keyof SettingValues, SettingValues[keyof SettingValues]]>) {
    await config.update(key, value, vscode.ConfigurationTarget.Global);
    (expected as Record<string, unknown>)[key] = value ?? DEFAULTS[key];
  }
  if (applied(browser.settings(), expected)) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`the extension did not apply ${JSON.stringify(expected)} within ${timeoutMs} ms`));
    }, timeoutMs);
    const sub = browser.onDidChangeSettings((s) => {
      if (!applied(s, expected)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

/** Back to a fresh window's state: default settings, no editors open. */
export async function resetState(): Promise<void> {
  await useSettings({
    baseUrl: undefined, language: undefined, followEditorLanguage: undefined, tags: undefined, requestTimeout: undefined, refactoringOrder: undefined,
  });
  // Loopback ports come round again: a list kept for an earlier test's service must not answer for this one's.
  await (await api()).forgetOffline();
  // Stars are kept across windows (and synced): one test's must not show in the next one's Catalog.
  await (await api()).forgetStars();
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Runs Sign In… on the current service, typing `token` into its box (undefined: Escape); what it asked and said. */
export async function signIn(token: string | undefined): Promise<{ asked: vscode.InputBoxOptions[]; said: string[] }> {
  return (await api()).runAnswering(Commands.signIn, { input: token });
}

/** Signs out of the current service, if signed in, as VS Code's Accounts menu does (no message). */
export async function signOut(): Promise<void> {
  const session = await (await api()).session();
  if (session) await (await api()).removeSession(session.id);
}

/** Asserts that no line of the extension's log holds any of `tokens`. */
export async function assertNoLogHolds(...tokens: string[]): Promise<void> {
  const log = (await api()).recentLog();
  for (const token of tokens) assert.ok(!log.some((line) => line.includes(token)), 'no log line holds a token');
}
