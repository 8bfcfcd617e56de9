// Starred codes and refactorings of the service in use: the synced list (starList.ts) and the whole
// codes kept for offline reading (keptCodes.ts), behind one object that the Catalog, the code view
// and the Star and Unstar commands share. Starring keeps the whole code at once; every later fetch
// of a starred code (code view, expanding its row) refreshes the copy, since the client tells what
// it fetched (service.ts, ObservedClient).
import * as vscode from 'vscode';
import type { Logger } from '../../client/logger';
import type { Code } from '../../core/model';
import { targetOf, type Item, type ItemTarget } from '../common/items';
import { titleOf } from '../common/names';
import { Disposable } from '../common/dispose';
import { oneLine } from '../common/errorReporting';
import type { ServiceConnection } from '../service';
import type { FetchedItems } from '../common/fetched';
import { KeptCodes, type KeptCode } from './keptCodes';
import { StarList, type Star } from './starList';
import type { GlobalMemento } from '../common/globalStore';

export type { Star } from './starList';
export type { KeptCode } from './keptCodes';

function starOf(item: Item, now: Date): Star {
  const what = item.kind === 'code' ? item.code : item.refactor;
  return { ...targetOf(item), title: what.title, language: what.language, starredAt: now.getTime() };
}

export class Stars extends Disposable {
  private readonly list: StarList;
  private readonly kept: KeptCodes;
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  /** Fires when a star is added or removed (in this window). */
  readonly onDidChange = this.changed.event;
  /** The copy being written of each code (by code id and service): writes of one file never overlap. */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(
    state: GlobalMemento,
    storage: vscode.Uri,
    private readonly service: ServiceConnection,
    private readonly logger: Logger,
  ) {
    super();
    this.list = new StarList(state, logger);
    this._register(service.onDidFetch(({ service: name, items }) => this.updateFromFetched(name, items)));
    this.kept = new KeptCodes(storage);
  }

  /** The current service's stars, newest first. */
  current(): Star[] {
    return this.list.list(this.service.name());
  }

  isStarred(target: ItemTarget): boolean {
    return this.list.has(this.service.name(), target);
  }

  /** The starred blocks of `code` (the code and its refactorings), as the code view marks them. */
  starredIn(code: Code): ItemTarget[] {
    return this.current().filter((s) => s.codeId === code.id).map((s) => (s.kind === 'code'
      ? { kind: 'code', codeId: s.codeId }
      : { kind: 'refactor', codeId: s.codeId, refactorId: s.refactorId as number }));
  }

  /**
   * Stars `item` and keeps its whole code for offline reading. The star stays when the code cannot be
   * fetched now (it is kept on the next fetch); the failure is thrown for the caller to say.
   */
  async star(item: Item): Promise<void> {
    const service = this.service.name();
    await this.list.add(service, starOf(item, new Date()));
    this.changed.fire();
    const codeId = targetOf(item).codeId;
    if (await this.read(service, codeId)) return;
    try {
      await this.keep(service, await (await this.service.getClient()).code(codeId), item.kind === 'code' ? item.code : undefined);
    } catch (err) {
      throw new Error(vscode.l10n.t('{0} is starred, but could not be kept for reading offline yet: {1}', titleOf(item), oneLine(err)), { cause: err });
    }
  }

  async unstar(target: ItemTarget): Promise<void> {
    const service = this.service.name();
    const left = await this.list.remove(service, target);
    if (!left) await this.kept.forget(service, target.codeId);
    this.changed.fire();
  }

  /** The copy kept of code `codeId` of the current service, if something of it is starred. */
  async offlineCopy(codeId: number): Promise<KeptCode | undefined> {
    const service = this.service.name();
    if (!this.list.hasCode(service, codeId)) return undefined;
    return this.read(service, codeId);
  }

  /**
   * The copy of a code as last written: a write still under way is waited for, since a file read while
   * it is being written (over a remote window's file system, in pieces) reads as damaged.
   */
  private async read(service: string, codeId: number): Promise<KeptCode | undefined> {
    await this.writes.get(`${codeId} ${service}`);
    return this.kept.read(service, codeId);
  }

  /**
   * The current service's stars with their codes: the kept copies, and for a star that has none on
   * this machine (Settings Sync brought it), the code fetched now and kept. `failure` is the first
   * failure of those fetches; their stars are left out. `failed`: the failure of an earlier call,
   * given again instead of fetching (the Catalog asks again only on Retry or Refresh).
   */
  async withCodes(failed?: unknown): Promise<{ rows: Array<{ star: Star; code: Code; keptAt: Date }>; failure?: unknown }> {
    const service = this.service.name();
    const rows: Array<{ star: Star; code: Code; keptAt: Date }> = [];
    let failure: unknown;
    const copies = new Map<number, Promise<KeptCode>>();
    const copyOf = (codeId: number): Promise<KeptCode> => {
      let copy = copies.get(codeId);
      if (!copy) {
        copy = this.read(service, codeId).then(async (kept) => {
          if (kept) return kept;
          if (failed !== undefined) throw failed as unknown;
          const code = await (await this.service.getClient()).code(codeId);
          await this.keep(service, code);
          return { code, keptAt: new Date() };
        });
        copies.set(codeId, copy);
      }
      return copy;
    };
    for (const star of this.list.list(service)) {
      try {
        const { code, keptAt } = await copyOf(star.codeId);
        rows.push({ star, code, keptAt });
      } catch (err) {
        failure ??= err;
      }
    }
    return failure === undefined ? { rows } : { rows, failure };
  }

  /** Forgets every star and kept copy of every service (the test API starts each test this way). */
  async clear(): Promise<void> {
    await this.list.clear();
    await this.kept.clear();
    this.changed.fire();
  }

  /** Deletes the copy kept of code `codeId` of the current service, as on a machine Settings Sync brought its star to. */
  forgetCopy(codeId: number): Promise<void> {
    return this.kept.forget(this.service.name(), codeId);
  }

  /** What the client fetched: a starred code fetched whole refreshes its copy. */
  private updateFromFetched(service: string, items: FetchedItems): void {
    if (items.codes?.length !== 1 || !items.codes[0].refactors) return;
    const code = items.codes[0];
    if (!this.list.hasCode(service, code.id)) return;
    void this.keep(service, code).catch((err: unknown) => this.logger.warn(`could not keep starred code #${code.id} for offline reading: ${String(err)}`));
  }

  /**
   * Writes the copy of `code`, one write a code at a time. A single-code response may name no author:
   * the one the list gave (`listed`), or the copy had, is kept with it.
   */
  private keep(service: string, code: Code, listed?: Code): Promise<void> {
    const key = `${code.id} ${service}`;
    const next = (this.writes.get(key) ?? Promise.resolve()).then(async () => {
      let kept = code;
      if (!code.user) {
        const user = listed?.user ?? (await this.kept.read(service, code.id))?.code.user;
        if (user && user.id === code.userId) kept = { ...code, user };
      }
      await this.kept.keep(service, kept);
      // Unstarred while it was being written: no copy outlives its stars.
      if (!this.list.hasCode(service, code.id)) await this.kept.forget(service, code.id);
    });
    const settled = next.catch(() => undefined);
    this.writes.set(key, settled);
    void settled.then(() => {
      if (this.writes.get(key) === settled) this.writes.delete(key);
    });
    return next;
  }
}

