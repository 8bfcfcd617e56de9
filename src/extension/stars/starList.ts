// The list of what a person starred, per service, in the extension's global state under one key that
// Settings Sync carries to their other machines (setKeysForSync). Only small facts are kept here (ids,
// title, language, when): the synced state must stay small; the code itself is kept in a file per
// machine (keptCodes.ts). Writes run whole in the global state's one write queue: each reads the
// list and writes it back, and two at once would lose one's change. What is synced is checked once
// each time it changes (another machine may have written anything), into Sets that answer "is it
// starred" for every tree row. No VS Code import: unit-tested with a Map-backed store.
import type { Logger } from '../../client/logger';
import { isId } from '../../protocol/codeView';
import type { ItemTarget } from '../common/items';
import { queued, type GlobalMemento, type QueuedMemento } from '../common/globalStore';

/** The global-state key of the stars (synced). */
export const STARS_KEY = 'refactorBrowser.stars';
/** Stars a service may hold: the list is synced and shown whole, so it stays bounded. */
export const MAX_STARS = 500;
/** Services whose stars are read: far more than a person uses, fewer than a hostile synced state may name. */
export const MAX_STARRED_SERVICES = 100;
/** A star's title and language are cut to these: only a row's label shows them. */
export const MAX_STAR_TITLE_CHARS = 500;
export const MAX_STAR_LANGUAGE_CHARS = 100;

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

/** One service's checked stars, as saved, newest first, and as looked up. */
interface ServiceStars {
  saved: Star[];
  newest: Star[];
  targets: Set<string>;
  codes: Set<number>;
}

/** The synced value last read (compared by identity: the global state hands out the same object until it changes), checked. */
interface Checked {
  raw: unknown;
  saved: Saved;
  byService: Map<string, ServiceStars>;
}

const NO_STARS: ServiceStars = { saved: [], newest: [], targets: new Set(), codes: new Set() };

export class StarList {
  private readonly store: QueuedMemento;
  private checked: Checked | undefined;

  constructor(store: GlobalMemento, private readonly logger?: Logger) {
    this.store = queued(store);
    store.setKeysForSync([STARS_KEY]);
  }

  /** The stars of `service`, newest first (read each time: Settings Sync may have brought new ones). */
  list(service: string): Star[] {
    return [...this.of(service).newest];
  }

  /** Forgets every star of every service. */
  clear(): Promise<void> {
    return this.store.update(STARS_KEY, undefined);
  }

  /** Whether the code `codeId` or any refactoring of it is starred (its copy is then kept). */
  hasCode(service: string, codeId: number): boolean {
    return this.of(service).codes.has(codeId);
  }

  has(service: string, target: ItemTarget): boolean {
    return this.of(service).targets.has(targetKey(target));
  }

  /** Adds `star` (a star already there keeps its place); a StarLimitError past MAX_STARS. */
  add(service: string, star: Star): Promise<void> {
    const kept = boundedStar(star);
    return this.change(service, (stars) => {
      if (stars.some((s) => sameTarget(s, kept))) return stars;
      if (stars.length >= MAX_STARS) throw new StarLimitError(`at most ${MAX_STARS} stars a service: unstar some first`);
      return [...stars, kept];
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
      const saved = this.read().saved;
      const before = saved.services[service] ?? [];
      const after = edit(before);
      if (after === before) return;
      const services = { ...saved.services };
      if (after.length) services[service] = after;
      else delete services[service];
      await memento.update(STARS_KEY, { v: 1, services } satisfies Saved);
    });
  }

  private of(service: string): ServiceStars {
    return this.read().byService.get(service) ?? NO_STARS;
  }

  /**
   * The saved stars, checked once per change of the synced value: what another machine or version
   * wrote may be anything, so only the first MAX_STARS of a service are read, and of those only the
   * valid ones, each target once.
   */
  private read(): Checked {
    const raw = this.store.get<unknown>(STARS_KEY);
    const last = this.checked;
    if (last && last.raw === raw) return last;
    const services: Record<string, Star[]> = {};
    const byService = new Map<string, ServiceStars>();
    const dropped: string[] = [];
    const given = typeof raw === 'object' && raw !== null ? (raw as { services?: unknown }).services : undefined;
    if (typeof given === 'object' && given !== null) {
      let seen = 0;
      for (const service in given) {
        if (!Object.prototype.hasOwnProperty.call(given, service)) continue;
        if (++seen > MAX_STARRED_SERVICES) {
          dropped.push(`services past the first ${MAX_STARRED_SERVICES}`);
          break;
        }
        const stars: unknown = (given as Record<string, unknown>)[service];
        if (!Array.isArray(stars)) continue;
        const read = stars.length > MAX_STARS ? stars.slice(0, MAX_STARS) : stars;
        const checked = checkStars(read);
        if (stars.length > MAX_STARS) dropped.push(`${stars.length - MAX_STARS} stars past the first ${MAX_STARS} of a service`);
        if (checked.invalid) dropped.push(`${checked.invalid} malformed stars`);
        if (checked.duplicates) dropped.push(`${checked.duplicates} stars given twice`);
        if (checked.saved.length === 0) continue;
        services[service] = checked.saved;
        byService.set(service, { saved: checked.saved, newest: checked.newest, targets: checked.targets, codes: checked.codes });
      }
    }
    if (dropped.length) this.logger?.warn(`stars: ignored what the synced stars hold beyond their bounds: ${dropped.join(', ')}`);
    this.checked = { raw, saved: { v: 1, services }, byService };
    return this.checked;
  }
}

/** The valid stars of `given`, each target once (the first), their texts cut to the bounds. */
function checkStars(given: readonly unknown[]): ServiceStars & { invalid: number; duplicates: number } {
  const saved: Star[] = [];
  const targets = new Set<string>();
  const codes = new Set<number>();
  let invalid = 0;
  let duplicates = 0;
  for (const v of given) {
    if (!isStar(v)) {
      invalid++;
      continue;
    }
    const key = targetKey(v);
    if (targets.has(key)) {
      duplicates++;
      continue;
    }
    targets.add(key);
    codes.add(v.codeId);
    saved.push(boundedStar(v));
  }
  const newest = [...saved].sort((a, b) => b.starredAt - a.starredAt);
  return { saved, newest, targets, codes, invalid, duplicates };
}

/** Only what a Star holds, its title and language cut to their bounds. */
function boundedStar(s: Star): Star {
  const star: Star = {
    kind: s.kind, codeId: s.codeId, title: s.title.slice(0, MAX_STAR_TITLE_CHARS), language: s.language.slice(0, MAX_STAR_LANGUAGE_CHARS), starredAt: s.starredAt,
  };
  if (s.kind === 'refactor') star.refactorId = s.refactorId;
  return star;
}

function targetKey(t: Star | ItemTarget): string {
  return t.kind === 'code' ? `code ${t.codeId}` : `refactor ${t.codeId} ${refactorIdOf(t)}`;
}

function isStar(v: unknown): v is Star {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Partial<Star>;
  return (s.kind === 'code' || (s.kind === 'refactor' && isId(s.refactorId))) && isId(s.codeId)
    && typeof s.title === 'string' && typeof s.language === 'string' && typeof s.starredAt === 'number' && Number.isFinite(s.starredAt);
}
