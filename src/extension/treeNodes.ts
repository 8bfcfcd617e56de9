// The rows of the Catalog tree: one TreeItem subclass per kind of row, placeholders included.
import * as vscode from 'vscode';
import type { Code, Refactor } from '../api/model';

export type RootKind = 'recentCodes' | 'popularCodes' | 'tags' | 'recentRefactorings';

/** Root rows in display order, with their labels (public names: shared/CONTRACT.md). */
export const ROOTS: ReadonlyArray<{ kind: RootKind; label: string }> = [
  { kind: 'recentCodes', label: 'Recent Codes' },
  { kind: 'popularCodes', label: 'Popular Codes' },
  { kind: 'tags', label: 'Tags' },
  { kind: 'recentRefactorings', label: 'Recent Refactorings' },
];

export class RootNode extends vscode.TreeItem {
  override readonly contextValue: string;
  readonly parent = undefined;
  constructor(readonly kind: RootKind, label: string) {
    super(label, vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `root:${kind}`;
    this.contextValue = `refactorBrowser.root.${kind}`;
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export class CodeNode extends vscode.TreeItem {
  override readonly contextValue = 'refactorBrowser.code';
  constructor(readonly code: Code, readonly parent: RootNode | TagNode) {
    super(code.title || `Code #${code.id}`, vscode.TreeItemCollapsibleState.None);
    this.id = `${parent.id}/code:${code.id}`;
    this.description = [code.language, code.user?.name ?? 'anonymous', plural(code.refactorsCount ?? 0, 'refactoring')].join(' · ');
    this.tooltip = new vscode.MarkdownString().appendText(`${code.title}\n${this.description}`);
    this.iconPath = new vscode.ThemeIcon('file-code');
    this.command = { command: 'refactorBrowser.openCode', title: 'Open Code', arguments: [this] };
  }
}

export class RefactorNode extends vscode.TreeItem {
  override readonly contextValue = 'refactorBrowser.refactor';
  constructor(readonly refactor: Refactor, readonly parent: RootNode) {
    super(refactor.title || `Refactoring of code #${refactor.codeId}`, vscode.TreeItemCollapsibleState.None);
    this.id = `${parent.id}/refactor:${refactor.id}`;
    this.description = [refactor.language, refactor.userName || 'anonymous'].join(' · ');
    this.iconPath = new vscode.ThemeIcon('git-compare');
    this.command = { command: 'refactorBrowser.openCode', title: 'Open Code', arguments: [this] };
  }
}

/** A saved tag under Tags (refactorBrowser.tags). */
export class TagNode extends vscode.TreeItem {
  override readonly contextValue = 'refactorBrowser.tag';
  constructor(readonly tag: string, readonly parent: RootNode) {
    super(tag, vscode.TreeItemCollapsibleState.None);
    this.id = `${parent.id}/tag:${tag}`;
    this.iconPath = new vscode.ThemeIcon('tag');
  }
}

/** Shown instead of children when a list is empty. */
export class EmptyNode extends vscode.TreeItem {
  override readonly contextValue = 'refactorBrowser.empty';
  constructor(message: string, readonly parent: RootNode) {
    super(message, vscode.TreeItemCollapsibleState.None);
    this.id = `${parent.id}/empty`;
  }
}

/** Shown instead of children when loading them failed; clicking it retries. */
export class ErrorNode extends vscode.TreeItem {
  override readonly contextValue = 'refactorBrowser.error';
  constructor(message: string, readonly parent: RootNode) {
    super(message, vscode.TreeItemCollapsibleState.None);
    this.id = `${parent.id}/error`;
    this.iconPath = new vscode.ThemeIcon('error');
    this.tooltip = message;
    this.command = { command: 'refactorBrowser.refresh', title: 'Retry' };
  }
}

export type CatalogNode = RootNode | CodeNode | RefactorNode | TagNode | EmptyNode | ErrorNode;
