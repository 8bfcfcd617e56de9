// The naming rules of src/core/names.ts in VS Code's display language, and the other small phrases
// rows and messages share.
import * as vscode from 'vscode';
import { authorOf as authorIn, nameWords, ratingWords, titleOf as titleIn, type NameWords } from '../../core/names';
import { formatCount, formatRating, isRated, ratingPhrase as ratingPhraseIn, type Rated } from '../../core/ratings';
import type { Item, Snippet } from './items';
import { formatDateTime as formatDateTimeIn, formatWhen } from '../../core/dates';

export const words: NameWords = nameWords(vscode.l10n);

/** The title of a code, a refactoring or an item holding one, in VS Code's display language. */
export function titleOf(item: Parameters<typeof titleIn>[0]): string {
  return titleIn(item, words);
}

export function authorOf(item: Parameters<typeof authorIn>[0]): string {
  return authorIn(item, words);
}

/** What a message calls a snippet: the item's title, or `user_spec.rb of <the item's title>`. */
export function snippetTitle(item: Item, snippet: Snippet): string {
  if (snippet.sectionTitle === undefined) return titleOf(item);
  return vscode.l10n.t('{0} of {1}', snippet.sectionTitle || vscode.l10n.t('Untitled'), titleOf(item));
}

/** The display language's plural rules, made once: every code row asks them for its count. */
let plurals: { language: string; rules: Intl.PluralRules } | undefined;

/** Whether `n` takes the singular in VS Code's display language (English: only 1; others differ). */
export function isOne(n: number): boolean {
  const language = vscode.env.language;
  // English without ICU's plural rules, whose data the first Intl.PluralRules loads: the Catalog's
  // first expansion asks this of every code row.
  if (language === 'en' || language.startsWith('en-')) return n === 1;
  if (plurals?.language !== language) plurals = { language, rules: new Intl.PluralRules(language) };
  return plurals.rules.select(n) === 'one';
}

// Counts are written as plain digits: the first number formatted through Intl loads ICU's number
// data, tens of milliseconds that would land on the Catalog's first expansion (every code row has one).

/** `1 code`, `3 codes`. */
export function codeCount(n: number): string {
  return isOne(n) ? vscode.l10n.t('{0} code', n) : vscode.l10n.t('{0} codes', n);
}

/** `1 refactoring`, `3 refactorings`. */
export function refactoringCount(n: number): string {
  return isOne(n) ? vscode.l10n.t('{0} refactoring', n) : vscode.l10n.t('{0} refactorings', n);
}

/** `Recent Codes, Popular Codes and Tags`: a list as a sentence says it in VS Code's display language. */
export function listOf(items: readonly string[]): string {
  return new Intl.ListFormat(vscode.env.language, { type: 'conjunction' }).format(items);
}

const localRatingWords = ratingWords(vscode.l10n);

/** `rated 4.5 (12 votes)` … `not rated`, as a sentence says it. */
export function ratingPhrase(r: Pick<Rated, 'rating' | 'ratingsCount'>): string {
  return ratingPhraseIn(r, localRatingWords, vscode.env.language);
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
