// The last good response of every list page (and every code's refactorings), kept in the
// extension's global state so the lists can still be shown, marked as cached, when the service
// cannot be reached. Bounded in entries and in bytes: VS Code rewrites the whole global state on
// every update, so no entry may be large and all of them together stay small; the entries written
// longest ago are dropped first, and an entry too large to keep is skipped (and logged once).
import type { Logger } from '../../client/logger';
import type { Code, Refactor } from '../../core/model';
import { revive } from '../common/fetched';
import { queued, type GlobalMemento, type QueuedMemento } from '../common/globalStore';

export interface CachedPage<T> {
  items: T[];
  /** Ids as the service served them (for the paging rules). */
  served: number[];
  filteredHere: boolean;
  savedAt: Date;
}

interface IndexEntry {
  key: string;
  savedAt: number;
  /** The stored text's size in UTF-8. */
  bytes: number;
}

export interface OfflineLimits {
  maxEntries: number;
  /** One page or code's refactorings, as stored. */
  maxEntryBytes: number;
  /** All entries together. */
  maxTotalBytes: number;
}

const MIB = 1024 * 1024;
export const DEFAULT_LIMITS: OfflineLimits = { maxEntries: 60, maxEntryBytes: MIB, maxTotalBytes: 16 * MIB };

const PREFIX = 'refactorBrowser.offline.';
const INDEX = `${PREFIX}index`;

const utf8 = new TextEncoder();

function bytesOf(text: string): number {
  return utf8.encode(text).length;
}

export class OfflineStore {
  private readonly limits: OfflineLimits;
  /** Keys already logged as too large: a list refreshed again is not news. */
  private readonly skipped = new Set<string>();
  /**
   * The global state's one write queue: each save reads the index and writes it back, and two at once
   * would lose one's entry. Callers need not wait for a save (the answer is shown at once); a list
   * read from here after a failure waits for the saves under way (`settled`).
   */
  private readonly store: QueuedMemento;

  constructor(
    store: GlobalMemento,
    limits: Partial<OfflineLimits> = {},
    private readonly logger?: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.store = queued(store);
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Keeps `page` under `key`; resolves once it is written (saves are queued, never interleaved). */
  save<T extends Code | Refactor>(key: string, page: Omit<CachedPage<T>, 'savedAt'>): Promise<void> {
    const savedAt = this.now().getTime();
    // In the queue at once (settled() waits for it), but written in a task of its own: a write sends
    // the extension's whole global state to VS Code's main process, and the rows this page came with
    // reach the view first (it was a fifth of the Catalog's first expansion).
    return this.store.run(async (memento) => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      await this.write(memento, key, page, savedAt);
    });
  }

  /** Resolves once every save asked for so far is written (or has failed). */
  settled(): Promise<void> {
    return this.store.settled();
  }

  private async write<T extends Code | Refactor>(memento: GlobalMemento, key: string, page: Omit<CachedPage<T>, 'savedAt'>, savedAt: number): Promise<void> {
    // The payload is a string so that Dates (and anything else JSON cannot keep) come back as written.
    const text = JSON.stringify({ ...page, savedAt });
    const bytes = bytesOf(text);
    if (bytes > this.limits.maxEntryBytes) {
      if (!this.skipped.has(key)) {
        this.skipped.add(key);
        this.logger?.warn(`not kept for offline use: ${key} is ${formatMiB(bytes)}, over the ${formatMiB(this.limits.maxEntryBytes)} an entry may take`);
      }
      return;
    }
    const index = this.index().filter((e) => e.key !== key);
    index.push({ key, savedAt, bytes });
    index.sort((a, b) => a.savedAt - b.savedAt);
    let total = index.reduce((sum, e) => sum + e.bytes, 0);
    const dropped: IndexEntry[] = [];
    while (index.length > this.limits.maxEntries || total > this.limits.maxTotalBytes) {
      const oldest = index.shift() as IndexEntry;
      total -= oldest.bytes;
      dropped.push(oldest);
    }
    await memento.update(PREFIX + key, text);
    for (const e of dropped) await memento.update(PREFIX + e.key, undefined);
    await memento.update(INDEX, index);
  }

  load<T extends Code | Refactor>(key: string): CachedPage<T> | undefined {
    const raw = this.store.get<unknown>(PREFIX + key);
    if (typeof raw !== 'string') return undefined;
    try {
      const parsed = JSON.parse(raw, revive) as { items?: unknown; served?: unknown; filteredHere?: unknown; savedAt?: unknown };
      if (!Array.isArray(parsed.items) || !Array.isArray(parsed.served) || typeof parsed.savedAt !== 'number') return undefined;
      return {
        items: parsed.items as T[],
        served: parsed.served.filter((n): n is number => typeof n === 'number'),
        filteredHere: parsed.filteredHere === true,
        savedAt: new Date(parsed.savedAt),
      };
    } catch {
      return undefined; // a damaged entry is as good as none
    }
  }

  /** Forgets everything kept (after the saves already asked for). */
  clear(): Promise<void> {
    return this.store.run(async (memento) => {
      for (const e of this.index()) await memento.update(PREFIX + e.key, undefined);
      await memento.update(INDEX, []);
    });
  }

  /** How many entries are kept, and their bytes in all. */
  size(): { entries: number; bytes: number } {
    const index = this.index();
    return { entries: index.length, bytes: index.reduce((sum, e) => sum + e.bytes, 0) };
  }

  private index(): IndexEntry[] {
    const raw = this.store.get<unknown>(INDEX);
    if (!Array.isArray(raw)) return [];
    const entries: IndexEntry[] = [];
    for (const e of raw as unknown[]) {
      if (typeof e !== 'object' || e === null) continue;
      const { key, savedAt, bytes } = e as Partial<IndexEntry>;
      if (typeof key !== 'string' || typeof savedAt !== 'number') continue;
      // An index written before entries had sizes: measure what is stored.
      const stored = typeof bytes === 'number' ? undefined : this.store.get<unknown>(PREFIX + key);
      entries.push({ key, savedAt, bytes: typeof bytes === 'number' ? bytes : typeof stored === 'string' ? bytesOf(stored) : 0 });
    }
    return entries;
  }
}

function formatMiB(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}
