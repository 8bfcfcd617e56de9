// The Catalog as data, without VS Code: which roots show, each list as it pages in (listed items,
// Load More, an error, or nothing), a code's refactorings in the chosen order (from the service, the
// offline store, or a starred code's kept copy), the stars with their codes, the lists that failed
// and why, and whether the service cannot be reached at all. tree.ts renders it; unit tests run it
// under plain mocha against the reference service.
import type { RefactorClient } from '../../client/client';
import type { Code, Refactor } from '../../core/model';
import { sortRefactorings, type RefactoringOrder } from '../../core/ratings';
import type { ItemTarget } from '../common/items';
import { Disposable } from '../common/dispose';
import { Emitter } from '../common/events';
import type { Star } from '../stars/starList';
import { CatalogList, causeOf, isUnreachable } from './list';
import { listKey, loadRefactors, pageLoader, type ListSpec, type SourceContext } from './listSources';
import type { OfflineStore } from './offlineStore';

export type RootKind = 'starred' | 'recentCodes' | 'popularCodes' | 'tags' | 'recentRefactorings';

/** The roots in display order. */
export const ROOT_KINDS: readonly RootKind[] = ['starred', 'recentCodes', 'popularCodes', 'tags', 'recentRefactorings'];

/** The list a root shows; Tags shows tags, and Starred the stars, instead. */
export function rootList(kind: RootKind): ListSpec | undefined {
  return kind === 'tags' || kind === 'starred' ? undefined : { kind };
}

export interface CatalogState {
  /** The language every list is filtered by; '' for all. */
  language: string;
  tags: readonly string[];
  /** Names the service and the way to it (address, timeout, VS Code's network settings): a change means every list is stale. */
  service: string;
  /** The order a code's refactorings are shown in. */
  refactoringOrder: RefactoringOrder;
}

/** A row under a list, a code or Starred, as data; the tree makes it a TreeItem. */
export type RowData =
  | { kind: 'code'; code: Code; starred: boolean }
  /** `codeTitle`: the title of the code refactored, where it is known. */
  | { kind: 'refactor'; refactor: Refactor; codeTitle?: string; starred: boolean }
  | { kind: 'loadMore' }
  | { kind: 'empty'; of: 'codes' | 'refactorings' | 'stars' }
  /** After a code's refactorings when they are the ones kept from an earlier visit. */
  | { kind: 'note'; keptAt: Date }
  | { kind: 'error'; cause: string };

/** What a list's row says of the list: that it is cached, or filtered here (by the language). */
export interface ListNotes {
  cachedAt?: Date;
  filteredBy?: string;
}

/** A row that owns a list: its id (the key of its list and its failure) and label (what the messages call it). */
export interface ListOwnerRef {
  id: string;
  label: string;
  list: ListSpec;
}

/** What the model needs of the service connection. */
export interface CatalogService {
  getClient(): Promise<RefactorClient>;
  /** The next request for anything the client holds asks the service again. */
  expireHeld(): void;
  /** The current service's name (offline keys). */
  name(): string;
}

/** What the model needs of the stars. */
export interface CatalogStars {
  current(): readonly Star[];
  isStarred(target: ItemTarget): boolean;
  offlineCopy(codeId: number): Promise<{ code: Code; keptAt: Date } | undefined>;
  withCodes(failed?: unknown): Promise<{ rows: ReadonlyArray<{ star: Star; code: Code }>; failure?: unknown }>;
}

export interface CatalogModelDeps {
  service: CatalogService;
  offline: OfflineStore;
  stars: CatalogStars;
  /** Logs `<failure>: <cause>` (once per failure: the model never logs one twice). */
  logFailure(failure: string, err: unknown): void;
  /** Wraps each request for the list or code `what` names (the view shows and says what is loading). */
  wrapRequest?: <R>(work: () => Promise<R>, what: string) => Promise<R>;
}

interface CodeChildren {
  refactors?: Refactor[];
  /** When the refactorings shown are the ones kept offline: the time they were kept. */
  cachedAt?: Date;
  error?: unknown;
  loading?: Promise<void>;
}

export class CatalogModel extends Disposable {
  private readonly lists = new Map<string, CatalogList<Code | Refactor>>();
  private readonly codeChildren = new Map<number, CodeChildren>();
  private unreachable: string | undefined;
  /** Why Starred could not fetch a starred code that is not kept here; asked again on Retry or Refresh. */
  private starredFailure: unknown;
  /** Failures already logged: a row re-rendered is not a new error. */
  private readonly logged = new WeakSet<object>();
  /** By owner id, the lists that failed to load, with their label and cause, for the view to say. */
  private readonly failing = new Map<string, { label: string; cause: string }>();
  private readonly unreachableChanged = this._register(new Emitter<string | undefined>());
  /** Fires the one-line cause when the service cannot be reached and nothing is shown, undefined when that ends. */
  readonly onDidChangeUnreachable = this.unreachableChanged.event;
  private readonly failuresChanged = this._register(new Emitter<void>());
  /** Fires when a list fails to load, or loads again after failing. */
  readonly onDidChangeFailures = this.failuresChanged.event;

  constructor(private readonly deps: CatalogModelDeps, private current: CatalogState) {
    super();
  }

  get state(): CatalogState {
    return this.current;
  }

  /** The roots shown: none while the service cannot be reached (the view shows its welcome content); Starred while something is. */
  roots(): RootKind[] {
    if (this.unreachable !== undefined) return [];
    const starred = this.deps.stars.current().length > 0;
    return ROOT_KINDS.filter((k) => k !== 'starred' || starred);
  }

  /** True while the service cannot be reached and nothing is shown. */
  isUnreachable(): boolean {
    return this.unreachable !== undefined;
  }

  /** The lists that failed to load (what the view says), oldest first. */
  failures(): Array<{ label: string; cause: string }> {
    return [...this.failing.values()];
  }

  /**
   * New settings: a new language or service makes every list stale (forgotten here); a new order
   * changes only codes' children; new tags only the Tags root.
   */
  update(state: CatalogState): { stale: boolean; reordered: boolean } {
    const stale = state.language !== this.current.language || state.service !== this.current.service;
    const reordered = state.refactoringOrder !== this.current.refactoringOrder;
    this.current = state;
    if (stale) this.refresh();
    return { stale, reordered };
  }

  /**
   * Forgets every list and failure; what the client holds is asked for again, which its ETags keep
   * cheap for unchanged lists.
   */
  refresh(): void {
    this.deps.service.expireHeld();
    this.lists.clear();
    this.codeChildren.clear();
    this.starredFailure = undefined;
    if (this.failing.size) {
      this.failing.clear();
      this.failuresChanged.fire();
    }
    this.setUnreachable(undefined);
  }

  /**
   * Every code and refactoring loaded (Go to Code picks from these). A list's items are told apart
   * by shape (a refactoring names its code), not by the list's key.
   */
  loadedItems(): { codes: Code[]; refactors: Refactor[] } {
    const codes: Code[] = [];
    const refactors: Refactor[] = [];
    for (const list of this.lists.values()) {
      for (const item of list.items) {
        if ('codeId' in item) refactors.push(item);
        else codes.push(item);
      }
    }
    for (const c of this.codeChildren.values()) refactors.push(...(c.refactors ?? []));
    return { codes, refactors };
  }

  /** The rows of a list, its first page fetched if it is not loaded yet, and what its row says of it. */
  async listRows(owner: ListOwnerRef): Promise<{ rows: RowData[]; notes: ListNotes }> {
    const list = this.listFor(owner);
    await list.ensureFirstPage();
    if (list.error !== undefined && this.logOnce(`Could not load ${owner.label}`, list.error)) {
      if (isUnreachable(list.error) && this.nothingShown()) this.setUnreachable(causeOf(list.error));
    }
    this.noteFailure(owner.id, owner.label, list.error);
    const rows: RowData[] = list.items.map((item) => ('codeId' in item
      ? { kind: 'refactor', refactor: item, codeTitle: this.codeTitle(item.codeId), starred: this.starred({ kind: 'refactor', codeId: item.codeId, refactorId: item.id }) }
      : { kind: 'code', code: item, starred: this.starred({ kind: 'code', codeId: item.id }) }));
    if (list.error !== undefined) rows.push({ kind: 'error', cause: causeOf(list.error) });
    else if (list.hasMore) rows.push({ kind: 'loadMore' });
    else if (rows.length === 0) rows.push({ kind: 'empty', of: owner.list.kind === 'recentRefactorings' ? 'refactorings' : 'codes' });
    const filteredBy = list.filteredHere && this.current.language ? this.current.language : undefined;
    return { rows, notes: { ...(list.cachedAt ? { cachedAt: list.cachedAt } : {}), ...(filteredBy ? { filteredBy } : {}) } };
  }

  /**
   * A code's refactorings in the chosen order: from the service (or the offline store), else from
   * the copy kept of a starred code. `owner` names the code's row (its failure is noted under it).
   */
  async refactorRows(code: Code, owner: { id: string; label: string }): Promise<RowData[]> {
    let entry = this.codeChildren.get(code.id);
    if (!entry) {
      const fresh: CodeChildren = {};
      fresh.loading = loadRefactors(code.id, this.sources(owner.label)).then(
        (got) => {
          fresh.refactors = got.refactors;
          fresh.cachedAt = got.cachedAt;
        },
        async (err: unknown) => {
          // A starred code is kept whole: read offline from its copy.
          const kept = await this.deps.stars.offlineCopy(code.id);
          if (kept) {
            fresh.refactors = kept.code.refactors ?? [];
            fresh.cachedAt = kept.keptAt;
            return;
          }
          fresh.error = err;
          this.deps.logFailure(`Could not load the refactorings of code #${code.id}`, err);
        },
      );
      this.codeChildren.set(code.id, fresh);
      entry = fresh;
    }
    await entry.loading;
    this.noteFailure(owner.id, owner.label, entry.error);
    if (entry.error !== undefined) return [{ kind: 'error', cause: causeOf(entry.error) }];
    const refactors = sortRefactorings(entry.refactors ?? [], this.current.refactoringOrder);
    const rows: RowData[] = refactors.length
      ? refactors.map((r) => ({ kind: 'refactor', refactor: r, codeTitle: code.title, starred: this.starred({ kind: 'refactor', codeId: r.codeId, refactorId: r.id }) }))
      : [{ kind: 'empty', of: 'refactorings' }];
    if (entry.cachedAt) rows.push({ kind: 'note', keptAt: entry.cachedAt });
    return rows;
  }

  /**
   * The current service's stars, newest first, each from the copy kept of its code (so they show
   * offline); a star whose code is not kept on this machine yet is fetched and kept now. `label`
   * names Starred in what the view says is loading.
   */
  async starredRows(label: string): Promise<RowData[]> {
    const wrap = this.deps.wrapRequest ?? ((work) => work());
    const { rows, failure } = await wrap(() => this.deps.stars.withCodes(this.starredFailure), label);
    this.starredFailure = failure;
    const shown: RowData[] = [];
    for (const { star, code } of rows) {
      if (star.kind === 'code') {
        shown.push({ kind: 'code', code, starred: true });
        continue;
      }
      const refactor = code.refactors?.find((r) => r.id === star.refactorId);
      // Gone from its code on the service: the star stays (Unstar it from the palette or the code view).
      if (refactor) shown.push({ kind: 'refactor', refactor, codeTitle: code.title, starred: true });
    }
    if (failure !== undefined) {
      this.logOnce('Could not load a starred code', failure);
      shown.push({ kind: 'error', cause: causeOf(failure) });
    } else if (shown.length === 0) shown.push({ kind: 'empty', of: 'stars' });
    return shown;
  }

  /** Logs `failure` for `err` unless it was logged already (a row re-rendered is not a new error); true when it logs. */
  private logOnce(failure: string, err: unknown): boolean {
    const key = Object(err) as object;
    if (this.logged.has(key)) return false;
    this.logged.add(key);
    this.deps.logFailure(failure, err);
    return true;
  }

  /** Fetches the next page into the list of `ownerId` only; false when there is no such list. */
  async loadMore(ownerId: string): Promise<boolean> {
    const list = this.lists.get(ownerId);
    if (!list) return false;
    await list.loadMore();
    return true;
  }

  /** Re-fetches only what failed: a code's refactorings, Starred's codes, or a list. */
  async retry(what: { kind: 'code'; codeId: number } | { kind: 'starred' } | { kind: 'list'; ownerId: string }): Promise<void> {
    if (what.kind === 'code') this.codeChildren.delete(what.codeId);
    else if (what.kind === 'starred') this.starredFailure = undefined;
    else await this.lists.get(what.ownerId)?.retry();
    this.setUnreachable(undefined);
  }

  private listFor(owner: ListOwnerRef): CatalogList<Code | Refactor> {
    const key = owner.id || listKey(owner.list);
    let list = this.lists.get(key);
    if (!list) {
      list = new CatalogList<Code | Refactor>(pageLoader(owner.list, { ...this.sources(owner.label), language: this.current.language }));
      this.lists.set(key, list);
    }
    return list;
  }

  private starred(target: ItemTarget): boolean {
    return this.deps.stars.isStarred(target);
  }

  /** Where the list or code `what` names comes from: this service, kept offline under its name. */
  private sources(what: string): Omit<SourceContext, 'language'> {
    const wrap = this.deps.wrapRequest;
    return {
      getClient: () => this.deps.service.getClient(),
      offline: this.deps.offline,
      serviceKey: this.deps.service.name(),
      wrapRequest: wrap ? (work) => wrap(work, what) : undefined,
    };
  }

  private noteFailure(id: string, label: string, error: unknown): void {
    const cause = error === undefined ? undefined : causeOf(error);
    if (this.failing.get(id)?.cause === cause) return;
    if (cause === undefined) this.failing.delete(id);
    else this.failing.set(id, { label, cause });
    this.failuresChanged.fire();
  }

  private codeTitle(codeId: number): string | undefined {
    for (const list of this.lists.values()) {
      for (const item of list.items) if (!('codeId' in item) && item.id === codeId) return item.title;
    }
    return undefined;
  }

  private nothingShown(): boolean {
    return this.deps.stars.current().length === 0 && [...this.lists.values()].every((l) => l.items.length === 0);
  }

  private setUnreachable(cause: string | undefined): void {
    if (this.unreachable === cause) return;
    this.unreachable = cause;
    this.unreachableChanged.fire(cause);
  }
}
