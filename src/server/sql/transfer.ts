// Whole catalogs in and out of the SQL store, in the JSON format `parseDataset` reads (README, "Catalog
// format"): `serve --catalog` files become a database and a database becomes a file again, ids,
// offsets and ratings kept, so that export(import(x)) reads as x.

import { ROW_TABLES, type CatalogCounts, type CatalogRows, type RowTable } from '../catalog/catalogRows';
import type { Sql } from './executor';
import { timestamp } from './rows';

export type { CatalogCounts } from '../catalog/catalogRows';
export { IMPORT_BATCH } from '../catalog/catalogRows';

/**
 * Inserts every row of `rows` with its id, inside the caller's transaction. When an id or a
 * person's name is already stored, inserts nothing and names the first such id of each kind and name.
 */
export async function importCatalog(tx: Sql, rows: CatalogRows): Promise<CatalogCounts | { clashes: string[] }> {
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
  // New rows then get ids past the imported ones.
  for (const table of ['users', 'codes', 'refactors']) {
    await tx.query(`select setval(pg_get_serial_sequence('${table}', 'id'), coalesce(max(id), 0) + 1, false) from ${table}`);
  }
  return rows.counts;
}

/** Each table's statement, its parameters the columns catalogRows makes, one array each. */
const INSERTS: { readonly [T in RowTable]: string } = {
  users: `insert into users (id, name, identity_url, website, rating)
     select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::float8[])`,
  codes: `insert into codes (id, title, language, permalink, user_id, created_at, created_offset, updated_at, updated_offset,
       comment, trackback_url, code, refactors_count)
     select * from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::timestamptz[], $7::smallint[],
       $8::timestamptz[], $9::smallint[], $10::text[], $11::text[], $12::text[], $13::integer[])`,
  tags: 'insert into code_tags (code_id, position, name, key) select * from unnest($1::bigint[], $2::smallint[], $3::text[], $4::text[])',
  refactors: `insert into refactors (id, code_id, user_id, user_name, user_website, title, comment, code, created_at, created_offset,
       rating, ratings_count, rating_total)
     select * from unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
       $9::timestamptz[], $10::smallint[], $11::integer[], $12::integer[], $13::bigint[])`,
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
    }>(
      `select c.id, c.title, c.language, c.permalink, c.user_id, c.created_at, c.created_offset, c.updated_at, c.updated_offset,
         c.comment, c.trackback_url, array(select t.name from code_tags t where t.code_id = c.id order by t.position) as tags, c.code
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
