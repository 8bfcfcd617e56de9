// The extension's settings as one typed, read-only snapshot (public names: shared/CONTRACT.md),
// re-read whenever a `refactorBrowser.*` setting or VS Code's proxy settings change.
import * as vscode from 'vscode';
import type { ProxySettings } from '../api/dispatcher';
import { DEFAULT_TIMEOUT_MS } from '../api/http';
import { proxyFromHttpSettings } from './proxy';

export const SECTION = 'refactorBrowser';

export interface Settings {
  /** The service's base address; empty: the built-in sample catalog. */
  readonly baseUrl: string;
  /** Language filter; empty: all languages. */
  readonly language: string;
  readonly followEditorLanguage: boolean;
  readonly tags: readonly string[];
  readonly requestTimeoutSeconds: number;
  /** From VS Code's `http.proxy` / `http.proxyStrictSSL`; undefined: the environment's proxy, if any. */
  readonly proxy: ProxySettings | undefined;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration(SECTION);
  const fallback = DEFAULT_TIMEOUT_MS / 1000;
  const timeout = c.get<number>('requestTimeout', fallback);
  return Object.freeze({
    baseUrl: c.get<string>('baseUrl', '').trim(),
    language: c.get<string>('language', '').trim(),
    followEditorLanguage: c.get<boolean>('followEditorLanguage', false),
    tags: Object.freeze((c.get<unknown[]>('tags', []) ?? []).filter((t): t is string => typeof t === 'string' && t.trim() !== '')),
    // A zero or negative timeout would make every request fail at once.
    requestTimeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? timeout : fallback,
    proxy: readProxy(),
  });
}

function readProxy(): ProxySettings | undefined {
  const http = vscode.workspace.getConfiguration('http');
  return proxyFromHttpSettings(http.get<unknown>('proxy'), http.get<unknown>('proxyStrictSSL'));
}

/** Calls `apply` with a fresh snapshot after every change of one of our settings or of the proxy. */
export function onDidChangeSettings(apply: (settings: Settings) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION) || e.affectsConfiguration('http.proxy') || e.affectsConfiguration('http.proxyStrictSSL')) {
      apply(readSettings());
    }
  });
}
