// The extension's settings as one object (public names): the current typed, read-only snapshot and
// an event with the next one, re-read whenever a `refactorBrowser.*` setting or one of VS Code's
// network settings changes. Every part that depends on a setting reads `current` and listens to `onDidChange`.
import * as vscode from 'vscode';
import { withoutCredentials } from '../../core/errors';
import { DEFAULT_TIMEOUT_MS } from '../../client/http';
import { Disposable } from './dispose';
import { MAX_TIMEOUT_SECONDS } from './settingBounds';
import { DEFAULT_REFACTORING_ORDER, isRefactoringOrder, type RefactoringOrder } from '../../core/ratings';

export const SECTION = 'refactorBrowser';

export interface Settings {
  /** The service's base address; empty: the built-in sample catalog. */
  readonly baseUrl: string;
  /** Language filter; empty: all languages. */
  readonly language: string;
  readonly followEditorLanguage: boolean;
  readonly tags: readonly string[];
  readonly requestTimeoutSeconds: number;
  /** How a code's refactorings are ordered in the code view, the Catalog and Compare All Refactorings. */
  readonly refactoringOrder: RefactoringOrder;
  /**
   * VS Code's network settings as they stand (proxy, no-proxy list, strict TLS), credentials masked.
   * The host's fetch applies them itself; a change only tells the Catalog that lists which failed
   * may load now.
   */
  readonly network: string;
}

/** VS Code's settings that decide how its fetch reaches a service (http.proxyAuthorization is left out: a secret). */
const NETWORK_SETTINGS = ['proxy', 'noProxy', 'proxyStrictSSL', 'proxySupport'] as const;

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration(SECTION);
  const fallback = DEFAULT_TIMEOUT_MS / 1000;
  const timeout = c.get<number>('requestTimeout', fallback);
  return Object.freeze({
    baseUrl: c.get<string>('baseUrl', '').trim(),
    language: c.get<string>('language', '').trim(),
    followEditorLanguage: c.get<boolean>('followEditorLanguage', false),
    tags: Object.freeze((c.get<unknown[]>('tags', []) ?? []).filter((t): t is string => typeof t === 'string' && t.trim() !== '')),
    // A zero or negative timeout would make every request fail at once; past the setting's maximum
    // (package.json), the settings editor warns and the longest allowed applies.
    requestTimeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? Math.min(timeout, MAX_TIMEOUT_SECONDS) : fallback,
    refactoringOrder: readRefactoringOrder(c),
    network: readNetwork(),
  });
}

/** The order a value names; anything else (a hand-edited typo) is the default. */
function readRefactoringOrder(c: vscode.WorkspaceConfiguration): RefactoringOrder {
  const order = c.get<unknown>('refactoringOrder');
  return isRefactoringOrder(order) ? order : DEFAULT_REFACTORING_ORDER;
}

/**
 * Remembers the order the code view's switch picked: in the user settings, so that every window
 * follows it and Settings Sync carries it; in the workspace's instead where the workspace sets its
 * own, which would otherwise override the choice.
 */
export async function writeRefactoringOrder(order: RefactoringOrder): Promise<void> {
  const c = vscode.workspace.getConfiguration(SECTION);
  const target = c.inspect('refactoringOrder')?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await c.update('refactoringOrder', order, target);
}

function readNetwork(): string {
  const http = vscode.workspace.getConfiguration('http');
  return withoutCredentials(JSON.stringify(NETWORK_SETTINGS.map((name) => http.get<unknown>(name) ?? null)));
}

/** What the parts that depend on a setting see of the settings. */
export interface SettingsSource {
  /** The settings as they stand. */
  readonly current: Settings;
  /** Fires with the new snapshot once `current` is it; listeners run in the order they subscribed. */
  readonly onDidChange: vscode.Event<Settings>;
}

/**
 * The settings, read again after every change of one of ours or of the network settings, and when
 * the folder is trusted: in Restricted Mode VS Code leaves out the folder's own
 * refactorBrowser.baseUrl (package.json, restrictedConfigurations), which applies once it is trusted.
 */
export class ExtensionSettings extends Disposable implements SettingsSource {
  private value = readSettings();
  private readonly changed = this._register(new vscode.EventEmitter<Settings>());
  readonly onDidChange = this.changed.event;

  constructor() {
    super();
    this._register(vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION) || NETWORK_SETTINGS.some((name) => e.affectsConfiguration(`http.${name}`))) this.reread();
    }));
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.reread()));
  }

  get current(): Settings {
    return this.value;
  }

  private reread(): void {
    this.value = readSettings();
    this.changed.fire(this.value);
  }
}
