// Whole catalogs in and out of the SQL store, in the JSON format `parseDataset` reads (README, "Catalog
// format"): `serve --catalog` files become a database and a database becomes a file again, ids,
// offsets and ratings kept, so that export(import(x)) reads as x. A mined catalog (every code says
// where `mine` found it) joins a store that holds anything already: its rows take new ids, its
// people are the stored ones of their names, and a code mined before is left out with its refactorings.

import { ROW_TABLES, type CatalogCounts, type CatalogRows, type RowTable } from '../catalog/catalogRows';
import type { Sql } from './executor';
import { timestamp } from './rows';

export type { CatalogCounts } from '../catalog/catalogRows';
export { IMPORT_BATCH } from '../catalog/catalogRows';

/** What an import stored; `alreadyThere` (mined codes stored before, left out) only when it added a mined catalog to a store with content. */
export interface ImportCounts extends CatalogCounts {
  readonly alreadyThere?: number;
}

/**
 * Stores `rows` inside the caller's transaction. A mined catalog joins a store that holds anything
 * (addMined); any other catalog, and a mined one into an empty store, is inserted with its ids.
 * When an id, a person's name or a mined code's origin is already stored, answers the clashes, the
 * first of each kind: the caller then rolls back, for rows may have been inserted by then.
 */
export async function importCatalog(tx: Sql, rows: CatalogRows): Promise<ImportCounts | { clashes: string[] }> {
  if (rows.minedCodes > 0 && rows.minedCodes === rows.counts.codes) {
    const [held] = await tx.query<{ held: boolean }>('select exists (select 1 from users) or exists (select 1 from codes) as held');
    if (held.held) return addMined(tx, rows);
  }
  const clashes = await tx.query<{ kind: string; id: number | string | null }>(
    `select 'user' as kind, (select min(id) from users where id = any($1::bigint[])) as id
     union all select 'code', (select min(id) from codes where id = any($2::bigint[]))
     union all select 'refactoring', (select min(id) from refactors where id = any($3::bigint[]))`,
    [rows.userIds, rows.codeIds, rows.refactorIds],
  );
  const found = clashes.filter((c) => c.id !== null).map((c) => `${c.kind} ${Number(c.id)} is already stored`);
  // A name two people shared could not be given a token, nor revoked, by name.
  const [named] = await tx.query<{ name: string; id: number | string }>(
    'select name, id from users where name = any($1::text[]) order by id limit 1',
    [rows.userNames],
  );
  if (named) found.push(`a person named "${named.name}" is already stored (id ${Number(named.id)})`);
  if (found.length > 0) return { clashes: found };

  // In batches (catalogRows.ts), all in the caller's one transaction: each statement's parameters and
  // rows are held whole in PGlite's WebAssembly memory, which grows to the largest and is never given
  // back, so 10,000 codes in one statement took hundreds of MiB a batch does not.
  for (const table of ROW_TABLES) {
    for (const params of rows.batches(table)) await tx.query(INSERTS[table], params);
  }
  if (rows.minedCodes > 0) {
    // A mined code stored before under another id: the catalog would hold it twice.
    const [twice] = await tx.query<{ id: Num; stored: Num; mined_commit: string; mined_path: string; mined_function: string }>(
      `select n.id, o.id as stored, n.mined_commit, n.mined_path, n.mined_function
       from codes n join codes o on o.mined_commit = n.mined_commit and o.mined_path = n.mined_path and o.mined_function = n.mined_function
       where n.id = any($1::bigint[]) and not (o.id = any($1::bigint[])) order by n.id limit 1`,
      [rows.codeIds],
    );
    if (twice) {
      return { clashes: [`code ${Number(twice.id)} (${twice.mined_function} in ${twice.mined_path} at commit ${twice.mined_commit}) is already stored as code ${Number(twice.stored)}`] };
    }
  }
  // New rows then get ids past the imported ones.
  for (const table of ['users', 'codes', 'refactors']) {
    await tx.query(`select setval(pg_get_serial_sequence('${table}', 'id'), coalesce(max(id), 0) + 1, false) from ${table}`);
  }
  return rows.counts;
}

/**
 * Adds a mined catalog to a store with content: first which rows are new and the ids they take, on
 * temporary tables of the catalog's ids alone (its texts are not held twice), then each table's
 * batches inserted under those ids. A code is new unless one of the same commit, path and function
 * is stored; a person is the stored one of that name (the first, should an older import have stored
 * two), or added when a new row names them. A refactoring comes with its code, or not at all.
 */
async function addMined(tx: Sql, rows: CatalogRows): Promise<ImportCounts> {
  await tx.query(`create temporary table import_users (id bigint primary key, name text, new_id bigint, added boolean not null default false) on commit drop;
    create temporary table import_codes (id bigint primary key, user_id bigint, mined_commit text, mined_path text, mined_function text, new_id bigint) on commit drop;
    create temporary table import_refactors (id bigint primary key, code_id bigint, user_id bigint, new_id bigint) on commit drop`);
  for (const p of rows.batches('users')) await tx.query('insert into import_users (id, name) select * from unnest($1::bigint[], $2::text[])', [p[0], p[1]]);
  for (const p of rows.batches('codes')) {
    await tx.query('insert into import_codes select * from unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[])', [p[0], p[4], p[13], p[14], p[15]]);
  }
  for (const p of rows.batches('refactors')) {
    await tx.query('insert into import_refactors select * from unnest($1::bigint[], $2::bigint[], $3::bigint[])', [p[0], p[1], p[2]]);
  }
  // New ids in the catalog's order, from the sequences new rows take theirs from.
  await tx.query(`update import_codes m set new_id = n.new_id
    from (select id, nextval(pg_get_serial_sequence('codes', 'id')) as new_id from (
      select i.id from import_codes i where not exists (
        select 1 from codes c where c.mined_commit = i.mined_commit and c.mined_path = i.mined_path and c.mined_function = i.mined_function)
      order by i.id) o) n
    where m.id = n.id`);
  await tx.query(`update import_refactors r set new_id = n.new_id
    from (select id, nextval(pg_get_serial_sequence('refactors', 'id')) as new_id from (
      select r.id from import_refactors r join import_codes c on c.id = r.code_id where c.new_id is not null order by r.id) o) n
    where r.id = n.id`);
  await tx.query('update import_users i set new_id = (select min(u.id) from users u where u.name = i.name)');
  await tx.query(`update import_users i set new_id = n.new_id, added = true
    from (select id, nextval(pg_get_serial_sequence('users', 'id')) as new_id from (
      select i.id from import_users i where i.new_id is null and (
        exists (select 1 from import_codes c where c.user_id = i.id and c.new_id is not null)
        or exists (select 1 from import_refactors r where r.user_id = i.id and r.new_id is not null))
      order by i.id) o) n
    where i.id = n.id`);

  for (const p of rows.batches('users')) {
    await tx.query(`insert into users (id, name, identity_url, website, rating)
      select i.new_id, u.name, u.identity_url, u.website, u.rating
      from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::float8[]) as u (id, name, identity_url, website, rating)
      join import_users i on i.id = u.id and i.added`, p);
  }
  for (const p of rows.batches('codes')) {
    await tx.query(`insert into codes (id, title, language, permalink, user_id, created_at, created_offset, updated_at, updated_offset,
        comment, trackback_url, code, refactors_count, mined_commit, mined_path, mined_function)
      select m.new_id, c.title, c.language, c.permalink, u.new_id, c.created_at, c.created_offset, c.updated_at, c.updated_offset,
        c.comment, c.trackback_url, c.code, c.refactors_count, c.mined_commit, c.mined_path, c.mined_function
      from ${CODE_ROWS} join import_codes m on m.id = c.id and m.new_id is not null join import_users u on u.id = c.user_id`, p);
  }
  for (const p of rows.batches('tags')) {
    await tx.query(`insert into code_tags (code_id, position, name, key) select m.new_id, t.position, t.name, t.key
      from ${TAG_ROWS} join import_codes m on m.id = t.code_id and m.new_id is not null`, p);
  }
  for (const p of rows.batches('refactors')) {
    await tx.query(`insert into refactors (id, code_id, user_id, user_name, user_website, title, comment, code, created_at, created_offset,
        rating, ratings_count, rating_total)
      select n.new_id, m.new_id, u.new_id, r.user_name, r.user_website, r.title, r.comment, r.code, r.created_at, r.created_offset,
        r.rating, r.ratings_count, r.rating_total
      from ${REFACTOR_ROWS} join import_refactors n on n.id = r.id and n.new_id is not null
        join import_codes m on m.id = r.code_id left join import_users u on u.id = r.user_id`, p);
  }
  const [added] = await tx.query<{ users: Num; codes: Num; refactors: Num }>(
    `select (select count(*) from import_users where added) as users, (select count(new_id) from import_codes) as codes,
       (select count(new_id) from import_refactors) as refactors`,
  );
  const codes = Number(added.codes);
  return { users: Number(added.users), codes, refactors: Number(added.refactors), alreadyThere: rows.counts.codes - codes };
}

/** Each table's batch as rows, its parameters the columns catalogRows makes, one array each. */
const CODE_ROWS = `unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::timestamptz[], $7::smallint[],
       $8::timestamptz[], $9::smallint[], $10::text[], $11::text[], $12::text[], $13::integer[], $14::text[], $15::text[], $16::text[])
     as c (id, title, language, permalink, user_id, created_at, created_offset, updated_at, updated_offset, comment, trackback_url, code,
       refactors_count, mined_commit, mined_path, mined_function)`;
const TAG_ROWS = 'unnest($1::bigint[], $2::smallint[], $3::text[], $4::text[]) as t (code_id, position, name, key)';
const REFACTOR_ROWS = `unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
       $9::timestamptz[], $10::smallint[], $11::integer[], $12::integer[], $13::bigint[])
     as r (id, code_id, user_id, user_name, user_website, title, comment, code, created_at, created_offset, rating, ratings_count, rating_total)`;

/** Each table's statement, its rows as the batches make them. */
const INSERTS: { readonly [T in RowTable]: string } = {
  users: `insert into users (id, name, identity_url, website, rating)
     select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::float8[])`,
  codes: `insert into codes (id, title, language, permalink, user_id, created_at, created_offset, updated_at, updated_offset,
       comment, trackback_url, code, refactors_count, mined_commit, mined_path, mined_function)
     select * from ${CODE_ROWS}`,
  tags: `insert into code_tags (code_id, position, name, key) select * from ${TAG_ROWS}`,
  refactors: `insert into refactors (id, code_id, user_id, user_name, user_website, title, comment, code, created_at, created_offset,
       rating, ratings_count, rating_total)
     select * from ${REFACTOR_ROWS}`,
};

type Num = number | string;

/** Every stored row as a catalog: ids ascending, each datetime with its own offset, no token. */
export async function exportCatalog(sql: Sql): Promise<object> {
  return sql.transaction(async (tx) => {
    // One snapshot for the three lists, so that no refactoring names a code the export lacks.
    await tx.query('set transaction isolation level repeatable read, read only');
    const users = await tx.query<{ id: Num; name: string; identity_url: string; rating: Num; website: string }>(
      'select id, name, identity_url, rating, website from users order by id',
    );
    const codes = await tx.query<{
      id: Num; title: string; language: string; permalink: string; user_id: Num; created_at: Date; created_offset: Num;
      updated_at: Date; updated_offset: Num; comment: string; trackback_url: string; tags: string[]; code: string;
      mined_commit: string | null; mined_path: string; mined_function: string;
    }>(
      `select c.id, c.title, c.language, c.permalink, c.user_id, c.created_at, c.created_offset, c.updated_at, c.updated_offset,
         c.comment, c.trackback_url, array(select t.name from code_tags t where t.code_id = c.id order by t.position) as tags, c.code,
         c.mined_commit, c.mined_path, c.mined_function
       from codes c order by c.id`,
    );
    const refactors = await tx.query<{
      id: Num; code_id: Num; user_id: Num | null; user_name: string; user_website: string; title: string; rating: Num;
      ratings_count: Num; created_at: Date; created_offset: Num; comment: string; code: string;
    }>(
      `select id, code_id, user_id, user_name, user_website, title, rating, ratings_count, created_at, created_offset, comment, code
       from refactors order by id`,
    );
    return {
      users: users.map((u) => ({ id: Number(u.id), name: u.name, identityUrl: u.identity_url, rating: Number(u.rating), website: u.website })),
      codes: codes.map((c) => ({
        id: Number(c.id),
        title: c.title,
        language: c.language,
        permalink: c.permalink,
        userId: Number(c.user_id),
        createdAt: timestamp(c.created_at, c.created_offset).text,
        updatedAt: timestamp(c.updated_at, c.updated_offset).text,
        comment: c.comment,
        trackbackUrl: c.trackback_url,
        tags: c.tags,
        code: c.code,
        ...(c.mined_commit === null ? {} : { mined: { commit: c.mined_commit, path: c.mined_path, function: c.mined_function } }),
      })),
      refactors: refactors.map((r) => ({
        id: Number(r.id),
        codeId: Number(r.code_id),
        userId: r.user_id === null ? null : Number(r.user_id),
        ...(r.user_id === null ? { userName: r.user_name, userWebsite: r.user_website } : {}),
        title: r.title,
        rating: Number(r.rating),
        ratingsCount: Number(r.ratings_count),
        createdAt: timestamp(r.created_at, r.created_offset).text,
        comment: r.comment,
        code: r.code,
      })),
    };
  });
}
