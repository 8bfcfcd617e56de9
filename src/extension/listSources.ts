// Where each Catalog list's pages come from: the client (with the language filter, falling back to
// filtering here where the service lacks the language form), saved to the offline store when they
// arrive, and read back from it when the service cannot be reached. No VS Code.
import { isApiError } from '../api/errors';
import type { Code, Refactor } from '../api/model';
import type { RefactorClient, RequestOpts } from '../api/client';
import type { PageLoader } from './catalogList';
import { fetchForLanguage } from './languageFilter';
import type { OfflineStore } from './offlineStore';

export type ListSpec =
  | { kind: 'recentCodes' }
  | { kind: 'popularCodes' }
  | { kind: 'tag'; tag: string }
  | { kind: 'recentRefactorings' };

/** A stable name for a list, used in tree ids and offline keys. */
export function listKey(spec: ListSpec): string {
  return spec.kind === 'tag' ? `tag:${spec.tag}` : spec.kind;
}

/** The spec shows language forms only for recent codes and tags; the others may 404 on them. */
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
  around?<R>(work: () => Promise<R>): Promise<R>;
}

export function pageLoader<S extends ListSpec>(spec: S, ctx: SourceContext): PageLoader<Item<S>> {
  return async (page, { filteredHere }) => {
    const key = [ctx.serviceKey, listKey(spec), ctx.language.toLowerCase(), page].join('|');
    const work = async () => {
      const fetch = fetcher(await ctx.getClient(), spec);
      return fetchForLanguage(ctx.language, (language) => fetch({ language, page }), { canFallBack: canFallBack(spec), filteredHere });
    };
    try {
      const got = await (ctx.around ? ctx.around(work) : work());
      const result = { items: got.items as Array<Item<S>>, served: got.served.map((i) => i.id), filteredHere: got.filteredHere };
      // A full store must not turn a good answer into a failure.
      await ctx.offline.save(key, result).then(undefined, () => undefined);
      return result;
    } catch (err) {
      if (isApiError(err) && err.kind === 'aborted') throw err;
      const cached = ctx.offline.load<Item<S>>(key);
      if (!cached) throw err;
      return { items: cached.items, served: cached.served, filteredHere: cached.filteredHere, cachedAt: cached.savedAt, cause: err };
    }
  };
}
