// Contributions over SQL: codes, refactorings, ratings and deletions. Each is one transaction that
// bumps the data version and NOTIFYs it, so other instances over the same server drop what they rendered.
//
// Locks are taken in one order, code, then refactoring, then users, so that concurrent writes wait
// for each other instead of deadlocking; a deadlock or serialization failure is retried all the same.

import { permalinkOf } from '../catalog/datasetFields';
import type { DatasetCode } from '../catalog/dataset';
import type { ListedRefactor, NewCode, NewRefactor, WriteResult } from '../store';
import { BUMP_VERSION, CHANGES_CHANNEL, type Versions } from './changes';
import { SqlError, type Sql } from './executor';
import { readRefactor } from './reads';
import { Refused, refuse } from './refusal';
import { listedCodeOf, userColumns, type CodeRow } from './rows';

/** Deadlock and serialization failure: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 5;

/**
 * A new code, its tags, the version bumped and the other instances told, as one statement (so one
 * transaction without a BEGIN): each statement costs an embedded database a parse and a plan, which
 * a write's round trip would feel. It answers the code with its author, as GET shows it.
 * Parameters: insertCodeParams.
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
  select c.*, ${userColumns('u', 'user_')}, bumped.version, pg_notify($10, bumped.version::text) from c join users u on u.id = c.user_id, bumped`;

export function insertCodeParams(author: number, code: NewCode, now: Date): unknown[] {
  const tags = code.tags;
  return [code.title, code.language, permalinkOf(code.title), author, toSecond(now).toISOString(), code.comment, code.code, tags, tags.map((t) => t.toLowerCase()), CHANGES_CHANNEL];
}

/** Datetimes are served to the second: a stored fraction would make `date` disagree with its text. */
function toSecond(now: Date): Date {
  return new Date(Math.floor(now.getTime() / 1000) * 1000);
}

export class Contributions {
  constructor(
    private readonly sql: Sql,
    private readonly versions: Versions,
  ) {}

  /** Runs `fn` in one transaction that also bumps the version and tells other instances; a `refuse` in it rolls it back. */
  async write<T>(fn: (tx: Sql) => Promise<T>): Promise<WriteResult<T>> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { value, version } = await this.sql.transaction(async (tx) => {
          const value = await fn(tx);
          const [row] = await tx.query<{ version: number | string }>(BUMP_VERSION, [CHANGES_CHANNEL]);
          return { value, version: Number(row.version) };
        });
        this.versions.seeVersion(version);
        return { value };
      } catch (e) {
        if (e instanceof Refused) return e.refusal;
        if (e instanceof SqlError && e.code !== undefined && RETRYABLE.has(e.code) && attempt < ATTEMPTS) continue;
        throw e;
      }
    }
  }

  async addCode(author: number, code: NewCode, now: Date): Promise<DatasetCode> {
    const [row] = await this.sql.query<Omit<CodeRow, 'tags'> & { version: number | string }>(INSERT_CODE, insertCodeParams(author, code, now));
    this.versions.seeVersion(Number(row.version));
    return { ...listedCodeOf({ ...row, tags: code.tags }), refactors: [] };
  }

  addRefactor(author: number, codeId: number, refactor: NewRefactor, now: Date): Promise<WriteResult<ListedRefactor>> {
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

  rate(person: number, codeId: number, refactorId: number, value: number): Promise<WriteResult<ListedRefactor>> {
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

  deleteCode(person: number, codeId: number): Promise<WriteResult<void>> {
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

  deleteRefactor(person: number, codeId: number, refactorId: number): Promise<WriteResult<void>> {
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
