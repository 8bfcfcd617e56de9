// The Catalog tree (view `refactorBrowser.catalog`): renders the Catalog model (model.ts) as rows.
// Starred (while something is starred) and four roots whose lists are fetched when a root is
// expanded, page by page, with the language filter, error rows with Retry, cached lists when the
// service is down, and codes that expand to their refactorings, in the order of
// refactorBrowser.refactoringOrder. Failures become rows, never popups. What is loaded, failed or
// unreachable is the model's; the rows' words, icons, descriptions and tooltips are this file's.
import * as vscode from 'vscode';
import type { Logger } from '../../client/logger';
import { Disposable } from '../common/dispose';
import { logFailure } from '../common/errorReporting';
import type { Code, Refactor } from '../../core/model';
import { cachedNote, formatDateTime, keptNote, postedOn, titleOf } from '../common/names';
import { toVsCodeLanguageId } from '../../core/languages';
import type { OfflineStore } from './offlineStore';
import { CatalogModel, type CatalogService, type CatalogState, type CatalogStars, type ListNotes, type RowData } from './model';
import {
  CatalogNode, CodeNode, EmptyNode, ErrorNode, LoadMoreNode, NoteNode, RefactorNode, roots, RootNode, TagNode, type ListOwner,
} from './nodes';

export type { CatalogState } from './model';

/** How many lines of code a tooltip shows. */
const TOOLTIP_LINES = 12;

export class CatalogTreeProvider extends Disposable implements vscode.TreeDataProvider<CatalogNode> {
  private readonly changed = this._register(new vscode.EventEmitter<CatalogNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly roots = roots().map((r) => new RootNode(r.kind, r.label, r.icon));
  readonly model: CatalogModel;
  /** Fires the one-line cause when the service cannot be reached and nothing is shown, undefined when that ends. */
  readonly onDidChangeUnreachable: CatalogModel['onDidChangeUnreachable'];
  /** Fires when a list fails to load, or loads again after failing. */
  readonly onDidChangeFailures: CatalogModel['onDidChangeFailures'];

  constructor(
    service: CatalogService,
    state: CatalogState,
    offline: OfflineStore,
    logger: Logger,
    stars: CatalogStars,
    /** Wraps each request for the list or code `what` names (the view shows and says what is loading). */
    wrapRequest?: <R>(work: () => Promise<R>, what: string) => Promise<R>,
  ) {
    super();
    this.model = this._register(new CatalogModel({
      service, offline, stars, wrapRequest, logFailure: (failure, err) => logFailure(logger, failure, err),
    }, state));
    this.onDidChangeUnreachable = this.model.onDidChangeUnreachable;
    this.onDidChangeFailures = this.model.onDidChangeFailures;
    // Unreachable: the roots go, so that the view shows its welcome content.
    this._register(this.model.onDidChangeUnreachable((cause) => {
      if (cause !== undefined) this.changed.fire(undefined);
    }));
  }

  getTreeItem(node: CatalogNode): vscode.TreeItem {
    return node;
  }

  getParent(node: CatalogNode): CatalogNode | undefined {
    return node.parent;
  }

  async getChildren(node?: CatalogNode): Promise<CatalogNode[]> {
    if (!node) {
      const shown = this.model.roots();
      return this.roots.filter((r) => shown.includes(r.kind));
    }
    if (node instanceof RootNode && node.kind === 'starred') {
      return (await this.model.starredRows(labelText(node))).map((row) => this.nodeOf(row, node));
    }
    if (node instanceof RootNode && node.kind === 'tags') {
      const { tags } = this.model.state;
      return tags.length ? tags.map((t) => new TagNode(t, node)) : [new EmptyNode(vscode.l10n.t('No saved tags: use Add Tag…'), node)];
    }
    if (node instanceof RootNode || node instanceof TagNode) {
      const list = node.list;
      if (!list) return [];
      const { rows, notes } = await this.model.listRows({ id: node.id ?? '', label: labelText(node), list });
      this.showListNotes(node, notes);
      return rows.map((row) => this.nodeOf(row, node));
    }
    if (node instanceof CodeNode) {
      const rows = await this.model.refactorRows(node.code, { id: node.id ?? '', label: vscode.l10n.t('Refactorings of "{0}"', labelText(node)) });
      return rows.map((row) => this.nodeOf(row, node));
    }
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

  /** Every code and refactoring the tree has loaded (Go to Code picks from these). */
  loadedItems(): { codes: Code[]; refactors: Refactor[] } {
    return this.model.loadedItems();
  }

  /** True while the service cannot be reached and nothing is shown (the view shows its welcome content). */
  isUnreachable(): boolean {
    return this.model.isUnreachable();
  }

  /** The lists that failed to load (what the view says), oldest first. */
  failures(): Array<{ label: string; cause: string }> {
    return this.model.failures();
  }

  /**
   * New settings: a new language or service makes every list stale; a new order redraws the rows
   * from what is loaded (only codes' children change); new tags only the Tags root.
   */
  update(state: CatalogState): void {
    const { stale, reordered } = this.model.update(state);
    if (stale) this.redrawAll();
    else this.changed.fire(reordered ? undefined : this.roots.find((r) => r.kind === 'tags'));
  }

  /** Forgets every list and shows the roots again. */
  refresh(): void {
    this.model.refresh();
    this.redrawAll();
  }

  /** A star added or removed: Starred shows or hides, and every row says whether it is starred. */
  starsChanged(): void {
    this.changed.fire(undefined);
  }

  /** Fetches the next page into that list only. */
  async loadMore(node: LoadMoreNode): Promise<void> {
    if (await this.model.loadMore(node.parent.id ?? '')) this.changed.fire(node.parent);
  }

  /** Re-fetches only what the error row stands for. */
  async retry(node: ErrorNode): Promise<void> {
    const parent = node.parent;
    if (parent instanceof CodeNode) await this.model.retry({ kind: 'code', codeId: parent.code.id });
    else if (parent instanceof RootNode && parent.kind === 'starred') await this.model.retry({ kind: 'starred' });
    else await this.model.retry({ kind: 'list', ownerId: parent.id ?? '' });
    this.changed.fire(parent);
  }

  private redrawAll(): void {
    for (const root of this.roots) this.showListNotes(root, undefined);
    this.changed.fire(undefined);
  }

  /** The row for a model row under `parent`. */
  private nodeOf(row: RowData, parent: ListOwner | CodeNode): CatalogNode {
    switch (row.kind) {
      case 'code': return new CodeNode(row.code, parent as ListOwner, row.starred);
      case 'refactor': return new RefactorNode(row.refactor, parent as RootNode | CodeNode, row.codeTitle, row.starred);
      case 'loadMore': return new LoadMoreNode(parent as ListOwner);
      case 'note': return new NoteNode(keptNote(row.keptAt), parent as CodeNode);
      case 'error': return new ErrorNode(row.cause, parent);
      case 'empty': return new EmptyNode(
        row.of === 'stars' ? vscode.l10n.t('Nothing starred') : row.of === 'refactorings' ? vscode.l10n.t('No refactorings') : vscode.l10n.t('No codes'),
        parent);
    }
  }

  /** Marks a list's row when what it shows is cached or filtered here: one sentence for each case. */
  private showListNotes(owner: ListOwner, notes: ListNotes | undefined): void {
    const cachedAt = notes?.cachedAt;
    const filtered = notes?.filteredBy;
    const tip = new vscode.MarkdownString();
    tip.appendText(labelText(owner));
    if (cachedAt) tip.appendText(`\n\n${vscode.l10n.t('The service could not be reached: showing the list as it was on {0}.', formatDateTime(cachedAt))}`);
    if (filtered) tip.appendText(`\n\n${vscode.l10n.t('The service has no {0} form of this list: its pages are filtered here, so a page may show fewer codes.', filtered)}`);
    const description = cachedAt ? cachedNote(cachedAt, filtered) : filtered ? vscode.l10n.t('{0}, filtered here', filtered) : undefined;
    const tooltip = description === undefined ? undefined : tip;
    if (owner.description === description) return;
    owner.description = description;
    owner.tooltip = tooltip;
    this.changed.fire(owner);
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

/** A row's label as text: every row here is labelled with a string or a highlighted one. */
function labelText(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : item.label?.label ?? '';
}
