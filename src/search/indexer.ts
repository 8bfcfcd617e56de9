// Index the Catalog: pages recent codes and recent refactorings to their ends (every code and every
// refactoring, 25 a page) and each saved tag's codes (so that search knows a code's tags), into a
// CodeSearch. At most `concurrency` requests at a time (2 by default: a crawl must not crowd out the
// person browsing, nor a small service), the client's retries honouring Retry-After; the first
// error stops the run, keeping what it read. A later run stops each list where it reaches what the
// last full run of that list had read (its watermark), so refreshing costs a page or two per list.
// No `vscode` import: the extension and `refactor-browser search` both run it.
import type { RequestOpts } from '../client/client';
import { PAGE_SIZE, type Code, type Refactor } from '../core/model';
import type { CodeSearch, ListProgress as Position } from './searchIndex';

/** What the run asks the service for: a RefactorClient has all three. */
export interface IndexSource {
  recentCodes(o: RequestOpts): Promise<Code[]>;
  recentRefactorings(o: RequestOpts): Promise<Refactor[]>;
  taggedCodes(tag: string, o: RequestOpts): Promise<Code[]>;
}

export interface IndexProgress {
  /** Codes and refactorings search knows now. */
  codes: number;
  refactors: number;
  /** Pages read in this run. */
  pages: number;
}

export interface IndexRunOptions {
  source: IndexSource;
  index: CodeSearch;
  /** Saved tags whose codes are read too. */
  tags?: readonly string[];
  signal?: AbortSignal;
  /** Requests at a time (default 2). */
  concurrency?: number;
  onProgress?(progress: IndexProgress): void;
  /** Awaited after each page is taken in: the extension indexes a slice there and gives the host back. */
  afterPage?(): Promise<void>;
}

export interface IndexRunResult {
  /** Pages of the lists read, up to each list's end: a page past an end, asked for in flight, does not count whichever came first. */
  pages: number;
  /** Every list was read to its end (or to its watermark). */
  complete: boolean;
  /** Search is full (entries.ts bounds): the run stopped taking codes in. */
  full: boolean;
}

/** The run stopped on a failed request: the list, the page and the client's one-line error. */
export class IndexingError extends Error {
  constructor(readonly list: string, readonly page: number, override readonly cause: unknown, readonly pagesRead: number) {
    super(`could not read ${list}, page ${page}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** The run was cancelled (its signal aborted); what it read is kept. */
export class IndexingCancelled extends Error {
  constructor(readonly pagesRead: number) {
    super('indexing was cancelled');
  }
}


interface ListRun {
  /** The key of its watermark in the index, and its name in messages. */
  key: string;
  name: string;
  fetch(page: number, signal: AbortSignal): Promise<Array<Code | Refactor>>;
  take(items: Array<Code | Refactor>): { full: boolean };
  /** Where the last full run stopped: at or older than this is known. */
  watermark: Position | undefined;
  /** The newest item this run saw (page 1's first): the next watermark once the list is read to its end. */
  newest: Position | undefined;
  nextPage: number;
  done: boolean;
  /** Pages taken in; the watermark moves only when every page before the end was. */
  read: Set<number>;
  lastPage: number | undefined;
}

export async function indexCatalog(o: IndexRunOptions): Promise<IndexRunResult> {
  const { source, index } = o;
  const concurrency = Math.max(1, o.concurrency ?? 2);
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  o.signal?.addEventListener('abort', onAbort);
  const lists: ListRun[] = [
    list(index, 'codes', 'recent codes', (page, signal) => source.recentCodes({ page, signal }), (items) => index.addCodes(items as Code[])),
    list(index, 'refactors', 'recent refactorings', (page, signal) => source.recentRefactorings({ page, signal }), (items) => index.addRefactors(items as Refactor[])),
    ...[...new Set(o.tags ?? [])].map((tag) => list(index, `tag:${tag.toLowerCase()}`, `the codes tagged ${tag}`,
      (page, signal) => source.taggedCodes(tag, { page, signal }), (items) => index.addCodes(items as Code[], tag))),
  ];
  let pages = 0;
  let full = false;
  let failure: IndexingError | undefined;

  const report = (): void => {
    const { codes, refactors } = index.counts();
    o.onProgress?.({ codes, refactors, pages });
  };

  /** The next page to ask for: the first list not done, so that its pages come in order. */
  const nextJob = (): { run: ListRun; page: number } | undefined => {
    for (const run of lists) {
      if (run.done || (run.lastPage !== undefined && run.nextPage > run.lastPage)) continue;
      return { run, page: run.nextPage++ };
    }
    return undefined;
  };

  const worker = async (): Promise<void> => {
    for (let job = nextJob(); job && !failure && !full && !stop.signal.aborted; job = nextJob()) {
      const { run, page } = job;
      let items: Array<Code | Refactor>;
      try {
        items = await run.fetch(page, stop.signal);
      } catch (e) {
        if (stop.signal.aborted) return;
        failure ??= new IndexingError(run.name, page, e, pages);
        stop.abort();
        return;
      }
      if (stop.signal.aborted) return;
      if (run.done && run.lastPage !== undefined && page > run.lastPage) continue;
      pages++;
      run.read.add(page);
      if (page === 1) run.newest = positionOf(items[0]);
      if (run.take(items).full) full = true;
      const atEnd = items.length < PAGE_SIZE;
      const reachedKnown = run.watermark !== undefined && items.some((i) => isAtOrOlder(positionOf(i), run.watermark!));
      if (atEnd || reachedKnown) {
        run.lastPage = Math.min(run.lastPage ?? page, page);
        run.done = true;
      }
      report();
      await o.afterPage?.();
    }
  };

  // Codes come first, then the refactorings: each code is indexed once, when it is read whole.
  index.holdIncompleteCodes();
  try {
    report();
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    index.releaseIncompleteCodes();
  }
  // A list moves its watermark only when every page up to its end was read.
  let complete = true;
  for (const run of lists) {
    const whole = run.done && run.lastPage !== undefined && Array.from({ length: run.lastPage }, (_, i) => i + 1).every((p) => run.read.has(p));
    if (whole && run.newest) index.setListProgress(run.key, run.newest);
    else if (!whole) complete = false;
  }
  if (complete && !full) index.indexedAt = Date.now();
  if (failure) throw failure;
  if (o.signal?.aborted) throw new IndexingCancelled(pages);
  const listPages = lists.reduce((n, run) => n + [...run.read].filter((p) => run.lastPage === undefined || p <= run.lastPage).length, 0);
  return { pages: listPages, complete: complete && !full, full };
}

function list(index: CodeSearch, key: string, name: string, fetch: ListRun['fetch'], take: ListRun['take']): ListRun {
  const saved = index.listProgress(key);
  return {
    key, name, fetch, take, watermark: saved, newest: undefined,
    nextPage: 1, done: false, read: new Set(), lastPage: undefined,
  };
}

function positionOf(item: Code | Refactor | undefined): Position | undefined {
  if (!item) return undefined;
  return { at: item.createdAt?.getTime() ?? 0, id: item.id };
}

function isAtOrOlder(p: Position | undefined, mark: Position): boolean {
  // An item without a date says nothing about where the list is.
  if (!p || p.at === 0) return false;
  return p.at < mark.at || (p.at === mark.at && p.id <= mark.id);
}
