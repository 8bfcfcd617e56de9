// Rows as the SQL store selects them, and the objects the memory Dataset would give for the same
// catalog: the same fields, the same derived values, the same Timestamp texts.

import type { DatasetCode, DatasetRefactor, DatasetUser, Timestamp } from '../catalog/dataset';
import type { ListedCode, ListedRefactor } from '../store';

/** int8 and numeric come back as strings from pg and as numbers from PGlite. */
type Num = number | string;
/** timestamptz: a Date from both drivers; a string should one ever send text. */
type Time = Date | string;

/** The stored columns of a user `alias`, each named with `prefix`. */
function userFields(alias: string, prefix: string): string {
  return `${alias}.name as ${prefix}name, ${alias}.identity_url as ${prefix}identity_url, ${alias}.website as ${prefix}website,
    ${alias}.rating as ${prefix}rating`;
}

/** The columns of a user aliased `prefix`, with the refactorings they wrote counted. */
export function userColumns(alias: string, prefix: string): string {
  return `${userFields(alias, prefix)}, (select count(*) from refactors counted where counted.user_id = ${alias}.id) as ${prefix}refactors`;
}

export interface UserRow {
  id: Num;
  name: string;
  identity_url: string;
  website: string;
  rating: Num;
  refactors: Num;
}

/** A code's own stored columns, of a code `c`. */
const CODE_FIELDS = `c.id, c.title, c.language, c.permalink, c.code, c.comment, c.created_at, c.created_offset,
  c.updated_at, c.updated_offset, c.trackback_url, c.user_id, c.refactors_count`;

/** Selects a code `c` joined with its author `u`, without its refactorings. */
export const CODE_COLUMNS = `${CODE_FIELDS},
  array(select t.name from code_tags t where t.code_id = c.id order by t.position) as tags,
  ${userColumns('u', 'user_')}`;

/**
 * A page of codes in one query, over `page`, a CTE of the page's `codes` rows: the same columns as
 * CODE_COLUMNS, but the tags and the authors' counts are gathered once for the page (one grouped
 * scan each) instead of once per row, which was most of a list page's time on a database that
 * plans every query afresh.
 */
export const PAGE_SELECT = `select ${CODE_FIELDS},
  coalesce(tagged.names, '{}'::text[]) as tags,
  ${userFields('u', 'user_')}, coalesce(counted.refactors, 0) as user_refactors
  from page c join users u on u.id = c.user_id
  left join (select t.code_id, array_agg(t.name order by t.position) as names from code_tags t
    where t.code_id in (select id from page) group by t.code_id) tagged on tagged.code_id = c.id
  left join (select r.user_id, count(*) as refactors from refactors r
    where r.user_id in (select user_id from page) group by r.user_id) counted on counted.user_id = c.user_id`;

export interface CodeRow {
  id: Num;
  title: string;
  language: string;
  permalink: string;
  code: string;
  comment: string;
  created_at: Time;
  created_offset: Num;
  updated_at: Time;
  updated_offset: Num;
  trackback_url: string;
  user_id: Num;
  refactors_count: Num;
  tags: readonly string[];
  user_name: string;
  user_identity_url: string;
  user_website: string;
  user_rating: Num;
  user_refactors: Num;
}


/** Selects a refactoring `r` with its code `c` and its registered author `u` (left joined). */
export const REFACTOR_COLUMNS = `r.id, r.code_id, r.title, r.code, r.comment, r.created_at, r.created_offset, r.rating,
  r.ratings_count, r.user_id, r.user_name as anonymous_name, r.user_website as anonymous_website,
  c.language, c.title as code_title, c.permalink as code_permalink,
  ${userColumns('u', 'user_')}`;

export interface RefactorRow {
  id: Num;
  code_id: Num;
  title: string;
  code: string;
  comment: string;
  created_at: Time;
  created_offset: Num;
  rating: Num;
  ratings_count: Num;
  user_id: Num | null;
  anonymous_name: string;
  anonymous_website: string;
  language: string;
  code_title: string;
  code_permalink: string;
  user_name: string | null;
  user_identity_url: string | null;
  user_website: string | null;
  user_rating: Num | null;
  user_refactors: Num | null;
}

/** `YYYY-MM-DDThh:mm:ss±hh:mm` at `offsetMinutes` east of UTC, as the catalog writes datetimes. */
export function timestamp(at: Time, offsetMinutes: Num): Timestamp {
  const date = new Date(at);
  const offset = Number(offsetMinutes);
  const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 19);
  const abs = Math.abs(offset);
  const zone = `${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return { date, text: `${local}${zone}` };
}

export function userOf(row: UserRow): DatasetUser {
  return {
    id: Number(row.id),
    name: row.name,
    identityUrl: row.identity_url,
    rating: Number(row.rating),
    website: row.website,
    refactorsCount: Number(row.refactors),
  };
}

export function listedCodeOf(row: CodeRow): ListedCode {
  return {
    id: Number(row.id),
    title: row.title,
    language: row.language,
    permalink: row.permalink,
    code: row.code,
    comment: row.comment,
    createdAt: timestamp(row.created_at, row.created_offset),
    updatedAt: timestamp(row.updated_at, row.updated_offset),
    trackbackUrl: row.trackback_url,
    userId: Number(row.user_id),
    tags: row.tags,
    refactorsCount: Number(row.refactors_count),
    user: userOf({
      id: row.user_id,
      name: row.user_name,
      identity_url: row.user_identity_url,
      website: row.user_website,
      rating: row.user_rating,
      refactors: row.user_refactors,
    }),
  };
}

export function codeOf(row: CodeRow, refactors: readonly DatasetRefactor[]): DatasetCode {
  // The count from the rows read, so that a page is consistent even when a write came between its two queries.
  return { ...listedCodeOf(row), refactors, refactorsCount: refactors.length };
}

export function refactorOf(row: RefactorRow): DatasetRefactor {
  const user =
    row.user_id === null
      ? undefined
      : userOf({
          id: row.user_id,
          name: row.user_name ?? '',
          identity_url: row.user_identity_url ?? '',
          website: row.user_website ?? '',
          rating: row.user_rating ?? 0,
          refactors: row.user_refactors ?? 0,
        });
  return {
    id: Number(row.id),
    codeId: Number(row.code_id),
    title: row.title,
    language: row.language,
    code: row.code,
    comment: row.comment,
    createdAt: timestamp(row.created_at, row.created_offset),
    rating: Number(row.rating),
    ratingsCount: Number(row.ratings_count),
    userId: user ? user.id : null,
    userName: user ? user.name : row.anonymous_name,
    userWebsite: user ? user.website : row.anonymous_website,
    ...(user ? { user } : {}),
  };
}

export function listedRefactorOf(row: RefactorRow): ListedRefactor {
  return { ...refactorOf(row), of: { id: Number(row.code_id), title: row.code_title, permalink: row.code_permalink } };
}
