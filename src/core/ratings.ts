// How a code's refactorings are ordered and how a rating is said: one rule for the code view, the
// Catalog's rows and Compare All Refactorings. Pure, with no `vscode` import, so the webview uses it
// too. The words default to English; the extension and the code view pass their localized ones.
//
// The order (`refactorBrowser.refactoringOrder`):
// - bestRated: rated refactorings first, the highest rating first; equal ratings by more votes, then
//   the newest. Unrated ones (no rating, or no votes) follow, newest first.
// - newest / oldest: by the date posted. In every order a refactoring without a date comes after the
//   dated ones, and the id settles what is still equal (the higher first, as ids grow with time;
//   the lower first for oldest), so the order is total: the same refactorings always show the same way.

import { ENGLISH, ratingWords, type RatingWords } from './names';

/** The values of `refactorBrowser.refactoringOrder`, default first. */
export const REFACTORING_ORDERS = ['bestRated', 'newest', 'oldest'] as const;
export type RefactoringOrder = (typeof REFACTORING_ORDERS)[number];
export const DEFAULT_REFACTORING_ORDER: RefactoringOrder = 'bestRated';

export function isRefactoringOrder(v: unknown): v is RefactoringOrder {
  return typeof v === 'string' && (REFACTORING_ORDERS as readonly string[]).includes(v);
}

/** What the order reads of a refactoring: the model's (a Date) or the code view's (an ISO string). */
export interface Rated {
  id: number;
  rating: number | null;
  ratingsCount: number | null;
  createdAt: Date | string | null;
}

/**
 * Whether the refactoring has a rating to go by: a number, given by at least one vote. The service
 * writes an unrated refactoring as rating 0 with 0 votes; an unknown count (null) still counts as rated.
 */
export function isRated(r: Pick<Rated, 'rating' | 'ratingsCount'>): boolean {
  return r.rating !== null && Number.isFinite(r.rating) && r.ratingsCount !== 0;
}

/** Milliseconds since the epoch, or undefined for a missing or unreadable date. */
function timeOf(d: Date | string | null): number | undefined {
  if (d === null) return undefined;
  const t = typeof d === 'string' ? Date.parse(d) : d.getTime();
  return Number.isNaN(t) ? undefined : t;
}

/** The votes as a number to compare: an unknown count as none. */
function votesOf(r: Rated): number {
  return r.ratingsCount !== null && Number.isFinite(r.ratingsCount) ? r.ratingsCount : 0;
}

/** Dated before undated; then by time, later first when `newestFirst`. */
function byDate(a: Rated, b: Rated, newestFirst: boolean): number {
  const ta = timeOf(a.createdAt);
  const tb = timeOf(b.createdAt);
  if (ta === undefined || tb === undefined) return ta === tb ? 0 : ta === undefined ? 1 : -1;
  return newestFirst ? tb - ta : ta - tb;
}

function byRating(a: Rated, b: Rated): number {
  const ra = isRated(a);
  const rb = isRated(b);
  if (ra !== rb) return ra ? -1 : 1;
  if (!ra) return 0;
  return (b.rating as number) - (a.rating as number) || votesOf(b) - votesOf(a);
}

/** The comparator of `order` for Array.prototype.sort: negative when `a` shows before `b`. */
export function compareRefactorings(order: RefactoringOrder): (a: Rated, b: Rated) => number {
  switch (order) {
    case 'bestRated':
      return (a, b) => byRating(a, b) || byDate(a, b, true) || b.id - a.id;
    case 'newest':
      return (a, b) => byDate(a, b, true) || b.id - a.id;
    case 'oldest':
      return (a, b) => byDate(a, b, false) || a.id - b.id;
  }
}

/** A sorted copy. */
export function sortRefactorings<T extends Rated>(items: readonly T[], order: RefactoringOrder): T[] {
  return [...items].sort(compareRefactorings(order));
}

/**
 * The ids of the best-rated refactorings, marked as such in the code view: the highest rating with
 * the most votes. Refactorings tied on both are all marked (a date is no measure of quality). None
 * when nothing is rated, or when there is only one refactoring (there is nothing to be best among).
 */
export function bestRatedIds(items: readonly Rated[]): Set<number> {
  const rated = items.filter(isRated);
  if (items.length < 2 || rated.length === 0) return new Set();
  const [best] = [...rated].sort(byRating);
  return new Set(rated.filter((r) => byRating(r, best) === 0).map((r) => r.id));
}

/** A rating as people read it: at most one decimal (4.5, not 4.4999), in the locale's digits. */
export function formatRating(rating: number, locale?: string): string {
  return rating.toLocaleString(locale, { maximumFractionDigits: 1 });
}

/** A count in the locale's digits (1,234). */
export function formatCount(n: number, locale?: string): string {
  return n.toLocaleString(locale);
}

export const ENGLISH_RATING_WORDS: RatingWords = ratingWords(ENGLISH);

/** `rated 4.5 (12 votes)`, `rated 5 (1 vote)`, `rated 4.5` (votes unknown), or `not rated`. */
export function ratingPhrase(r: Pick<Rated, 'rating' | 'ratingsCount'>, words: RatingWords = ENGLISH_RATING_WORDS, locale?: string): string {
  if (!isRated(r)) return words.notRated;
  const rating = formatRating(r.rating as number, locale);
  if (r.ratingsCount === null) return words.rated(rating);
  return r.ratingsCount === 1 ? words.ratedOneVote(rating) : words.ratedVotes(rating, formatCount(r.ratingsCount, locale));
}
