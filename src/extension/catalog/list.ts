// One list of the Catalog (Recent Codes, Popular Codes, a tag, Recent Refactorings) as it pages in:
// the items so far, whether there are more, the last failure, and whether what is shown came from
// the offline store or was filtered here. No VS Code: the tree renders this state.
import { isApiError } from '../../core/errors';
import { appendPage, isLastPage } from './paging';

/** What a loader returns for one page. */
export interface LoadedPage<T> {
  items: T[];
  /** Ids as the service served them, before any filtering here. */
  served: number[];
  filteredHere: boolean;
  /** Set when the service could not be reached and the page came from the offline store. */
  cachedAt?: Date;
  /** Why the live request failed, when the page is a cached one. */
  cause?: unknown;
}

export type PageLoader<T> = (page: number, options: { filteredHere: boolean }) => Promise<LoadedPage<T>>;

/** The one-line cause of a failure, without the URL (the log has it). */
export function causeOf(err: unknown): string {
  if (isApiError(err)) return err.reason;
  return err instanceof Error ? err.message : String(err);
}

/** Failures that mean "the service cannot be reached" rather than "it answered badly". */
export function isUnreachable(err: unknown): boolean {
  return isApiError(err) && (err.kind === 'connection' || err.kind === 'timeout');
}

export class CatalogList<T extends { id: number }> {
  private listed: T[] = [];
  private lastServed: number[] | undefined;
  private pages = 0;
  private more = true;
  private loading: Promise<void> | undefined;
  private failure: unknown;
  private filtered = false;
  private cached: Date | undefined;

  constructor(private readonly loader: PageLoader<T>) {}

  get items(): readonly T[] {
    return this.listed;
  }
  get pagesLoaded(): number {
    return this.pages;
  }
  /** True while "Load more…" should be offered. */
  get hasMore(): boolean {
    return this.pages > 0 && this.more && this.failure === undefined;
  }
  /** The failure of the last load, if it failed (cleared by the next attempt). */
  get error(): unknown {
    return this.failure;
  }
  get filteredHere(): boolean {
    return this.filtered;
  }
  /** When the oldest page shown was saved, if any page shown comes from the offline store. */
  get cachedAt(): Date | undefined {
    return this.cached;
  }
  get isLoading(): boolean {
    return this.loading !== undefined;
  }

  /** Loads page 1 unless it is loaded (or loading); concurrent callers share the load. */
  ensureFirstPage(): Promise<void> {
    if (this.pages > 0 || (this.failure !== undefined && !this.loading)) return this.loading ?? Promise.resolve();
    return this.next();
  }

  /** Loads the next page (or retries the one that failed). */
  loadMore(): Promise<void> {
    if (this.pages > 0 && !this.more && this.failure === undefined) return Promise.resolve();
    return this.next();
  }

  /** Retries: after a failure of page 1 the list starts over; after a later page's failure, that page again. */
  retry(): Promise<void> {
    this.failure = undefined;
    return this.pages === 0 ? this.ensureFirstPage() : this.loadMore();
  }

  private next(): Promise<void> {
    this.loading ??= (async () => {
      this.failure = undefined;
      try {
        const page = await this.loader(this.pages + 1, { filteredHere: this.filtered });
        const last = isLastPage(page.served, this.lastServed);
        const repeated = this.lastServed !== undefined && last && page.served.length > 0
          && page.served.length === this.lastServed.length && page.served.every((id, i) => id === this.lastServed?.[i]);
        if (!repeated) this.listed = appendPage(this.listed, page.items);
        this.lastServed = page.served;
        this.pages += 1;
        this.more = !last;
        this.filtered = page.filteredHere;
        if (page.cachedAt && (!this.cached || page.cachedAt < this.cached)) this.cached = page.cachedAt;
      } catch (err) {
        this.failure = err;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}
