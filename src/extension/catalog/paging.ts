// When a list has no more pages. The service's paging is not fully specified: a page past the end
// may come back empty or short, and a service that ignores `?page` answers page 1 again, so the
// "Load more…" row goes away on any of the three.
import { PAGE_SIZE } from '../../core/model';

/**
 * True when `served` (the ids a page came back with, before any filtering here) ends its list:
 * empty, shorter than a full page, or the same ids as the page before.
 */
export function isLastPage(served: readonly number[], previous: readonly number[] | undefined, pageSize = PAGE_SIZE): boolean {
  if (served.length === 0 || served.length < pageSize) return true;
  return previous !== undefined && previous.length === served.length && previous.every((id, i) => id === served[i]);
}

/** Adds a page's items after those already listed, leaving out any already there (a page may overlap its neighbour). */
export function appendPage<T extends { id: number }>(listed: readonly T[], page: readonly T[]): T[] {
  const seen = new Set(listed.map((i) => i.id));
  return [...listed, ...page.filter((i) => !seen.has(i.id) && seen.add(i.id))];
}
