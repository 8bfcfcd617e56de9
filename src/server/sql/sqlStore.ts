// The writable catalog store over PostgreSQL (embedded or a server: executor.ts). Reads are one or two
// queries giving exactly what the memory Dataset gives for the same catalog; each write is one
// transaction that bumps meta.version and NOTIFYs it, so other instances over the same server drop
// what they rendered.
//
// Locks are taken in one order, code, then refactoring, then users, so that concurrent writes wait
// for each other instead of deadlocking; a deadlock or serialization failure is retried all the same.

import { PAGE_SIZE } from '../../api/model';
import { SERVICE_LANGUAGES } from '../../api/languages';
import { permalinkOf } from '../catalog/datasetFields';
import type { Dataset, DatasetCode, DatasetUser } from '../catalog/dataset';
import type { CatalogStore, CatalogWriter, ListedCode, ListedRefactor, NewCode, NewlyStoredCode, NewRefactor, Page, Summary, WriteRefusal, WriteResult } from '../store';
import { SqlError, type Sql } from './executor';
import { migrate } from './migrations';
import { CODE_COLUMNS, codeOf, listedCodeOf, listedRefactorOf, REFACTOR_COLUMNS, refactorOf, storedCodeOf, userColumns, userOf, type CodeRow, type CodeTableRow, type RefactorRow, type UserRow } from './rows';
import { exportCatalog, importCatalog, type CatalogCounts } from './transfer';
import { takeWrite } from './writeRate';

/** The channel every instance NOTIFYs its new version on. */
export const CHANGES_CHANNEL = 'refactor_browser_changes';

/** Who a token command names: a person's name, or `{ id }` (the only way to name one of two people of one name). */
export type PersonRef = string | { readonly id: number };

/** A person as the command line lists them: never their token's hash. */
export interface Person {
  readonly id: number;
  readonly name: string;
  readonly website: string;
  readonly identityUrl: string;
  readonly hasToken: boolean;
}

/** Thrown inside a write's transaction to roll it back and answer with the refusal. */
class Refused extends Error {
  constructor(readonly refusal: WriteRefusal) {
    super(refusal.message);
  }
}

function refuse(refused: WriteRefusal['refused'], message: string): never {
  throw new Refused({ refused, message });
}

/** Deadlock and serialization failure: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Bumps the data version and tells the other instances, in the writing transaction (a notification
 * is sent when it commits). One statement: each costs an embedded database a parse and a plan.
 */
const BUMP_VERSION = `with bumped as (update meta set version = version + 1 returning version)
  select version, pg_notify($1, version::text) from bumped`;

/**
 * A new code, its tags, the version bumped and the other instances told, as one statement (so one
 * transaction without a BEGIN): each statement costs an embedded database a parse and a plan, which
 * a write's round trip would feel. Parameters: insertCodeParams.
 */
export const INSERT_CODE = `with c as (
    insert into codes (title, language, permalink, user_id, created_at, created_offset, updated_at, updated_offset, comment, trackback_url, code)
    values ($1, $2, $3, $4, $5, 0, $5, 0, $6, '', $7) returning *
  ), tagged as (
    insert into code_tags (code_id, position, name, key)
    select c.id, t.ordinality - 1, t.name, t.key from c, unnest($8::text[], $9::text[]) with ordinality as t(name, key, ordinality)
  ), bumped as (
    update meta set version = version + 1 returning version
  )
  select c.*, bumped.version, pg_notify($10, bumped.version::text) from c, bumped`;

export function insertCodeParams(author: number, code: NewCode, now: Date): unknown[] {
  const tags = code.tags;
  return [code.title, code.language, permalinkOf(code.title), author, toSecond(now).toISOString(), code.comment, code.code, tags, tags.map((t) => t.toLowerCase()), CHANGES_CHANNEL];
}

/** The start of a notification's payload that carries the people version rather than the data version. */
const PEOPLE_PAYLOAD = 'people ';

/** Token hashes kept at once; past it, lookups are made each time until the people change. */
const MAX_KEPT_AUTHORS = 10_000;
const ATTEMPTS = 5;

/** How soon a lost LISTEN is tried again: doubling from the first delay, never longer than the last. */
const RELISTEN_FIRST_MS = 100;
const RELISTEN_MAX_MS = 5_000;

/** How often the version is read while no LISTEN is known to work: the longest a page stays stale then. */
const POLL_MS = 1_000;

/** The same key in every instance: adding people one at a time keeps names unique. */
const PEOPLE_LOCK = 0x7065_6f70;

/** Datetimes are served to the second: a stored fraction would make `date` disagree with its text. */
function toSecond(now: Date): Date {
  return new Date(Math.floor(now.getTime() / 1000) * 1000);
}

function offsetOf(page: number): number {
  if (!Number.isSafeInteger(page) || page < 1) throw new RangeError(`pages count from 1, not ${page}`);
  return (page - 1) * PAGE_SIZE;
}

function pageOf<T>(items: T[]): Page<T> {
  return { items: items.slice(0, PAGE_SIZE), hasNext: items.length > PAGE_SIZE };
}

const CODE_FROM = `from codes c join users u on u.id = c.user_id`;
const REFACTOR_FROM = `from refactors r join codes c on c.id = r.code_id left join users u on u.id = r.user_id`;

export class SqlStore implements CatalogStore {
  private currentVersion = 0;
  /** Bumped whenever someone's token is given, replaced or revoked. */
  private peopleVersion = 0;
  /** Token hashes of people who may write, known at a people version. */
  private authors: { version: number; ids: Map<string, number> } = { version: 0, ids: new Map() };
  private unlisten: (() => Promise<void>) | undefined;
  private closed = false;
  /** Set while a lost LISTEN is being replaced. */
  private relistenTimer: ReturnType<typeof setTimeout> | undefined;
  /** Set while the version is read on a timer, for want of a working LISTEN. */
  private pollTimer: ReturnType<typeof setTimeout> | undefined;
  readonly writer: CatalogWriter;

  private constructor(private readonly sql: Sql) {
    this.writer = {
      personByTokenHash: (hash) => this.personByTokenHash(hash),
      authorByTokenHash: (hash) => this.authorByTokenHash(hash),
      addCode: (author, code, now) => this.addCode(author, code, now),
      addRefactor: (author, codeId, refactor, now) => this.addRefactor(author, codeId, refactor, now),
      rate: (person, codeId, refactorId, value) => this.rate(person, codeId, refactorId, value),
      deleteCode: (person, codeId) => this.deleteCode(person, codeId),
      deleteRefactor: (person, codeId, refactorId) => this.deleteRefactor(person, codeId, refactorId),
      takeWrite: (person, now, bound) => takeWrite(this.sql, person, now, bound),
    };
  }

  /** Migrates the schema, reads the version, and follows other instances' writes where the database can tell. */
  static async open(sql: Sql): Promise<SqlStore> {
    await migrate(sql);
    const store = new SqlStore(sql);
    await store.subscribe();
    // Read after LISTEN: a write committed in between is then seen one way or the other.
    await store.refreshVersion();
    return store;
  }

  private async subscribe(): Promise<void> {
    if (!this.sql.listen) return;
    const unlisten = await this.sql.listen(CHANGES_CHANNEL, (payload) => this.heard(payload), () => this.lostListener());
    if (this.closed) await unlisten();
    else this.unlisten = unlisten;
  }

  // A LISTEN connection can drop (a restarted server, a terminated backend, a network cut), and the
  // notifications sent meanwhile are gone. Until a new LISTEN works, a timer reads the version once a
  // second. A timer rather than a read before each answer: `version` stays a field every request reads
  // without waiting, the Responder needs no hook, and the cost is one query a second only while the
  // LISTEN is down; a page is then at most about a second stale.

  private lostListener(): void {
    this.unlisten = undefined;
    if (this.closed) return;
    this.poll();
    this.relisten(RELISTEN_FIRST_MS);
  }

  private relisten(delay: number): void {
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = undefined;
      if (this.closed) return;
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
            if (this.pollTimer === timer && !this.closed) next();
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

  get version(): number {
    return this.currentVersion;
  }

  /** Reads the versions from the database, for a caller that cannot rely on notifications. */
  async refreshVersion(): Promise<number> {
    const [row] = await this.sql.query<{ version: number | string; people_version: number | string }>('select version, people_version from meta');
    this.seeVersion(Number(row.version));
    this.seePeopleVersion(Number(row.people_version));
    return this.currentVersion;
  }

  /** A notification's payload: the data version, or `people N` for the people version. */
  private heard(payload: string): void {
    if (payload.startsWith(PEOPLE_PAYLOAD)) this.seePeopleVersion(Number(payload.slice(PEOPLE_PAYLOAD.length)));
    else this.seeVersion(Number(payload));
  }

  private seeVersion(version: number): void {
    // Versions only grow; notifications may come after a newer version was read.
    if (Number.isSafeInteger(version) && version > this.currentVersion) this.currentVersion = version;
  }

  private seePeopleVersion(version: number): void {
    if (Number.isSafeInteger(version) && version > this.peopleVersion) this.peopleVersion = version;
  }

  /** In the transaction of a change to someone's token: written authors are looked up again, here and in every instance. */
  private async bumpPeopleVersion(tx: Sql): Promise<number> {
    const [row] = await tx.query<{ people_version: number | string }>(
      `with bumped as (update meta set people_version = people_version + 1 returning people_version)
       select people_version, pg_notify($1, $2 || people_version) from bumped`,
      [CHANGES_CHANNEL, PEOPLE_PAYLOAD],
    );
    return Number(row.people_version);
  }

  async ping(): Promise<void> {
    if (this.closed) throw new SqlError('the storage is closed', undefined);
    await this.sql.query('select 1');
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.relistenTimer);
    this.stopPolling();
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    if (unlisten) await unlisten();
    await this.sql.close();
  }

  // Reads

  async summary(): Promise<Summary> {
    const [counts] = await this.sql.query<{ codes: number | string; refactors: number | string; languages: string[] }>(
      `select (select count(*) from codes) as codes, (select count(*) from refactors) as refactors,
        array(select distinct language from codes) as languages`,
    );
    // Each tag as its most recent code spells it, in the order of that code: the memory Dataset's order.
    const tags = await this.sql.query<{ name: string; count: number | string }>(
      `select name, count from (
         select distinct on (t.key) t.name, count(*) over (partition by t.key) as count, c.created_at, c.id, t.position
         from code_tags t join codes c on c.id = t.code_id
         order by t.key, c.created_at desc, c.id desc
       ) newest order by created_at desc, id desc, position`,
    );
    const present = new Set(counts.languages);
    return {
      codes: Number(counts.codes),
      refactors: Number(counts.refactors),
      languages: SERVICE_LANGUAGES.filter((l) => present.has(l)),
      tags: tags.map((t) => ({ name: t.name, count: Number(t.count) })),
    };
  }

  recentCodes(language: string, page: number): Promise<Page<ListedCode>> {
    return this.codePage(language, page, 'c.created_at desc, c.id desc');
  }

  popularCodes(language: string, page: number): Promise<Page<ListedCode>> {
    return this.codePage(language, page, 'c.refactors_count desc, c.created_at desc, c.id desc');
  }

  async taggedCodes(tag: string, language: string, page: number): Promise<{ readonly name: string; readonly page: Page<ListedCode> } | undefined> {
    const key = tag.toLowerCase();
    const [newest] = await this.sql.query<{ name: string }>(
      `select t.name from code_tags t join codes c on c.id = t.code_id where t.key = $1 order by c.created_at desc, c.id desc limit 1`,
      [key],
    );
    if (!newest) return undefined;
    return { name: newest.name, page: await this.codePage(language, page, 'c.created_at desc, c.id desc', key) };
  }

  private async codePage(language: string, page: number, order: string, tagKey?: string): Promise<Page<ListedCode>> {
    const params: unknown[] = [PAGE_SIZE + 1, offsetOf(page)];
    const where: string[] = [];
    if (language !== '') where.push(`lower(c.language) = $${params.push(language)}`);
    if (tagKey !== undefined) where.push(`exists (select 1 from code_tags t where t.code_id = c.id and t.key = $${params.push(tagKey)})`);
    const rows = await this.sql.query<CodeRow>(
      `select ${CODE_COLUMNS} ${CODE_FROM} ${where.length ? `where ${where.join(' and ')}` : ''} order by ${order} limit $1 offset $2`,
      params,
    );
    return pageOf(rows.map(listedCodeOf));
  }

  async recentRefactors(language: string, page: number): Promise<Page<ListedRefactor>> {
    const params: unknown[] = [PAGE_SIZE + 1, offsetOf(page)];
    const where = language === '' ? '' : `where lower(c.language) = $${params.push(language)}`;
    const rows = await this.sql.query<RefactorRow>(
      `select ${REFACTOR_COLUMNS} ${REFACTOR_FROM} ${where} order by r.created_at desc, r.id desc limit $1 offset $2`,
      params,
    );
    return pageOf(rows.map(listedRefactorOf));
  }

  code(id: number): Promise<DatasetCode | undefined> {
    return readCode(this.sql, id);
  }

  async refactor(codeId: number, id: number): Promise<ListedRefactor | undefined> {
    return readRefactor(this.sql, codeId, id);
  }

  // Writes

  private async personByTokenHash(hash: string): Promise<DatasetUser | undefined> {
    const [row] = await this.sql.query<UserRow>(`select u.id, ${userColumns('u', '')} from users u where u.token_hash = $1`, [hash]);
    return row ? userOf(row) : undefined;
  }

  /**
   * Kept until any person's token changes here or in another instance (the people version), so a
   * write costs no lookup and a revoked or replaced token stops working at once. Unknown tokens are
   * not kept: made-up ones cannot fill memory.
   */
  private async authorByTokenHash(hash: string): Promise<number | undefined> {
    if (this.authors.version !== this.peopleVersion) this.authors = { version: this.peopleVersion, ids: new Map() };
    const kept = this.authors.ids.get(hash);
    if (kept !== undefined) return kept;
    const { version } = this.authors;
    const [row] = await this.sql.query<{ id: number | string }>('select id from users where token_hash = $1', [hash]);
    if (!row) return undefined;
    if (this.authors.version === version && this.authors.ids.size < MAX_KEPT_AUTHORS) this.authors.ids.set(hash, Number(row.id));
    return Number(row.id);
  }

  /** Runs `fn` in one transaction that also bumps the version and tells other instances. */
  private async write<T>(fn: (tx: Sql) => Promise<T>): Promise<WriteResult<T>> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { value, version } = await this.sql.transaction(async (tx) => {
          const value = await fn(tx);
          const [row] = await tx.query<{ version: number | string }>(BUMP_VERSION, [CHANGES_CHANNEL]);
          return { value, version: Number(row.version) };
        });
        this.seeVersion(version);
        return { value };
      } catch (e) {
        if (e instanceof Refused) return e.refusal;
        if (e instanceof SqlError && e.code !== undefined && RETRYABLE.has(e.code) && attempt < ATTEMPTS) continue;
        throw e;
      }
    }
  }

  private async addCode(author: number, code: NewCode, now: Date): Promise<NewlyStoredCode> {
    const [row] = await this.sql.query<CodeTableRow & { version: number | string }>(INSERT_CODE, insertCodeParams(author, code, now));
    this.seeVersion(Number(row.version));
    return { ...storedCodeOf(row, code.tags), refactors: [] };
  }

  private addRefactor(author: number, codeId: number, refactor: NewRefactor, now: Date): Promise<WriteResult<ListedRefactor>> {
    return this.write(async (tx) => {
      // Locked so that a delete of the code waits for this refactoring, or this one sees the code gone.
      const [code] = await tx.query<{ created_at: Date | string }>('select created_at from codes where id = $1 for no key update', [codeId]);
      if (!code) refuse('not-found', `There is no code ${codeId}`);
      // Never before its code (a clock set back, an imported code dated ahead): the catalog refuses that.
      const created = new Date(Math.max(toSecond(now).getTime(), new Date(code.created_at).getTime()));
      const [row] = await tx.query<{ id: number | string }>(
        `insert into refactors (code_id, user_id, title, comment, code, created_at, created_offset) values ($1, $2, $3, $4, $5, $6, 0) returning id`,
        [codeId, author, refactor.title, refactor.comment, refactor.code, created.toISOString()],
      );
      await tx.query('update codes set refactors_count = refactors_count + 1 where id = $1', [codeId]);
      return (await readRefactor(tx, codeId, Number(row.id)))!;
    });
  }

  private rate(person: number, codeId: number, refactorId: number, value: number): Promise<WriteResult<ListedRefactor>> {
    return this.write(async (tx) => {
      if (!Number.isInteger(value) || value < 1 || value > 5) refuse('invalid', 'A rating is a whole number from 1 to 5');
      const [refactor] = await tx.query<{ user_id: number | string | null }>(
        'select user_id from refactors where id = $1 and code_id = $2 for no key update',
        [refactorId, codeId],
      );
      if (!refactor) refuse('not-found', `Code ${codeId} has no refactoring ${refactorId}`);
      const author = refactor.user_id === null ? null : Number(refactor.user_id);
      if (author === person) refuse('invalid', "You can't rate your own refactoring");
      if (author !== null) await lockUsers(tx, [author]);
      // The primary key decides between concurrent ratings by one person: one is stored, the other refused.
      const stored = await tx.query('insert into ratings (refactor_id, user_id, value) values ($1, $2, $3) on conflict do nothing returning value', [
        refactorId,
        person,
        value,
      ]);
      if (stored.length === 0) refuse('invalid', 'You have already rated this refactoring');
      await tx.query(
        `update refactors set rating_total = rating_total + $2, ratings_count = ratings_count + 1,
           rating = round((rating_total + $2)::numeric / (ratings_count + 1)) where id = $1`,
        [refactorId, value],
      );
      if (author !== null) await rerate(tx, [author]);
      return (await readRefactor(tx, codeId, refactorId))!;
    });
  }

  private deleteCode(person: number, codeId: number): Promise<WriteResult<void>> {
    return this.write(async (tx) => {
      const [code] = await tx.query<{ user_id: number | string }>('select user_id from codes where id = $1 for update', [codeId]);
      if (!code) refuse('not-found', `There is no code ${codeId}`);
      if (Number(code.user_id) !== person) refuse('forbidden', 'Only its author can delete a code');
      const authors = await tx.query<{ user_id: number | string }>('delete from refactors where code_id = $1 and user_id is not null returning user_id', [codeId]);
      await tx.query('delete from codes where id = $1', [codeId]);
      const affected = [...new Set(authors.map((a) => Number(a.user_id)))];
      await lockUsers(tx, affected);
      await rerate(tx, affected);
    });
  }

  private deleteRefactor(person: number, codeId: number, refactorId: number): Promise<WriteResult<void>> {
    return this.write(async (tx) => {
      const [code] = await tx.query<{ user_id: number | string }>('select user_id from codes where id = $1 for no key update', [codeId]);
      if (!code) refuse('not-found', `There is no code ${codeId}`);
      const [refactor] = await tx.query<{ user_id: number | string | null }>('select user_id from refactors where id = $1 and code_id = $2 for update', [
        refactorId,
        codeId,
      ]);
      if (!refactor) refuse('not-found', `Code ${codeId} has no refactoring ${refactorId}`);
      const author = refactor.user_id === null ? null : Number(refactor.user_id);
      if (author !== person && Number(code.user_id) !== person) refuse('forbidden', "Only its author or the code's author can delete a refactoring");
      await tx.query('delete from refactors where id = $1', [refactorId]);
      await tx.query('update codes set refactors_count = refactors_count - 1 where id = $1', [codeId]);
      if (author !== null) {
        await lockUsers(tx, [author]);
        await rerate(tx, [author]);
      }
    });
  }

  // People: the command line's, not the HTTP service's. Their tokens are no page's content, so these
  // leave the data version alone and bump the people version instead.

  async addPerson(name: string, about: { website?: string; identityUrl?: string }, tokenHash: string): Promise<WriteResult<Person>> {
    if (name.trim() === '') return { refused: 'invalid', message: 'A name must not be empty' };
    return this.peopleWrite(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [PEOPLE_LOCK]);
      const taken = await tx.query('select 1 from users where name = $1', [name]);
      if (taken.length > 0) refuse('invalid', `The name "${name}" is already taken: choose another one`);
      const [row] = await tx.query<PersonRow>(
        `insert into users (name, website, identity_url, token_hash) values ($1, $2, $3, $4) returning ${PERSON_COLUMNS}`,
        [name, about.website ?? '', about.identityUrl ?? '', tokenHash],
      );
      return row;
    });
  }

  /** A new token for the person of that name or id; the old one stops working at once. */
  replaceToken(who: PersonRef, tokenHash: string): Promise<WriteResult<Person>> {
    return this.setToken(who, tokenHash);
  }

  /** The person keeps their rows but can no longer write. */
  revoke(who: PersonRef): Promise<WriteResult<Person>> {
    return this.setToken(who, null);
  }

  private setToken(who: PersonRef, tokenHash: string | null): Promise<WriteResult<Person>> {
    return this.peopleWrite(async (tx) => {
      const byName = typeof who === 'string';
      const found = await tx.query<{ id: number | string }>(`select id from users where ${byName ? 'name' : 'id'} = $1 order by id limit 2`, [byName ? who : who.id]);
      if (found.length === 0) refuse('not-found', byName ? `There is no person named "${who}"` : `There is no person with id ${who.id}`);
      // Names in a catalog imported before names were checked may repeat; a token belongs to one person.
      if (found.length > 1) refuse('invalid', `More than one person is named "${who as string}": name one by id ("users list" shows the ids)`);
      const [row] = await tx.query<PersonRow>(`update users set token_hash = $2 where id = $1 returning ${PERSON_COLUMNS}`, [found[0].id, tokenHash]);
      return row;
    });
  }

  /** A change to one person's token in one transaction that bumps the people version, here once it commits. */
  private async peopleWrite(fn: (tx: Sql) => Promise<PersonRow>): Promise<WriteResult<Person>> {
    try {
      const { row, version } = await this.sql.transaction(async (tx) => ({ row: await fn(tx), version: await this.bumpPeopleVersion(tx) }));
      this.seePeopleVersion(version);
      return { value: personOf(row) };
    } catch (e) {
      if (e instanceof Refused) return e.refusal;
      throw e;
    }
  }

  async people(): Promise<Person[]> {
    return (await this.sql.query<PersonRow>(`select ${PERSON_COLUMNS} from users order by id`)).map(personOf);
  }

  // Whole catalogs

  /** Stores a catalog with its ids, all or nothing: an id or a person's name already stored refuses it. */
  importCatalog(dataset: Dataset): Promise<WriteResult<CatalogCounts>> {
    return this.write(async (tx) => {
      // As addPerson: so that no name is added twice meanwhile.
      await tx.query('select pg_advisory_xact_lock($1)', [PEOPLE_LOCK]);
      const result = await importCatalog(tx, dataset);
      if ('clashes' in result) refuse('invalid', `Nothing was imported: ${result.clashes.join(', ')}`);
      return result;
    });
  }

  /** The catalog as `parseDataset` reads it, without tokens. */
  exportCatalog(): Promise<object> {
    return exportCatalog(this.sql);
  }
}

export function openSqlStore(sql: Sql): Promise<SqlStore> {
  return SqlStore.open(sql);
}

const PERSON_COLUMNS = 'id, name, website, identity_url, token_hash is not null as has_token';

interface PersonRow {
  id: number | string;
  name: string;
  website: string;
  identity_url: string;
  has_token: boolean;
}

function personOf(row: PersonRow): Person {
  return { id: Number(row.id), name: row.name, website: row.website, identityUrl: row.identity_url, hasToken: row.has_token };
}

async function readCode(sql: Sql, id: number): Promise<DatasetCode | undefined> {
  const [row] = await sql.query<CodeRow>(`select ${CODE_COLUMNS} ${CODE_FROM} where c.id = $1`, [id]);
  if (!row) return undefined;
  // Oldest first, ties by the lower id: the order a discussion is read in.
  const refactors = await sql.query<RefactorRow>(`select ${REFACTOR_COLUMNS} ${REFACTOR_FROM} where r.code_id = $1 order by r.created_at, r.id`, [id]);
  return codeOf(row, refactors.map(refactorOf));
}

async function readRefactor(sql: Sql, codeId: number, id: number): Promise<ListedRefactor | undefined> {
  const [row] = await sql.query<RefactorRow>(`select ${REFACTOR_COLUMNS} ${REFACTOR_FROM} where r.id = $1 and r.code_id = $2`, [id, codeId]);
  return row ? listedRefactorOf(row) : undefined;
}

/**
 * Locks users before their rating is computed again: the next statement then sees every rating
 * committed by a transaction that held the lock before. In id order, so two writes cannot wait on each other.
 */
async function lockUsers(tx: Sql, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query('select id from users where id = any($1::bigint[]) order by id for no key update', [[...ids]]);
}

/** A user's rating: the mean of their rated refactorings' ratings, 0 when none is rated. */
async function rerate(tx: Sql, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  // sum / count in float8, as exact as the same division in JavaScript.
  await tx.query(
    `update users u set rating = coalesce(
       (select sum(r.rating)::float8 / count(*) from refactors r where r.user_id = u.id and r.ratings_count > 0), 0)
     where u.id = any($1::bigint[])`,
    [[...ids]],
  );
}
