// The naming rules of src/api/names.ts in VS Code's display language, and the other small phrases
// rows and messages share.
import * as vscode from 'vscode';
import { authorOf as authorIn, titleOf as titleIn, type NameWords } from '../api/names';
import { titleOf as itemTitleIn, type Item, type Snippet } from './code/items';

export const words: NameWords = {
  code: (id) => vscode.l10n.t('Code #{0}', id),
  refactoring: (id) => vscode.l10n.t('Refactoring #{0}', id),
  user: (id) => vscode.l10n.t('user #{0}', id),
  get anonymous() {
    return vscode.l10n.t('anonymous');
  },
};

export function titleOf(item: Parameters<typeof titleIn>[0]): string {
  return titleIn(item, words);
}

export function authorOf(item: Parameters<typeof authorIn>[0]): string {
  return authorIn(item, words);
}

/** A code's or refactoring's title, whichever it is. */
export function itemTitle(item: Item): string {
  return itemTitleIn(item, words);
}

/** What a message calls a snippet: the item's title, or `user_spec.rb of <the item's title>`. */
export function snippetTitle(item: Item, snippet: Snippet): string {
  if (snippet.sectionTitle === undefined) return itemTitle(item);
  return vscode.l10n.t('{0} of {1}', snippet.sectionTitle || vscode.l10n.t('Untitled'), itemTitle(item));
}

/** `1 refactoring`, `3 refactorings`. */
export function refactoringCount(n: number): string {
  return n === 1 ? vscode.l10n.t('1 refactoring') : vscode.l10n.t('{0} refactorings', n);
}
