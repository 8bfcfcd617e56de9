// The versions an instance serves at: the data version (every page's content) and the people version
// (whose token may write), followed across instances over one database by LISTEN/NOTIFY, or by reading
// them on a timer while no LISTEN works.

import type { Sql } from './executor';

/** The channel every instance NOTIFYs its new version on. */
export const CHANGES_CHANNEL = 'refactor_browser_changes';

/** The start of a notification's payload that carries the people version rather than the data version. */
const PEOPLE_PAYLOAD = 'people ';

/**
 * Bumps the data version and tells the other instances, in the writing transaction (a notification
 * is sent when it commits). One statement: each costs an embedded database a parse and a plan.
 */
export const BUMP_VERSION = `with bumped as (update meta set version = version + 1 returning version)
  select version, pg_notify($1, version::text) from bumped`;

/** How soon a lost LISTEN is tried again: doubling from the first delay, never longer than the last. */
const RELISTEN_FIRST_MS = 100;
const RELISTEN_MAX_MS = 5_000;

/** How often the version is read while no LISTEN is known to work: the longest a page stays stale then. */
const POLL_MS = 1_000;

export class Versions {
  private dataVersion = 0;
  /** Bumped whenever someone's token is given, replaced or revoked. */
  private currentPeopleVersion = 0;
  private unlisten: (() => Promise<void>) | undefined;
  private stopped = false;
  /** Set while a lost LISTEN is being replaced. */
  private relistenTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set while the version is read on a timer, for want of a working LISTEN. */
  private pollTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly sql: Sql) {}

  /** Follows other instances' writes where the database can tell, and reads the versions. */
  async start(): Promise<void> {
    await this.subscribe();
    // Read after LISTEN: a write committed in between is then seen one way or the other.
    await this.refreshVersion();
  }

  /** Stops listening and reading on a timer. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.relistenTimer);
    this.stopPolling();
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    if (unlisten) await unlisten();
  }

  get version(): number {
    return this.dataVersion;
  }

  get peopleVersion(): number {
    return this.currentPeopleVersion;
  }

  private async subscribe(): Promise<void> {
    if (!this.sql.listen) return;
    const unlisten = await this.sql.listen(CHANGES_CHANNEL, (payload) => this.heard(payload), () => this.lostListener());
    if (this.stopped) await unlisten();
    else this.unlisten = unlisten;
  }

  // A LISTEN connection can drop (a restarted server, a terminated backend, a network cut), and the
  // notifications sent meanwhile are gone. Until a new LISTEN works, a timer reads the version once a
  // second. A timer rather than a read before each answer: `version` stays a field every request reads
  // without waiting, the Responder needs no hook, and the cost is one query a second only while the
  // LISTEN is down; a page is then at most about a second stale.

  private lostListener(): void {
    this.unlisten = undefined;
    if (this.stopped) return;
    this.poll();
    this.relisten(RELISTEN_FIRST_MS);
  }

  private relisten(delay: number): void {
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = undefined;
      if (this.stopped) return;
      this.subscribe().then(
        // Read after LISTEN, as on opening; should the read fail, the timer goes on reading.
        () => this.refreshVersion().then(() => this.stopPolling(), () => undefined),
        () => this.relisten(Math.min(delay * 2, RELISTEN_MAX_MS)),
      );
    }, delay);
    this.relistenTimer.unref?.();
  }

  private poll(): void {
    if (this.pollTimer !== undefined) return;
    const next = (): void => {
      const timer = setTimeout(() => {
        // One read at a time: the next is timed from this one's end, unless polling stopped meanwhile.
        void this.refreshVersion()
          .catch(() => undefined)
          .then(() => {
            if (this.pollTimer === timer && !this.stopped) next();
          });
      }, POLL_MS);
      timer.unref?.();
      this.pollTimer = timer;
    };
    next();
  }

  private stopPolling(): void {
    clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** Reads the versions from the database, for a caller that cannot rely on notifications. */
  async refreshVersion(): Promise<number> {
    const [row] = await this.sql.query<{ version: number | string; people_version: number | string }>('select version, people_version from meta');
    this.seeVersion(Number(row.version));
    this.seePeopleVersion(Number(row.people_version));
    return this.dataVersion;
  }

  /** A notification's payload: the data version, or `people N` for the people version. */
  private heard(payload: string): void {
    if (payload.startsWith(PEOPLE_PAYLOAD)) this.seePeopleVersion(Number(payload.slice(PEOPLE_PAYLOAD.length)));
    else this.seeVersion(Number(payload));
  }

  /** A data version this instance wrote or read. */
  seeVersion(version: number): void {
    // Versions only grow; notifications may come after a newer version was read.
    if (Number.isSafeInteger(version) && version > this.dataVersion) this.dataVersion = version;
  }

  seePeopleVersion(version: number): void {
    if (Number.isSafeInteger(version) && version > this.currentPeopleVersion) this.currentPeopleVersion = version;
  }

  /** In the transaction of a change to someone's token: written authors are looked up again, here and in every instance. */
  async bumpPeopleVersion(tx: Sql): Promise<number> {
    const [row] = await tx.query<{ people_version: number | string }>(
      `with bumped as (update meta set people_version = people_version + 1 returning people_version)
       select people_version, pg_notify($1, $2 || people_version) from bumped`,
      [CHANGES_CHANNEL, PEOPLE_PAYLOAD],
    );
    return Number(row.people_version);
  }
}
