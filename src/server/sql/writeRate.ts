// The write rate over SQL: each person's writes of the last minute are rows, counted and added by one
// call of the database's take_write (migration 3), which holds the person's row while it counts, so
// instances over one database share one count and two writes at once cannot both take the last place.

import type { Sql } from './executor';

const MINUTE_MS = 60_000;

/**
 * Counts a write of `person` at `now`, unless they made `bound` writes in the minute before: then
 * the milliseconds until the oldest of them is a minute old (at least 1,000), and nothing is counted.
 */
export async function takeWrite(sql: Sql, person: number, now: Date, bound: number): Promise<number | undefined> {
  const [row] = await sql.query<{ oldest: Date | string | null }>('select take_write($1, $2, $3) as oldest', [person, now.toISOString(), bound]);
  if (row.oldest === null) return undefined;
  return Math.max(1000, new Date(row.oldest).getTime() + MINUTE_MS - now.getTime());
}
