// The last good response of every list page, kept in the extension's global storage so the lists
// can still be shown, marked as cached, when the service cannot be reached. Bounded: the entries
// written longest ago are dropped first.
import type { Code, Refactor } from '../../api/model';

/** What the store needs of VS Code's Memento (context.globalState); a Map-backed one in unit tests. */
export interface KeyValueStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

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
}

const PREFIX = 'refactorBrowser.offline.';
const INDEX = `${PREFIX}index`;
export const DEFAULT_MAX_ENTRIES = 60;

/** Dates travel as ISO strings through JSON; these are the fields that hold one. */
const DATE_FIELDS = new Set(['createdAt', 'updatedAt']);

function revive(key: string, value: unknown): unknown {
  return DATE_FIELDS.has(key) && typeof value === 'string' ? new Date(value) : value;
}

export class OfflineStore {
  constructor(
    private readonly store: KeyValueStore,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async save<T extends Code | Refactor>(key: string, page: Omit<CachedPage<T>, 'savedAt'>): Promise<void> {
    const savedAt = this.now().getTime();
    const index = this.index().filter((e) => e.key !== key);
    index.push({ key, savedAt });
    index.sort((a, b) => a.savedAt - b.savedAt);
    const dropped = index.splice(0, Math.max(0, index.length - this.maxEntries));
    // The payload is a string so that Dates (and anything else JSON cannot keep) come back as written.
    await this.store.update(PREFIX + key, JSON.stringify({ ...page, savedAt }));
    for (const e of dropped) await this.store.update(PREFIX + e.key, undefined);
    await this.store.update(INDEX, index);
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

  /** Forgets everything kept. */
  async clear(): Promise<void> {
    for (const e of this.index()) await this.store.update(PREFIX + e.key, undefined);
    await this.store.update(INDEX, []);
  }

  /** How many pages are kept. */
  size(): number {
    return this.index().length;
  }

  private index(): IndexEntry[] {
    const raw = this.store.get<unknown>(INDEX);
    return Array.isArray(raw)
      ? raw.filter((e): e is IndexEntry => typeof e === 'object' && e !== null && typeof e.key === 'string' && typeof e.savedAt === 'number')
      : [];
  }
}
