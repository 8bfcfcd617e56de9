// The rows of the Catalog tree: one TreeItem subclass per kind of row, placeholders included. Ids
// are paths from the root, so a code listed under two roots has two rows, each stable across
// refreshes. Tooltips are left undefined here: the provider fills them in resolveTreeItem.
import * as vscode from 'vscode';
import type { Code, Refactor } from '../../core/model';
import { Commands } from '../common/commandIds';
import { itemContext, rootContext, RowContext } from '../common/rows';
import { authorOf, ratingBadge, ratingPhrase, refactoringCount, titleOf } from '../common/names';
import type { ListSpec } from './listSources';
import { rootList, type RootKind } from './model';

export type { RootKind } from './model';

/**
 * Root rows in display order, with their labels (public names, in English) and
 * icons. Starred is shown only while something is starred.
 */
export function roots(): ReadonlyArray<{ kind: RootKind; label: string; icon: string }> {
  return [
    { kind: 'starred', label: vscode.l10n.t('Starred'), icon: 'star-full' },
    { kind: 'recentCodes', label: vscode.l10n.t('Recent Codes'), icon: 'history' },
    { kind: 'popularCodes', label: vscode.l10n.t('Popular Codes'), icon: 'star' },
    { kind: 'tags', label: vscode.l10n.t('Tags'), icon: 'tag' },
    { kind: 'recentRefactorings', label: vscode.l10n.t('Recent Refactorings'), icon: 'git-pull-request' },
  ];
}

export class RootNode extends vscode.TreeItem {
  override readonly contextValue: string;
  readonly parent = undefined;
  constructor(readonly kind: RootKind, label: string, icon: string) {
    super(label, vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `root:${kind}`;
    this.contextValue = rootContext(kind);
    this.iconPath = new vscode.ThemeIcon(icon);
  }

  /** The list this root shows; Tags shows tags, and Starred the stars, instead. */
  get list(): ListSpec | undefined {
    return rootList(this.kind);
  }
}

/** A saved tag under Tags (refactorBrowser.tags); expands to its codes. */
export class TagNode extends vscode.TreeItem {
  override readonly contextValue = RowContext.tag;
  constructor(readonly tag: string, readonly parent: RootNode) {
    super(tag, vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `${parent.id}/tag:${tag}`;
    this.iconPath = new vscode.ThemeIcon('tag');
  }

  get list(): ListSpec {
    return { kind: 'tag', tag: this.tag };
  }
}

/** A row that owns a paged list. */
export type ListOwner = RootNode | TagNode;

export class CodeNode extends vscode.TreeItem {
  override readonly contextValue: string;
  constructor(readonly code: Code, readonly parent: ListOwner, starred = false) {
    super(titleOf(code),
      code.refactorsCount === 0 ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `${parent.id}/code:${code.id}`;
    this.contextValue = itemContext('code', starred);
    const author = authorOf(code);
    const count = refactoringCount(code.refactorsCount ?? 0);
    this.description = [code.language, author, count].join(' · ');
    const label = starred
      ? vscode.l10n.t('{0}, {1}, by {2}, {3}, starred', this.label as string, code.language, author, count)
      : vscode.l10n.t('{0}, {1}, by {2}, {3}', this.label as string, code.language, author, count);
    this.accessibilityInformation = { label };
    this.iconPath = new vscode.ThemeIcon('file-code');
    this.command = { command: Commands.openCode, title: vscode.l10n.t('Open Code'), arguments: [this] };
  }
}

export class RefactorNode extends vscode.TreeItem {
  override readonly contextValue: string;
  constructor(readonly refactor: Refactor, readonly parent: RootNode | CodeNode, readonly codeTitle?: string, starred = false) {
    super(titleOf(refactor), vscode.TreeItemCollapsibleState.None);
    this.id = `${parent.id}/refactor:${refactor.id}`;
    this.contextValue = itemContext('refactor', starred);
    const author = authorOf(refactor);
    // The rating first: a code's refactorings are ordered by it, and a narrow view cuts the end off.
    this.description = [ratingBadge(refactor), author, codeTitle].filter((p) => p).join(' · ');
    const rating = ratingPhrase(refactor);
    // One whole sentence per case, so a translation can order each as its language says it.
    let label: string;
    if (codeTitle) {
      label = starred
        ? vscode.l10n.t('{0}, a refactoring of {1}, by {2}, {3}, starred', this.label as string, codeTitle, author, rating)
        : vscode.l10n.t('{0}, a refactoring of {1}, by {2}, {3}', this.label as string, codeTitle, author, rating);
    } else {
      label = starred
        ? vscode.l10n.t('{0}, a refactoring by {1}, {2}, starred', this.label as string, author, rating)
        : vscode.l10n.t('{0}, a refactoring by {1}, {2}', this.label as string, author, rating);
    }
    this.accessibilityInformation = { label };
    this.iconPath = new vscode.ThemeIcon('git-compare');
    this.command = { command: Commands.openCode, title: vscode.l10n.t('Open Code'), arguments: [this] };
  }
}

/** The last row of a list with more pages: clicking it fetches the next page into that list. */
export class LoadMoreNode extends vscode.TreeItem {
  override readonly contextValue = RowContext.loadMore;
  constructor(readonly parent: ListOwner) {
    super(vscode.l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None);
    this.id = `${parent.id}/more`;
    this.iconPath = new vscode.ThemeIcon('ellipsis');
    this.command = { command: Commands.loadMore, title: vscode.l10n.t('Load More'), arguments: [this] };
  }
}

/** Shown instead of children when a list is empty. */
export class EmptyNode extends vscode.TreeItem {
  override readonly contextValue = RowContext.empty;
  constructor(message: string, readonly parent: ListOwner | CodeNode) {
    super(message, vscode.TreeItemCollapsibleState.None);
    this.id = `${parent.id}/empty`;
    this.iconPath = new vscode.ThemeIcon('info');
  }
}

/** A line of information after a code's refactorings: that they are the ones kept from an earlier visit. */
export class NoteNode extends vscode.TreeItem {
  override readonly contextValue = RowContext.note;
  constructor(message: string, readonly parent: CodeNode) {
    super(message, vscode.TreeItemCollapsibleState.None);
    this.id = `${parent.id}/note`;
    this.iconPath = new vscode.ThemeIcon('history');
  }
}

/** Shown where loading failed, with the one-line cause; clicking it (or its Retry button) re-fetches that list only. */
export class ErrorNode extends vscode.TreeItem {
  override readonly contextValue = RowContext.error;
  constructor(cause: string, readonly parent: ListOwner | CodeNode) {
    super(vscode.l10n.t('Could not load: {0}', cause), vscode.TreeItemCollapsibleState.None);
    this.id = `${parent.id}/error`;
    this.iconPath = new vscode.ThemeIcon('error');
    this.tooltip = new vscode.MarkdownString().appendText(`${cause}\n\n${vscode.l10n.t('Click to retry; the log (Refactor Browser) has details.')}`);
    this.command = { command: Commands.retry, title: vscode.l10n.t('Retry'), arguments: [this] };
  }
}

export type CatalogNode = RootNode | TagNode | CodeNode | RefactorNode | LoadMoreNode | EmptyNode | NoteNode | ErrorNode;
