// The write rate over SQL: each person's writes of the last minute are rows, counted and added in one
// transaction that holds the person's row, so instances over one database share one count and two
// writes at once cannot both take the last place.

import type { Sql } from './executor';

const MINUTE_MS = 60_000;

/**
 * Counts a write of `person` at `now`, unless they made `bound` writes in the minute before: then
 * the milliseconds until the oldest of them is a minute old (at least 1,000), and nothing is counted.
 */
export function takeWrite(sql: Sql, person: number, now: Date, bound: number): Promise<number | undefined> {
  return sql.transaction(async (tx) => {
    // Writes of one person queue here; a code's insert (which takes a key share of the row) does not.
    await tx.query('select id from users where id = $1 for no key update', [person]);
    const since = new Date(now.getTime() - MINUTE_MS).toISOString();
    await tx.query('delete from write_times where user_id = $1 and at <= $2', [person, since]);
    const [row] = await tx.query<{ n: number | string; oldest: Date | string | null }>(
      'select count(*) as n, min(at) as oldest from write_times where user_id = $1',
      [person],
    );
    if (Number(row.n) >= bound && row.oldest !== null) {
      return Math.max(1000, new Date(row.oldest).getTime() + MINUTE_MS - now.getTime());
    }
    await tx.query('insert into write_times (user_id, at) values ($1, $2)', [person, now.toISOString()]);
    return undefined;
  });
}
