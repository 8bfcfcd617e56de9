// The list of what a person starred, per service, in the extension's global state under one key that
// Settings Sync carries to their other machines (setKeysForSync). Only small facts are kept here (ids,
// title, language, when): the synced state must stay small; the code itself is kept in a file per
// machine (keptCodes.ts). Writes run whole in the global state's one write queue: each reads the
// list and writes it back, and two at once would lose one's change. No VS Code import: unit-tested with a Map-backed store.
import { isId } from '../../protocol/codeView';
import type { ItemTarget } from '../code/items';
import { queued, type GlobalMemento, type QueuedMemento } from '../globalStore';

/** The global-state key of the stars (synced). */
export const STARS_KEY = 'refactorBrowser.stars';
/** Stars a service may hold: the list is synced and shown whole, so it stays bounded. */
export const MAX_STARS = 500;

/** A starred code, or a starred refactoring of the code `codeId`. */
export interface Star {
  kind: 'code' | 'refactor';
  /** The code's id; for a refactoring, the id of the code it refactors. */
  codeId: number;
  /** The refactoring's id (kind `refactor` only). */
  refactorId?: number;
  title: string;
  language: string;
  /** Milliseconds since the epoch. */
  starredAt: number;
}



interface Saved {
  v: 1;
  services: Record<string, Star[]>;
}

export class StarLimitError extends Error {}

export function sameTarget(a: Star | ItemTarget, b: Star | ItemTarget): boolean {
  return a.kind === b.kind && a.codeId === b.codeId && (a.kind === 'code' || refactorIdOf(a) === refactorIdOf(b));
}

function refactorIdOf(t: Star | ItemTarget): number | undefined {
  return 'refactorId' in t ? t.refactorId : undefined;
}

export class StarList {
  private readonly store: QueuedMemento;

  constructor(store: GlobalMemento) {
    this.store = queued(store);
    store.setKeysForSync([STARS_KEY]);
  }

  /** The stars of `service`, newest first (read each time: Settings Sync may have brought new ones). */
  list(service: string): Star[] {
    return [...(this.read().services[service] ?? [])].sort((a, b) => b.starredAt - a.starredAt);
  }

  /** Forgets every star of every service. */
  clear(): Promise<void> {
    return this.store.update(STARS_KEY, undefined);
  }

  /** Whether the code `codeId` or any refactoring of it is starred (its copy is then kept). */
  hasCode(service: string, codeId: number): boolean {
    return (this.read().services[service] ?? []).some((s) => s.codeId === codeId);
  }

  has(service: string, target: ItemTarget): boolean {
    return (this.read().services[service] ?? []).some((s) => sameTarget(s, target));
  }

  /** Adds `star` (a star already there keeps its place); a StarLimitError past MAX_STARS. */
  add(service: string, star: Star): Promise<void> {
    return this.change(service, (stars) => {
      if (stars.some((s) => sameTarget(s, star))) return stars;
      if (stars.length >= MAX_STARS) throw new StarLimitError(`at most ${MAX_STARS} stars a service: unstar some first`);
      return [...stars, star];
    });
  }

  /** Removes the star on `target`; resolves to whether a star of the same code is left. */
  async remove(service: string, target: ItemTarget): Promise<boolean> {
    let left = false;
    await this.change(service, (stars) => {
      const kept = stars.filter((s) => !sameTarget(s, target));
      left = kept.some((s) => s.codeId === target.codeId);
      return kept;
    });
    return left;
  }

  private change(service: string, edit: (stars: Star[]) => Star[]): Promise<void> {
    return this.store.run(async (memento) => {
      const saved = this.read();
      const before = saved.services[service] ?? [];
      const after = edit(before);
      if (after === before) return;
      const services = { ...saved.services };
      if (after.length) services[service] = after;
      else delete services[service];
      await memento.update(STARS_KEY, { v: 1, services } satisfies Saved);
    });
  }

  /** The saved stars, each checked: what another machine or version wrote may be anything. */
  private read(): Saved {
    const raw = this.store.get<unknown>(STARS_KEY);
    const services: Record<string, Star[]> = {};
    if (typeof raw !== 'object' || raw === null) return { v: 1, services };
    const given = (raw as { services?: unknown }).services;
    if (typeof given !== 'object' || given === null) return { v: 1, services };
    for (const [service, stars] of Object.entries(given)) {
      if (!Array.isArray(stars)) continue;
      const valid = stars.filter(isStar).slice(0, MAX_STARS);
      if (valid.length) services[service] = valid;
    }
    return { v: 1, services };
  }
}

function isStar(v: unknown): v is Star {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Partial<Star>;
  return (s.kind === 'code' || (s.kind === 'refactor' && isId(s.refactorId))) && isId(s.codeId)
    && typeof s.title === 'string' && typeof s.language === 'string' && typeof s.starredAt === 'number' && Number.isFinite(s.starredAt);
}
