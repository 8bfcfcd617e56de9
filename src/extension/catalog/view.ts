// The Catalog view around the tree: the TreeView with its description (the language filter) and
// message (the sample catalog), following the active editor's language, progress while loading,
// and the context key that shows the welcome content when the service cannot be reached. Its
// commands are registered by commands.ts.
import * as vscode from 'vscode';
import type { Logger } from '../../client/logger';
import { CatalogTreeProvider } from './tree';
import { toServiceLanguage } from '../../core/languages';
import type { OfflineStore } from './offlineStore';
import type { ServiceConnection } from '../service';
import type { Stars } from '../stars/stars';
import type { SettingsSource } from '../common/settings';
import { ContextKeys } from '../common/commandIds';
import { Disposable, toDisposable } from '../common/dispose';
import type { CatalogNode } from './nodes';
import { isOne, listOf } from '../common/names';

export const VIEW_ID = 'refactorBrowser.catalog';
/** How long a request runs before the view's message says what is loading. */
const LOADING_MESSAGE_DELAY_MS = 300;

export class CatalogView extends Disposable {
  readonly tree: CatalogTreeProvider;
  readonly view: vscode.TreeView<CatalogNode>;
  private editorLanguage: string | undefined;
  /** What is loading now, with how many requests for each (the view's message says it). */
  private readonly loading = new Map<string, number>();
  private loadingTimer: ReturnType<typeof setTimeout> | undefined;
  /** True once a request has run long enough for the message to say what is loading. */
  private loadingShown = false;

  constructor(service: ServiceConnection, private readonly settings: SettingsSource, offline: OfflineStore, stars: Stars, logger: Logger) {
    super();
    this.editorLanguage = this.activeEditorLanguage();
    this.tree = this._register(new CatalogTreeProvider(service, this.catalogState(), offline, logger, stars, (work, what) => this.loadingWhile(work, what)));
    this.view = this._register(vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true, canSelectMany: true }));
    this._register(toDisposable(() => clearTimeout(this.loadingTimer)));
    for (const d of [
      this.tree.onDidChangeUnreachable((cause) => {
        void vscode.commands.executeCommand('setContext', ContextKeys.unreachable, cause !== undefined);
        this.showState();
      }),
      this.tree.onDidChangeFailures(() => this.showState()),
      stars.onDidChange(() => this.tree.starsChanged()),
      settings.onDidChange(() => this.settingsChanged()),
      vscode.window.onDidChangeActiveTextEditor(() => this.followEditor()),
    ]) this._register(d);
    this.showState();
  }

  /** The language every list is filtered by: the active editor's when following it and it is one of the service's. */
  language(): string {
    return (this.settings.current.followEditorLanguage && this.editorLanguage) || this.settings.current.language;
  }

  /** New settings (the service has taken them already: it subscribed first). */
  private settingsChanged(): void {
    this.editorLanguage = this.activeEditorLanguage();
    // A new service: everything shown belongs to the old one.
    this.tree.update(this.catalogState());
    this.showState();
  }

  private catalogState() {
    const { baseUrl, requestTimeoutSeconds, network, tags, refactoringOrder } = this.settings.current;
    return {
      language: this.language(), tags, service: JSON.stringify([baseUrl, requestTimeoutSeconds, network]), refactoringOrder,
    };
  }

  /**
   * The view's description (the language filter) and its message, which says in words what the
   * spinner and the error rows show: what is loading, else what failed and why, else that the sample
   * catalog is shown. None while the service cannot be reached: VS Code shows the welcome content
   * only while the view has no message.
   */
  private showState(): void {
    this.view.description = this.language() || undefined;
    const message = this.tree.isUnreachable() ? undefined : this.loadingMessage() ?? this.failureMessage() ?? this.sampleMessage();
    if (this.view.message !== message) this.view.message = message;
  }

  /**
   * Runs one request with the view's progress bar, saying what it loads once it has taken
   * LOADING_MESSAGE_DELAY_MS: a quick answer moves nothing in the view.
   */
  private async loadingWhile<R>(work: () => Promise<R>, what: string): Promise<R> {
    this.loading.set(what, (this.loading.get(what) ?? 0) + 1);
    this.loadingTimer ??= setTimeout(() => {
      this.loadingShown = true;
      this.showState();
    }, LOADING_MESSAGE_DELAY_MS);
    try {
      return await vscode.window.withProgress({ location: { viewId: VIEW_ID } }, work);
    } finally {
      const left = (this.loading.get(what) ?? 1) - 1;
      if (left > 0) this.loading.set(what, left);
      else this.loading.delete(what);
      if (this.loading.size === 0) {
        clearTimeout(this.loadingTimer);
        this.loadingTimer = undefined;
        this.loadingShown = false;
      }
      this.showState();
    }
  }

  private loadingMessage(): string | undefined {
    return this.loadingShown && this.loading.size ? vscode.l10n.t('Loading {0}…', listOf([...this.loading.keys()])) : undefined;
  }

  private failureMessage(): string | undefined {
    const [first, ...more] = this.tree.failures();
    if (!first) return undefined;
    if (more.length === 0) return vscode.l10n.t('{0} could not be loaded: {1}', first.label, first.cause);
    return isOne(more.length)
      ? vscode.l10n.t('{0} could not be loaded: {1} ({2} more list could not be loaded)', first.label, first.cause, more.length)
      : vscode.l10n.t('{0} could not be loaded: {1} ({2} more lists could not be loaded)', first.label, first.cause, more.length);
  }

  private sampleMessage(): string | undefined {
    return this.settings.current.baseUrl === ''
      ? vscode.l10n.t('Browsing the built-in sample catalog. To browse a service, set Refactor Browser: Base Url with the gear button above.')
      : undefined;
  }

  private activeEditorLanguage(): string | undefined {
    const id = vscode.window.activeTextEditor?.document.languageId;
    return id ? toServiceLanguage(id) : undefined;
  }

  private followEditor(): void {
    if (!this.settings.current.followEditorLanguage) return;
    // Switching to an editor in no service language (a settings file, the output) keeps the filter.
    const next = this.activeEditorLanguage();
    if (!next || next === this.editorLanguage) return;
    this.editorLanguage = next;
    this.tree.update(this.catalogState());
    this.showState();
  }
}
