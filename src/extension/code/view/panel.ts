// The code view (webview panel type `refactorBrowser.code`): one panel per code, revealed when the
// code is opened again, restored after a window reload by the serializer from the {codeId} state the
// webview persists. The webview asks with `ready` (each time it is rebuilt, since its context is not
// retained while hidden); the panel answers with what it has: loading, the code, or a one-line error
// with Retry. Messages in are checked by the shared protocol; actions are delegated to the commands.
// The refactorings show in the order of refactorBrowser.refactoringOrder, which the view's switch
// writes and every open view follows.
import * as vscode from 'vscode';
import type { Logger } from '../../../api/logger';
import type { Code } from '../../../api/model';
import type { RefactoringOrder } from '../../../api/ratings';
import { formatDateTime, titleOf } from '../../names';
import type { Section } from '../../../api/sections';
import { codeRefOf, codeUrl, pageUrl } from '../../../api/urls';
import { isWebUrl, parseCodeViewState, parseToExtension, type BlockTarget, type ToWebview } from '../../../protocol/codeView';
import { Disposable, toDisposable } from '../../dispose';
import { logFailure, oneLine } from '../../errorReporting';
import { isApiError } from '../../../api/errors';
import type { KeptCode } from '../../stars/stars';
import { sectionsOf, type Item, type ItemTarget } from '../../shared/items';
import type { ServiceConnection } from '../../service';
import type { SettingsSource } from '../../settings';
import { buildCodeViewModel, CODE_VIEW_WEBVIEW_OPTIONS, renderCodeViewHtml } from './html';

export const CODE_VIEW_TYPE = 'refactorBrowser.code';
/** True while at least one code view is open: the palette offers the commands that act on it. */
export const HAS_CODE_VIEW_CONTEXT = 'refactorBrowser.hasCodeView';
/** True while the code of the code view looked at last is starred: the palette offers Unstar, else Star. */
export const CODE_VIEW_STARRED_CONTEXT = 'refactorBrowser.codeViewStarred';

/** What the buttons in the view do; the command layer implements them. Insert and Copy take a section of the item's code. */
export interface CodeViewActions {
  insert(item: Item, section?: Section): Promise<void>;
  compareWithOriginal(item: Item & { kind: 'refactor' }, original: Code): Promise<void>;
  copy(item: Item, section?: Section): Promise<void>;
  openDocument(item: Item): Promise<void>;
  /** Remembers the order the view's switch picked (the setting). */
  setOrder(order: RefactoringOrder): Promise<void>;
  /** Stars (`starred` true) or unstars the item. */
  star(item: Item, starred: boolean): Promise<void>;
  /** Rate…, Delete… and Refactor…, as their commands do on a row. */
  rate(item: Item): Promise<void>;
  delete(item: Item): Promise<void>;
  refactor(item: Item & { kind: 'code' }): Promise<void>;
}

/** Who is signed in to the current service: the view offers Rate…, Delete… and Refactor… to them. */
export interface CodeViewAccount {
  userId(): number | undefined;
  readonly onDidChangeSessions: vscode.Event<unknown>;
}

/** What the code view needs of the stars: which blocks are starred, and the copies kept offline. */
export interface CodeViewStars {
  starredIn(code: Code): ItemTarget[];
  offlineCopy(codeId: number): Promise<KeptCode | undefined>;
  readonly onDidChange: vscode.Event<void>;
}

type ViewState =
  | { kind: 'loading' }
  /** `keptAt`: what is shown is the copy kept of a starred code, since the service could not be reached. */
  | { kind: 'shown'; code: Code; pageUrl: string; keptAt?: Date }
  | { kind: 'error'; message: string };

class CodeViewPanel extends Disposable {
  private state: ViewState = { kind: 'loading' };
  private ready = false;
  private pendingReveal: number | undefined;
  /** The order the webview shows its refactorings in, once it shows them. */
  private shownOrder: RefactoringOrder | undefined;
  private loads = 0;

  constructor(
    readonly codeId: number,
    readonly panel: vscode.WebviewPanel,
    private readonly owner: CodeViewPanels,
    /** The code as a list gave it, when it was opened from one. */
    private listed: Code | undefined,
  ) {
    super();
    panel.webview.options = webviewOptions(owner.extensionUri);
    panel.title = titleOf({ id: codeId, title: '' });
    panel.webview.html = renderCodeViewHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(owner.extensionUri, 'dist', 'webview.js')).toString(),
      styleUris: [panel.webview.asWebviewUri(vscode.Uri.joinPath(owner.extensionUri, 'media', 'codeView.css')).toString()],
      title: panel.title,
      language: vscode.env.language,
      l10nBundle: vscode.l10n.bundle,
      loading: vscode.l10n.t('Loading…'),
    });
    this._register(panel.webview.onDidReceiveMessage((m: unknown) => void this.onMessage(m)));
    this._register(panel.onDidChangeViewState((e) => {
      if (e.webviewPanel.active) owner.setCurrent(this);
    }));
    this._register(panel.onDidDispose(() => this.dispose()));
    this._register(toDisposable(() => {
      this.loads++; // a load still running must not touch a disposed webview
      owner.forget(this);
    }));
    void this.load();
  }

  get code(): Code | undefined {
    return this.state.kind === 'shown' ? this.state.code : undefined;
  }

  reveal(refactorId: number | undefined, listed: Code | undefined): void {
    this.listed ??= listed;
    this.panel.reveal(undefined, false);
    if (refactorId === undefined) return;
    if (this.ready && this.state.kind === 'shown') this.post({ type: 'reveal', refactorId });
    else this.pendingReveal = refactorId;
  }

  /** Tells the webview the order to show, unless it shows that one already. */
  showOrder(order: RefactoringOrder): void {
    if (!this.ready || this.state.kind !== 'shown' || this.shownOrder === order) return;
    this.shownOrder = order;
    this.post({ type: 'order', order });
  }

  async load(): Promise<void> {
    const load = ++this.loads;
    this.state = { kind: 'loading' };
    this.render();
    try {
      const client = await this.owner.service.getClient();
      const fetched = await client.code(this.codeId);
      if (load !== this.loads) return; // a Retry overtook this load
      // The single-code response names no author; the list the code was picked from may have.
      const user = fetched.user ?? this.listed?.user;
      const code = user ? { ...fetched, user } : fetched;
      // The built-in sample catalog is answered in process: its codes have no page to open.
      const page = this.owner.service.hasWebPages() ? pageUrl(codeUrl(client.baseUrl, codeRefOf(code))) : '';
      this.state = { kind: 'shown', code, pageUrl: page };
      this.panel.title = titleOf(code);
    } catch (err) {
      if (load !== this.loads) return;
      logFailure(this.owner.logger, `Could not show code #${this.codeId}`, err);
      const kept = isApiError(err) && err.kind === 'aborted' ? undefined : await this.owner.stars.offlineCopy(this.codeId);
      if (load !== this.loads) return;
      if (kept) {
        this.state = { kind: 'shown', code: kept.code, pageUrl: '', keptAt: kept.keptAt };
        this.panel.title = titleOf(kept.code);
      } else {
        this.state = { kind: 'error', message: oneLine(err) };
      }
    }
    this.render();
    this.owner.updateStarredContext();
  }

  /** Tells the webview which of its blocks are starred now. */
  showStars(): void {
    if (this.ready && this.state.kind === 'shown') this.post({ type: 'stars', starred: blocksOf(this.owner.stars.starredIn(this.state.code)) });
  }

  /** Shows the state again (the account changed: the buttons it offers differ). */
  render(): void {
    if (!this.ready) return;
    const s = this.state;
    switch (s.kind) {
      case 'loading':
        this.post({ type: 'loading', codeId: this.codeId });
        break;
      case 'error':
        this.post({ type: 'error', message: s.message, codeId: this.codeId });
        break;
      case 'shown': {
        const reveal = this.pendingReveal;
        this.pendingReveal = undefined;
        const model = buildCodeViewModel(s.code, s.pageUrl);
        const order = this.owner.order();
        this.shownOrder = order;
        const shown: ToWebview = { type: 'show', code: model, order, starred: blocksOf(this.owner.stars.starredIn(s.code)) };
        if (s.keptAt) shown.note = vscode.l10n.t('The service could not be reached: this is the copy kept when it was starred, as it was on {0}.', formatDateTime(s.keptAt));
        if (reveal !== undefined) shown.revealRefactorId = reveal;
        // A kept copy is not the service's answer: nothing in it is offered to change.
        const me = s.keptAt ? undefined : this.owner.account.userId();
        if (me !== undefined) shown.me = me;
        this.post(shown);
        break;
      }
    }
  }

  private post(message: ToWebview): void {
    void this.panel.webview.postMessage(message);
  }

  /** Handles a message from the webview; resolves once the action it asked for is done. */
  async onMessage(raw: unknown): Promise<void> {
    const message = parseToExtension(raw);
    if (!message) {
      this.owner.logger.warn(`code view: ignored a malformed message from the webview of code #${this.codeId}`);
      return;
    }
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.render();
        return;
      case 'retry':
        void this.load();
        return;
      case 'setOrder':
        this.shownOrder = message.order; // the webview shows it already
        await this.owner.setOrder(message.order);
        return;
      case 'openExternal':
        // Checked by the protocol already; checked again where the URL leaves for the OS.
        if (isWebUrl(message.url)) void vscode.env.openExternal(vscode.Uri.parse(message.url, true));
        return;
      case 'compareWithOriginal': {
        const code = this.code;
        const refactor = code?.refactors?.find((r) => r.id === message.refactorId);
        if (code && refactor) await this.owner.actions.compareWithOriginal({ kind: 'refactor', refactor }, code);
        return;
      }
      case 'insert':
      case 'copy': {
        const item = this.itemOf(message.target);
        if (!item) return;
        const index = message.target.section;
        let section: Section | undefined;
        if (index !== undefined) {
          const sections = sectionsOf(item);
          section = sections[index];
          if (!section) {
            // The webview splits the same text: only a stale or forged message names a section that is not there.
            this.owner.logger.warn(`code view: ignored ${message.type} of section ${index} of ${titleOf(item)}, which has ${sections.length}`);
            return;
          }
        }
        await (message.type === 'insert' ? this.owner.actions.insert(item, section) : this.owner.actions.copy(item, section));
        return;
      }
      case 'openDocument': {
        const item = this.itemOf(message.target);
        if (item) await this.owner.actions.openDocument(item);
        return;
      }
      case 'star': {
        const item = this.itemOf(message.target);
        if (item) await this.owner.actions.star(item, message.starred);
        // Said back even when nothing changed, so the button shows what is so.
        this.showStars();
        return;
      }
      case 'rate': {
        const item = this.itemOf({ kind: 'refactor', id: message.refactorId });
        if (item) await this.owner.actions.rate(item);
        return;
      }
      case 'delete': {
        const item = this.itemOf(message.target);
        if (item) await this.owner.actions.delete(item);
        return;
      }
      case 'refactor': {
        const code = this.code;
        if (code) await this.owner.actions.refactor({ kind: 'code', code });
        return;
      }
    }
  }

  private itemOf(target: BlockTarget): Item | undefined {
    const code = this.code;
    if (!code) return undefined;
    if (target.kind === 'code') return target.id === code.id ? { kind: 'code', code } : undefined;
    const refactor = code.refactors?.find((r) => r.id === target.id);
    return refactor && { kind: 'refactor', refactor };
  }

}

/** Stars as the webview names blocks: a code by its id, a refactoring by its own. */
function blocksOf(targets: readonly ItemTarget[]): BlockTarget[] {
  return targets.map((t) => (t.kind === 'code' ? { kind: 'code', id: t.codeId } : { kind: 'refactor', id: t.refactorId }));
}

/** CODE_VIEW_WEBVIEW_OPTIONS, its folders made into URIs inside the extension. */
function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  const { localResourceFolders, ...options } = CODE_VIEW_WEBVIEW_OPTIONS;
  return { ...options, localResourceRoots: localResourceFolders.map((f) => vscode.Uri.joinPath(extensionUri, f)) };
}

export class CodeViewPanels extends Disposable implements vscode.WebviewPanelSerializer {
  private readonly panels = new Map<number, CodeViewPanel>();
  private current: CodeViewPanel | undefined;
  /** Orders the views asked for that are still being written to the settings. */
  private writingOrders = 0;
  /** What CODE_VIEW_STARRED_CONTEXT was last set to. */
  private starredContext = false;

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly service: ServiceConnection,
    readonly logger: Logger,
    readonly actions: CodeViewActions,
    /** refactorBrowser.refactoringOrder is the order every view shows. */
    private readonly settings: SettingsSource,
    readonly stars: CodeViewStars,
    readonly account: CodeViewAccount,
  ) {
    super();
    this._register(account.onDidChangeSessions(() => {
      for (const view of this.panels.values()) view.render();
    }));
    this._register(vscode.window.registerWebviewPanelSerializer(CODE_VIEW_TYPE, this));
    this._register(settings.onDidChange(() => this.orderChanged()));
    this._register(stars.onDidChange(() => {
      this.updateStarredContext();
      for (const view of this.panels.values()) view.showStars();
    }));
    // The panels are VS Code's to dispose as a person closes them; whatever is open at the end goes too.
    this._register(toDisposable(() => {
      for (const view of [...this.panels.values()]) view.panel.dispose();
      this.panels.clear();
    }));
  }

  /**
   * Shows the code's view, creating it or revealing the open one; scrolls to a refactoring if given.
   * `listed` is the code as a list gave it (a clicked row), whose author the view shows.
   */
  open(codeId: number, revealRefactorId?: number, listed?: Code): void {
    let view = this.panels.get(codeId);
    if (!view) {
      // Beside the editor a person works in, so Insert at Cursor has its target in sight.
      const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
      const panel = vscode.window.createWebviewPanel(CODE_VIEW_TYPE, titleOf({ id: codeId, title: '' }), column, webviewOptions(this.extensionUri));
      view = this.adopt(codeId, panel, listed);
    }
    view.reveal(revealRefactorId, listed);
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const parsed = parseCodeViewState(state);
    if (!parsed || this.panels.has(parsed.codeId)) {
      // Nothing usable was persisted (or the code is open already): an empty tab helps nobody.
      panel.dispose();
      return;
    }
    this.adopt(parsed.codeId, panel, undefined);
  }

  private adopt(codeId: number, panel: vscode.WebviewPanel, listed: Code | undefined): CodeViewPanel {
    const view = new CodeViewPanel(codeId, panel, this, listed);
    this.panels.set(codeId, view);
    if (panel.active || !this.current) this.current = view;
    void vscode.commands.executeCommand('setContext', HAS_CODE_VIEW_CONTEXT, true);
    this.updateStarredContext();
    return view;
  }

  /**
   * Shows the order of the settings in every view: after the setting changed, from a view's switch,
   * the Settings editor or another window. Held back while a view's own choices are being written,
   * so that a view arrowing through its switch is not sent back the orders it passed on the way.
   */
  private orderChanged(): void {
    if (this.writingOrders > 0) return;
    const order = this.order();
    for (const view of this.panels.values()) view.showOrder(order);
  }

  async setOrder(order: RefactoringOrder): Promise<void> {
    this.writingOrders++;
    try {
      await this.actions.setOrder(order);
    } finally {
      this.writingOrders--;
      this.orderChanged();
    }
  }

  /** The order of the refactorings, as the settings say. */
  order(): RefactoringOrder {
    return this.settings.current.refactoringOrder;
  }

  setCurrent(view: CodeViewPanel): void {
    this.current = view;
    this.updateStarredContext();
  }

  forget(view: CodeViewPanel): void {
    if (this.panels.get(view.codeId) === view) this.panels.delete(view.codeId);
    if (this.current === view) this.current = [...this.panels.values()].pop();
    if (this.panels.size === 0) void vscode.commands.executeCommand('setContext', HAS_CODE_VIEW_CONTEXT, false);
    this.updateStarredContext();
  }

  /** Sets CODE_VIEW_STARRED_CONTEXT for the code the palette's Star and Unstar act on (currentCode). */
  updateStarredContext(): void {
    const code = this.currentCode();
    const starred = code !== undefined && this.stars.starredIn(code).some((t) => t.kind === 'code');
    if (starred === this.starredContext) return;
    this.starredContext = starred;
    void vscode.commands.executeCommand('setContext', CODE_VIEW_STARRED_CONTEXT, starred);
  }

  /** Hands `message` to the code view of `codeId` as if its webview had posted it (the test API's way in). */
  receive(codeId: number, message: unknown): Promise<void> {
    return this.panels.get(codeId)?.onMessage(message) ?? Promise.resolve();
  }

  /** Asks the service again for the code of an open view (after a change to it), or closes the view of a deleted code. */
  async changed(codeId: number, deleted = false): Promise<void> {
    const view = this.panels.get(codeId);
    if (deleted) view?.panel.dispose();
    else await view?.load();
  }

  /** The code of the code view a person looked at last (loaded), for palette commands. */
  currentCode(): Code | undefined {
    return this.current?.code;
  }
}
