// The Catalog tree (view `refactorBrowser.catalog`): Starred (while something is starred) and four
// roots whose lists are fetched when a root is expanded, page by page, with the language filter,
// error rows with Retry, cached lists when the service is down, and codes that expand to their
// refactorings, in the order of refactorBrowser.refactoringOrder. Failures become rows, never popups.
import * as vscode from 'vscode';
import type { Logger } from '../../api/logger';
import { Disposable } from '../dispose';
import { logFailure } from '../errorReporting';
import type { Code, Refactor } from '../../api/model';
import { sortRefactorings, type RefactoringOrder } from '../../api/ratings';
import { cachedNote, formatDateTime, keptNote, postedOn, titleOf } from '../names';
import { CatalogList, causeOf, isUnreachable } from './list';
import { toVsCodeLanguageId } from '../../api/languages';
import { listKey, loadRefactors, pageLoader, type ListSpec, type SourceContext } from './listSources';
import type { OfflineStore } from './offlineStore';
import type { ServiceConnection } from '../service';
import type { Stars } from '../stars/stars';
import type { ItemTarget } from '../code/items';
import {
  CatalogNode, CodeNode, EmptyNode, ErrorNode, LoadMoreNode, NoteNode, RefactorNode, roots, RootNode, TagNode, type ListOwner,
} from './nodes';

/** How many lines of code a tooltip shows. */
const TOOLTIP_LINES = 12;

interface CodeChildren {
  refactors?: Refactor[];
  /** When the refactorings shown are the ones kept offline: the time they were kept. */
  cachedAt?: Date;
  error?: unknown;
  loading?: Promise<void>;
}

export interface CatalogState {
  /** The language every list is filtered by; '' for all. */
  language: string;
  tags: readonly string[];
  /** Names the service and the way to it (address, timeout, VS Code's network settings): a change means every list is stale. */
  service: string;
  /** The order a code's refactorings are shown in. */
  refactoringOrder: RefactoringOrder;
}

export class CatalogTreeProvider extends Disposable implements vscode.TreeDataProvider<CatalogNode> {
  private readonly changed = this._register(new vscode.EventEmitter<CatalogNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly unreachableChanged = this._register(new vscode.EventEmitter<string | undefined>());
  /** Fires the one-line cause when the service cannot be reached and nothing is shown, undefined when that ends. */
  readonly onDidChangeUnreachable = this.unreachableChanged.event;
  private readonly roots = roots().map((r) => new RootNode(r.kind, r.label, r.icon));
  private readonly lists = new Map<string, CatalogList<Code | Refactor>>();
  private readonly codeChildren = new Map<number, CodeChildren>();
  private unreachable: string | undefined;
  /** Why Starred could not fetch a starred code that is not kept here; asked again on Retry or Refresh. */
  private starredFailure: unknown;
  /** Failures already logged: a row re-rendered is not a new error. */
  private readonly logged = new WeakSet<object>();
  /** By row id, the lists that failed to load, with their label and cause, for the view to say. */
  private readonly failing = new Map<string, { label: string; cause: string }>();
  private readonly failuresChanged = this._register(new vscode.EventEmitter<void>());
  /** Fires when a list fails to load, or loads again after failing. */
  readonly onDidChangeFailures = this.failuresChanged.event;

  constructor(
    private readonly service: ServiceConnection,
    private state: CatalogState,
    private readonly offline: OfflineStore,
    private readonly logger: Logger,
    private readonly stars: Stars,
    /** Wraps each request for the list or code `what` names (the view shows and says what is loading). */
    private readonly around: <R>(work: () => Promise<R>, what: string) => Promise<R> = (work) => work(),
  ) {
    super();
  }

  getTreeItem(node: CatalogNode): vscode.TreeItem {
    return node;
  }

  getParent(node: CatalogNode): CatalogNode | undefined {
    return node.parent;
  }

  async getChildren(node?: CatalogNode): Promise<CatalogNode[]> {
    // Empty, so the view shows its welcome content (package.json viewsWelcome).
    if (!node) {
      if (this.unreachable) return [];
      const starred = this.stars.current().length > 0;
      return this.roots.filter((r) => r.kind !== 'starred' || starred);
    }
    if (node instanceof RootNode && node.kind === 'starred') return this.starredRows(node);
    if (node instanceof RootNode && node.kind === 'tags') {
      return this.state.tags.length ? this.state.tags.map((t) => new TagNode(t, node)) : [new EmptyNode(vscode.l10n.t('No saved tags: use Add Tag…'), node)];
    }
    if (node instanceof RootNode || node instanceof TagNode) return this.listRows(node);
    if (node instanceof CodeNode) return this.refactorRows(node);
    return [];
  }

  /** The tooltip, built only when a row is hovered. Untrusted: no command links, no HTML. */
  resolveTreeItem(item: vscode.TreeItem, node: CatalogNode): vscode.TreeItem {
    if (item.tooltip !== undefined) return item;
    if (node instanceof CodeNode) item.tooltip = tooltip(node.code.title, node.code.comment, node.code.createdAt, node.code.code, node.code.language);
    else if (node instanceof RefactorNode) {
      const r = node.refactor;
      item.tooltip = tooltip(titleOf(r), r.comment, r.createdAt, r.code, r.language);
    }
    return item;
  }

  /**
   * Every code and refactoring the tree has loaded (Go to Code picks from these). A list's items are
   * told apart by shape (a refactoring names its code), not by the list's key, which is its row's id.
   */
  loadedItems(): { codes: Code[]; refactors: Refactor[] } {
    const codes: Code[] = [];
    const refactors: Refactor[] = [];
    for (const list of this.lists.values()) {
      for (const item of list.items) {
        if ('codeId' in item) refactors.push(item);
        else codes.push(item);
      }
    }
    for (const c of this.codeChildren.values()) refactors.push(...(c.refactors ?? []));
    return { codes, refactors };
  }

  /** True while the service cannot be reached and nothing is shown (the view shows its welcome content). */
  isUnreachable(): boolean {
    return this.unreachable !== undefined;
  }

  /**
   * New settings: a new language or service makes every list stale; a new order redraws the rows
   * from what is loaded (only codes' children change); new tags only the Tags root.
   */
  update(state: CatalogState): void {
    const stale = state.language !== this.state.language || state.service !== this.state.service;
    const reordered = state.refactoringOrder !== this.state.refactoringOrder;
    this.state = state;
    if (stale) this.refresh();
    else this.changed.fire(reordered ? undefined : this.roots.find((r) => r.kind === 'tags'));
  }

  /**
   * Forgets every list and shows the roots again; what the client holds is asked for again, which
   * its ETags keep cheap for unchanged lists.
   */
  refresh(): void {
    this.service.expireHeld();
    this.lists.clear();
    this.codeChildren.clear();
    this.starredFailure = undefined;
    for (const root of this.roots) this.describe(root, undefined);
    if (this.failing.size) {
      this.failing.clear();
      this.failuresChanged.fire();
    }
    this.setUnreachable(undefined);
    this.changed.fire(undefined);
  }

  /** A star added or removed: Starred shows or hides, and every row says whether it is starred. */
  starsChanged(): void {
    this.changed.fire(undefined);
  }

  /** Fetches the next page into that list only. */
  async loadMore(node: LoadMoreNode): Promise<void> {
    const list = this.lists.get(node.parent.id ?? '');
    if (!list) return;
    await list.loadMore();
    this.changed.fire(node.parent);
  }

  /** Re-fetches only what the error row stands for. */
  async retry(node: ErrorNode): Promise<void> {
    const parent = node.parent;
    if (parent instanceof CodeNode) {
      this.codeChildren.delete(parent.code.id);
    } else if (parent instanceof RootNode && parent.kind === 'starred') {
      this.starredFailure = undefined;
    } else {
      await this.lists.get(parent.id ?? '')?.retry();
    }
    this.setUnreachable(undefined);
    this.changed.fire(parent);
  }

  private listFor(owner: ListOwner, spec: ListSpec): CatalogList<Code | Refactor> {
    const key = owner.id ?? listKey(spec);
    let list = this.lists.get(key);
    if (!list) {
      list = new CatalogList<Code | Refactor>(pageLoader(spec, { ...this.sources(String(owner.label)), language: this.state.language }));
      this.lists.set(key, list);
    }
    return list;
  }

  private async listRows(owner: ListOwner): Promise<CatalogNode[]> {
    const spec = owner.list;
    if (!spec) return [];
    const list = this.listFor(owner, spec);
    await list.ensureFirstPage();
    if (list.error !== undefined && !this.logged.has(Object(list.error))) {
      this.logged.add(Object(list.error));
      logFailure(this.logger, `Could not load ${String(owner.label)}`, list.error);
      if (isUnreachable(list.error) && this.nothingShown()) this.setUnreachable(causeOf(list.error));
    }
    this.describe(owner, list);
    this.noteFailure(owner.id ?? '', String(owner.label), list.error);
    const rows: CatalogNode[] = list.items.map((item) => ('codeId' in item
      ? new RefactorNode(item, owner as RootNode, this.codeTitle(item.codeId), this.starred({ kind: 'refactor', codeId: item.codeId, refactorId: item.id }))
      : new CodeNode(item, owner, this.starred({ kind: 'code', codeId: item.id }))));
    if (list.error !== undefined) rows.push(new ErrorNode(causeOf(list.error), owner));
    else if (list.hasMore) rows.push(new LoadMoreNode(owner));
    else if (rows.length === 0) rows.push(new EmptyNode(spec.kind === 'recentRefactorings' ? vscode.l10n.t('No refactorings') : vscode.l10n.t('No codes'), owner));
    return rows;
  }

  private async refactorRows(node: CodeNode): Promise<CatalogNode[]> {
    let entry = this.codeChildren.get(node.code.id);
    if (!entry) {
      const fresh: CodeChildren = {};
      fresh.loading = loadRefactors(node.code.id, this.sources(vscode.l10n.t('Refactorings of "{0}"', String(node.label)))).then(
        (got) => {
          fresh.refactors = got.refactors;
          fresh.cachedAt = got.cachedAt;
        },
        async (err: unknown) => {
          // A starred code is kept whole: read offline from its copy.
          const kept = await this.stars.keptCopy(node.code.id);
          if (kept) {
            fresh.refactors = kept.code.refactors ?? [];
            fresh.cachedAt = kept.keptAt;
            return;
          }
          fresh.error = err;
          logFailure(this.logger, `Could not load the refactorings of code #${node.code.id}`, err);
        },
      );
      this.codeChildren.set(node.code.id, fresh);
      entry = fresh;
    }
    await entry.loading;
    this.noteFailure(node.id ?? '', vscode.l10n.t('Refactorings of "{0}"', String(node.label)), entry.error);
    if (entry.error !== undefined) return [new ErrorNode(causeOf(entry.error), node)];
    const refactors = sortRefactorings(entry.refactors ?? [], this.state.refactoringOrder);
    const rows: CatalogNode[] = refactors.length
      ? refactors.map((r) => new RefactorNode(r, node, node.code.title, this.starred({ kind: 'refactor', codeId: r.codeId, refactorId: r.id })))
      : [new EmptyNode(vscode.l10n.t('No refactorings'), node)];
    if (entry.cachedAt) rows.push(new NoteNode(keptNote(entry.cachedAt), node));
    return rows;
  }

  /**
   * The current service's stars, newest first, each from the copy kept of its code (so they show
   * offline); a star whose code is not kept on this machine yet is fetched and kept now.
   */
  private async starredRows(root: RootNode): Promise<CatalogNode[]> {
    const { rows, failure } = await this.around(() => this.stars.withCodes(this.starredFailure), String(root.label));
    this.starredFailure = failure;
    const nodes: CatalogNode[] = [];
    for (const { star, code } of rows) {
      if (star.kind === 'code') {
        nodes.push(new CodeNode(code, root, true));
        continue;
      }
      const refactor = code.refactors?.find((r) => r.id === star.refactorId);
      // Gone from its code on the service: the star stays (Unstar it from the palette or the code view).
      if (refactor) nodes.push(new RefactorNode(refactor, root, code.title, true));
    }
    if (failure !== undefined) {
      if (!this.logged.has(Object(failure))) {
        this.logged.add(Object(failure));
        logFailure(this.logger, 'Could not load a starred code', failure);
      }
      nodes.push(new ErrorNode(causeOf(failure), root));
    } else if (nodes.length === 0) nodes.push(new EmptyNode(vscode.l10n.t('Nothing starred'), root));
    return nodes;
  }

  private starred(target: ItemTarget): boolean {
    return this.stars.isStarred(target);
  }

  /** Where the list or code `what` names comes from: this service, kept offline under its name. */
  private sources(what: string): Omit<SourceContext, 'language'> {
    return {
      getClient: () => this.service.getClient(),
      offline: this.offline,
      serviceKey: this.service.name(),
      around: (work) => this.around(work, what),
    };
  }

  /** The lists that failed to load (what the view says), oldest first. */
  failures(): Array<{ label: string; cause: string }> {
    return [...this.failing.values()];
  }

  private noteFailure(id: string, label: string, error: unknown): void {
    const cause = error === undefined ? undefined : causeOf(error);
    if (this.failing.get(id)?.cause === cause) return;
    if (cause === undefined) this.failing.delete(id);
    else this.failing.set(id, { label, cause });
    this.failuresChanged.fire();
  }

  private codeTitle(codeId: number): string | undefined {
    for (const list of this.lists.values()) {
      for (const item of list.items) if (!('codeId' in item) && item.id === codeId) return item.title;
    }
    return undefined;
  }

  private nothingShown(): boolean {
    return this.stars.current().length === 0 && [...this.lists.values()].every((l) => l.items.length === 0);
  }

  /** Marks a list's row when what it shows is cached or filtered here: one sentence for each case. */
  private describe(owner: ListOwner, list: CatalogList<Code | Refactor> | undefined): void {
    const cachedAt = list?.cachedAt;
    const filtered = list?.filteredHere && this.state.language ? this.state.language : undefined;
    const tip = new vscode.MarkdownString();
    tip.appendText(String(owner.label));
    if (cachedAt) tip.appendText(`\n\n${vscode.l10n.t('The service could not be reached: showing the list as it was on {0}.', formatDateTime(cachedAt))}`);
    if (filtered) tip.appendText(`\n\n${vscode.l10n.t('The service has no {0} form of this list: its pages are filtered here, so a page may show fewer codes.', filtered)}`);
    const description = cachedAt ? cachedNote(cachedAt, filtered) : filtered ? vscode.l10n.t('{0}, filtered here', filtered) : undefined;
    const tooltip = description === undefined ? undefined : tip;
    if (owner.description === description) return;
    owner.description = description;
    owner.tooltip = tooltip;
    this.changed.fire(owner);
  }

  private setUnreachable(cause: string | undefined): void {
    if (this.unreachable === cause) return;
    this.unreachable = cause;
    this.unreachableChanged.fire(cause);
    if (cause !== undefined) this.changed.fire(undefined);
  }
}

function tooltip(title: string, comment: string, date: Date | null, code: string, language: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.isTrusted = false;
  md.supportHtml = false;
  md.appendText(title);
  if (comment.trim()) md.appendText(`\n\n${comment.trim()}`);
  if (date && !Number.isNaN(date.getTime())) md.appendText(`\n\n${postedOn(date)}`);
  const lines = code.split(/\r?\n/);
  const shown = lines.slice(0, TOOLTIP_LINES).join('\n') + (lines.length > TOOLTIP_LINES ? '\n…' : '');
  if (shown.trim()) md.appendMarkdown('\n\n').appendCodeblock(shown, toVsCodeLanguageId(language));
  return md;
}
