// One code view's state: loading, the code shown (from the service, or the copy kept of a starred
// code when the service cannot be reached), or a one-line error with Retry; whether its webview is
// ready to be told, and what it shows. What its webview is given is render.ts's; what the webview asks,
// messages.ts's.
import * as vscode from 'vscode';
import { withAuthor } from '../../../client/author';
import type { Code } from '../../../core/model';
import type { RefactoringOrder } from '../../../core/ratings';
import { titleOf } from '../../common/names';
import { codeRefOf, codeUrl, pageUrl } from '../../../client/urls';
import type { BlockTarget, ToWebview } from '../../../protocol/codeView';
import { Disposable, toDisposable } from '../../common/dispose';
import { logFailure, oneLine } from '../../common/errorReporting';
import { isApiError } from '../../../core/errors';
import type { Item } from '../../common/items';
import type { CodeViewPanels } from './panel';
import { blocksOf, codeViewHtml, showMessage, webviewOptions } from './render';
import { handleMessage } from './messages';

/** How long a code view waits for its author's name before it shows the code without it. */
const AUTHOR_WAIT_MS = 5_000;

/** What is shown once the code is fetched: `keptAt`, the copy kept of a starred code, since the service could not be reached. */
export type ShownState = { kind: 'shown'; code: Code; pageUrl: string; keptAt?: Date };

type ViewState =
  | { kind: 'loading' }
  | ShownState
  | { kind: 'error'; message: string };

export class CodeViewPanel extends Disposable {
  private state: ViewState = { kind: 'loading' };
  private ready = false;
  private pendingReveal: number | undefined;
  /** The order the webview shows its refactorings in, once it shows them. */
  private shownOrder: RefactoringOrder | undefined;
  private loads = 0;

  constructor(
    readonly codeId: number,
    readonly panel: vscode.WebviewPanel,
    readonly owner: CodeViewPanels,
    /** The code as a list gave it, when it was opened from one. */
    private listed: Code | undefined,
  ) {
    super();
    panel.webview.options = webviewOptions(owner.extensionUri);
    panel.title = titleOf({ id: codeId, title: '' });
    panel.webview.html = codeViewHtml(panel, owner.extensionUri);
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

  /** The webview shows `order` already: its switch picked it. */
  orderShown(order: RefactoringOrder): void {
    this.shownOrder = order;
  }

  /** The webview asked for what to show (each time it is rebuilt). */
  webviewReady(): void {
    this.ready = true;
    this.render();
  }

  async load(): Promise<void> {
    const load = ++this.loads;
    this.state = { kind: 'loading' };
    this.render();
    try {
      const client = await this.owner.service.getClient();
      const fetched = await client.code(this.codeId);
      if (load !== this.loads) return; // a Retry overtook this load
      // The single-code answer names its author by user-id alone: the list the code was picked from,
      // search, or the service names them; not for longer than AUTHOR_WAIT_MS ("user #N" after it).
      const code = await withAuthor(fetched, {
        listed: this.listed,
        index: this.owner.searchIndex,
        client,
        signal: AbortSignal.timeout(AUTHOR_WAIT_MS),
        failed: (source, err) => {
          if (source === 'index') logFailure(this.owner.logger, `Could not read search's index for the author of code #${this.codeId}`, err);
        },
      });
      if (load !== this.loads) return;
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
        const order = this.owner.order();
        this.shownOrder = order;
        // A kept copy is not the service's answer: nothing in it is offered to change.
        const me = s.keptAt ? undefined : this.owner.account.userId();
        this.post(showMessage(s, order, this.owner.stars.starredIn(s.code), reveal, me));
        break;
      }
    }
  }

  private post(message: ToWebview): void {
    void this.panel.webview.postMessage(message);
  }

  /** Handles a message from the webview; resolves once the action it asked for is done. */
  onMessage(raw: unknown): Promise<void> {
    return handleMessage(this, raw);
  }

  /** The item of the shown code a block of the webview names, if it is there. */
  itemOf(target: BlockTarget): Item | undefined {
    const code = this.code;
    if (!code) return undefined;
    if (target.kind === 'code') return target.id === code.id ? { kind: 'code', code } : undefined;
    const refactor = code.refactors?.find((r) => r.id === target.id);
    return refactor && { kind: 'refactor', refactor };
  }
}
