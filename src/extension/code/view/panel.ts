// The code view (webview panel type `refactorBrowser.code`): one panel per code, revealed when the
// code is opened again, restored after a window reload by the serializer from the {codeId} state the
// webview persists. The webview asks with `ready` (each time it is rebuilt, since its context is not
// retained while hidden); the panel answers with what it has: loading, the code, or a one-line error
// with Retry. Messages in are checked by the shared protocol; actions are delegated to the commands.
// The refactorings show in the order of refactorBrowser.refactoringOrder, which the view's switch
// writes and every open view follows. Here the open views and what they share; one view's state is
// state.ts's, what its webview is given render.ts's, what its webview asks messages.ts's.
import * as vscode from 'vscode';
import type { Logger } from '../../../client/logger';
import type { Code } from '../../../core/model';
import type { RefactoringOrder } from '../../../core/ratings';
import { titleOf } from '../../common/names';
import type { Section } from '../../../core/sections';
import { parseCodeViewState } from '../../../protocol/codeView';
import { ContextKeys } from '../../common/commandIds';
import { Disposable, toDisposable } from '../../common/dispose';
import type { KeptCode } from '../../stars/stars';
import type { Item, ItemTarget } from '../../common/items';
import type { ServiceConnection } from '../../service';
import type { SettingsSource } from '../../common/settings';
import { webviewOptions } from './render';
import { CodeViewPanel } from './state';

export const CODE_VIEW_TYPE = 'refactorBrowser.code';

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

export class CodeViewPanels extends Disposable implements vscode.WebviewPanelSerializer {
  private readonly panels = new Map<number, CodeViewPanel>();
  private current: CodeViewPanel | undefined;
  /** Orders the views asked for that are still being written to the settings. */
  private writingOrders = 0;
  /** What ContextKeys.codeViewStarred was last set to. */
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
    /** What search keeps of the current service: one of the places a code's author is named from. */
    readonly searchIndex: () => Promise<{ withListedAuthor(code: Code): Code } | undefined>,
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
    void vscode.commands.executeCommand('setContext', ContextKeys.hasCodeView, true);
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
    if (this.panels.size === 0) void vscode.commands.executeCommand('setContext', ContextKeys.hasCodeView, false);
    this.updateStarredContext();
  }

  /** Sets ContextKeys.codeViewStarred for the code the palette's Star and Unstar act on (currentCode). */
  updateStarredContext(): void {
    const code = this.currentCode();
    const starred = code !== undefined && this.stars.starredIn(code).some((t) => t.kind === 'code');
    if (starred === this.starredContext) return;
    this.starredContext = starred;
    void vscode.commands.executeCommand('setContext', ContextKeys.codeViewStarred, starred);
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
