// Where each Catalog list's pages come from: the client (with the language filter, falling back to
// filtering here where the service lacks the language form), saved to the offline store when they
// arrive, and read back from it when the service cannot be reached. No VS Code.
import { isApiError } from '../../core/errors';
import type { Code, Refactor } from '../../core/model';
import type { RefactorClient, RequestOpts } from '../../client/client';
import type { PageLoader } from './list';
import { fetchForLanguage } from './languageFilter';
import type { CachedPage, OfflineStore } from './offlineStore';

export type ListSpec =
  | { kind: 'recentCodes' }
  | { kind: 'popularCodes' }
  | { kind: 'tag'; tag: string }
  | { kind: 'recentRefactorings' };

/** A stable name for a list, used in tree ids and offline keys. */
export function listKey(spec: ListSpec): string {
  return spec.kind === 'tag' ? `tag:${spec.tag}` : spec.kind;
}

/** The original service documented language forms only for recent codes and tags; the others may 404 on them. */
function canFallBack(spec: ListSpec): boolean {
  return spec.kind === 'popularCodes' || spec.kind === 'recentRefactorings';
}

type Item<S extends ListSpec> = S extends { kind: 'recentRefactorings' } ? Refactor : Code;

function fetcher(client: RefactorClient, spec: ListSpec): (o: RequestOpts) => Promise<Array<Code | Refactor>> {
  switch (spec.kind) {
    case 'recentCodes': return (o) => client.recentCodes(o);
    case 'popularCodes': return (o) => client.popularCodes(o);
    case 'tag': return (o) => client.taggedCodes(spec.tag, o);
    case 'recentRefactorings': return (o) => client.recentRefactorings(o);
  }
}

export interface SourceContext {
  getClient(): Promise<RefactorClient>;
  /** The filter; '' for all languages. */
  language: string;
  offline: OfflineStore;
  /** Names the service in offline keys, so two services' lists never mix. */
  serviceKey: string;
  /** Wraps every request, e.g. to show progress. */
  wrapRequest?<R>(work: () => Promise<R>): Promise<R>;
}

export function pageLoader<S extends ListSpec>(spec: S, ctx: SourceContext): PageLoader<Item<S>> {
  return (page, { filteredHere }) => {
    const key = [ctx.serviceKey, listKey(spec), ctx.language.toLowerCase(), page].join('|');
    return keptOffline<Item<S>>(ctx, key, async () => {
      const fetch = fetcher(await ctx.getClient(), spec);
      const got = await fetchForLanguage(ctx.language, (language) => fetch({ language, page }), { canFallBack: canFallBack(spec), filteredHere });
      return { items: got.items as Array<Item<S>>, served: got.served.map((i) => i.id), filteredHere: got.filteredHere };
    });
  };
}

/** A code's refactorings (from the single-code response), kept offline like a list page. */
export async function loadRefactors(codeId: number, ctx: Omit<SourceContext, 'language'>): Promise<{ refactors: Refactor[]; cachedAt?: Date }> {
  const kept = await keptOffline<Refactor>(ctx, [ctx.serviceKey, `code:${codeId}`, 'refactors'].join('|'), async () => {
    const refactors = (await (await ctx.getClient()).code(codeId)).refactors ?? [];
    return { items: refactors, served: refactors.map((r) => r.id), filteredHere: false };
  });
  return kept.cachedAt ? { refactors: kept.items, cachedAt: kept.cachedAt } : { refactors: kept.items };
}

type Fetched<T extends Code | Refactor> = Omit<CachedPage<T>, 'savedAt'>;

/**
 * Runs `fetch` (inside `ctx.wrapRequest`), keeping its answer in the offline store under `key`; when it
 * fails for any reason but cancellation, answers with what was kept, its time and the live cause.
 */
async function keptOffline<T extends Code | Refactor>(
  ctx: Pick<SourceContext, 'offline' | 'wrapRequest'>,
  key: string,
  fetch: () => Promise<Fetched<T>>,
): Promise<Fetched<T> & { cachedAt?: Date; cause?: unknown }> {
  try {
    const result = await (ctx.wrapRequest ? ctx.wrapRequest(fetch) : fetch());
    // Kept in the background: VS Code writes its global state across processes (tens of ms), and the
    // rows need not wait for it. A full store must not turn a good answer into a failure.
    void ctx.offline.save(key, result).catch(() => undefined);
    return result;
  } catch (err) {
    if (isApiError(err) && err.kind === 'aborted') throw err;
    await ctx.offline.settled();
    const cached = ctx.offline.load<T>(key);
    if (!cached) throw err;
    return { items: cached.items, served: cached.served, filteredHere: cached.filteredHere, cachedAt: cached.savedAt, cause: err };
  }
}
