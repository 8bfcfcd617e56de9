// The naming rules of src/api/names.ts in VS Code's display language, and the other small phrases
// rows and messages share.
import * as vscode from 'vscode';
import { authorOf as authorIn, titleOf as titleIn, type NameWords } from '../api/names';
import { formatCount, formatRating, isRated, ratingPhrase as ratingPhraseIn, type Rated, type RatingWords } from '../api/ratings';
import { titleOf as itemTitleIn, type Item, type Snippet } from './code/items';
import { formatDateTime as formatDateTimeIn, formatWhen } from '../api/dates';

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

const ratingWords: RatingWords = {
  get notRated() {
    return vscode.l10n.t('not rated');
  },
  rated: (rating) => vscode.l10n.t('rated {0}', rating),
  ratedOneVote: (rating) => vscode.l10n.t('rated {0} (1 vote)', rating),
  ratedVotes: (rating, votes) => vscode.l10n.t('rated {0} ({1} votes)', rating, votes),
};

/** `rated 4.5 (12 votes)` … `not rated`, as a sentence says it. */
export function ratingPhrase(r: Pick<Rated, 'rating' | 'ratingsCount'>): string {
  return ratingPhraseIn(r, ratingWords, vscode.env.language);
}

/** `★ 4.5 (12)`, `★ 4.5` with the votes unknown, as a row's description shows it; undefined when not rated. */
export function ratingBadge(r: Pick<Rated, 'rating' | 'ratingsCount'>): string | undefined {
  if (!isRated(r)) return undefined;
  const rating = formatRating(r.rating as number, vscode.env.language);
  return r.ratingsCount === null ? vscode.l10n.t('★ {0}', rating) : vscode.l10n.t('★ {0} ({1})', rating, formatCount(r.ratingsCount, vscode.env.language));
}

/** A date and time as tooltips and the code view show it, in VS Code's display language. */
export function formatDateTime(d: Date): string {
  return formatDateTimeIn(d, vscode.env.language);
}

/** `Posted Nov 26, 2026, 10:15 AM`: the line under a row's tooltip. */
export function postedOn(d: Date): string {
  return vscode.l10n.t('Posted {0}', formatDateTime(d));
}

/** A list's row note: `cached at 10:15` (today) or `cached on 11/25/26, 10:15`, with the filtered language when there is one. */
export function cachedNote(at: Date, filteredBy?: string): string {
  const when = formatWhen(at, vscode.env.language);
  if (filteredBy === undefined) return when.sameDay ? vscode.l10n.t('cached at {0}', when.text) : vscode.l10n.t('cached on {0}', when.text);
  return when.sameDay
    ? vscode.l10n.t('cached at {0} · {1}, filtered here', when.text, filteredBy)
    : vscode.l10n.t('cached on {0} · {1}, filtered here', when.text, filteredBy);
}

/** The row after a code's refactorings when they are the ones kept offline. */
export function keptNote(at: Date): string {
  const when = formatWhen(at, vscode.env.language);
  return when.sameDay
    ? vscode.l10n.t('cached at {0}: the service could not be reached', when.text)
    : vscode.l10n.t('cached on {0}: the service could not be reached', when.text);
}
