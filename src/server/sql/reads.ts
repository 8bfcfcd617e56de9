// The catalog's reads over SQL: one or two queries each, giving exactly what the memory Dataset gives
// for the same catalog.

import { PAGE_SIZE } from '../../core/model';
import { SERVICE_LANGUAGES } from '../../core/languages';
import type { DatasetCode, DatasetUser } from '../catalog/dataset';
import type { ListedCode, ListedRefactor, Page, Summary } from '../store';
import type { Sql } from './executor';
import { CODE_COLUMNS, codeOf, PAGE_SELECT, listedCodeOf, listedRefactorOf, REFACTOR_COLUMNS, refactorOf, userColumns, userOf, type CodeRow, type RefactorRow, type UserRow } from './rows';

const CODE_FROM = `from codes c join users u on u.id = c.user_id`;
const REFACTOR_FROM = `from refactors r join codes c on c.id = r.code_id left join users u on u.id = r.user_id`;

function offsetOf(page: number): number {
  if (!Number.isSafeInteger(page) || page < 1) throw new RangeError(`pages count from 1, not ${page}`);
  return (page - 1) * PAGE_SIZE;
}

function pageOf<T>(items: T[]): Page<T> {
  return { items: items.slice(0, PAGE_SIZE), hasNext: items.length > PAGE_SIZE };
}

export async function summary(sql: Sql): Promise<Summary> {
  const [counts] = await sql.query<{ codes: number | string; refactors: number | string; languages: string[] }>(
    `select (select count(*) from codes) as codes, (select count(*) from refactors) as refactors,
      array(select distinct language from codes) as languages`,
  );
  // Each tag as its most recent code spells it, in the order of that code: the memory Dataset's order.
  const tags = await sql.query<{ name: string; count: number | string }>(
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

export function recentCodes(sql: Sql, language: string, page: number): Promise<Page<ListedCode>> {
  return codePage(sql, language, page, 'c.created_at desc, c.id desc');
}

export function popularCodes(sql: Sql, language: string, page: number): Promise<Page<ListedCode>> {
  return codePage(sql, language, page, 'c.refactors_count desc, c.created_at desc, c.id desc');
}

export async function taggedCodes(
  sql: Sql,
  tag: string,
  language: string,
  page: number,
): Promise<{ readonly name: string; readonly page: Page<ListedCode> } | undefined> {
  const key = tag.toLowerCase();
  const [newest] = await sql.query<{ name: string }>(
    `select t.name from code_tags t join codes c on c.id = t.code_id where t.key = $1 order by c.created_at desc, c.id desc limit 1`,
    [key],
  );
  if (!newest) return undefined;
  return { name: newest.name, page: await codePage(sql, language, page, 'c.created_at desc, c.id desc', key) };
}

async function codePage(sql: Sql, language: string, page: number, order: string, tagKey?: string): Promise<Page<ListedCode>> {
  const params: unknown[] = [PAGE_SIZE + 1, offsetOf(page)];
  const where: string[] = [];
  if (language !== '') where.push(`lower(c.language) = $${params.push(language)}`);
  if (tagKey !== undefined) where.push(`exists (select 1 from code_tags t where t.code_id = c.id and t.key = $${params.push(tagKey)})`);
  const rows = await sql.query<CodeRow>(
    `with page as (select c.* from codes c ${where.length ? `where ${where.join(' and ')}` : ''} order by ${order} limit $1 offset $2)
     ${PAGE_SELECT} order by ${order}`,
    params,
  );
  return pageOf(rows.map(listedCodeOf));
}

export async function recentRefactors(sql: Sql, language: string, page: number): Promise<Page<ListedRefactor>> {
  const params: unknown[] = [PAGE_SIZE + 1, offsetOf(page)];
  const where = language === '' ? '' : `where lower(c.language) = $${params.push(language)}`;
  const rows = await sql.query<RefactorRow>(
    `select ${REFACTOR_COLUMNS} ${REFACTOR_FROM} ${where} order by r.created_at desc, r.id desc limit $1 offset $2`,
    params,
  );
  return pageOf(rows.map(listedRefactorOf));
}

/** A code with its refactorings, oldest first. */
export async function readCode(sql: Sql, id: number): Promise<DatasetCode | undefined> {
  const [row] = await sql.query<CodeRow>(`select ${CODE_COLUMNS} ${CODE_FROM} where c.id = $1`, [id]);
  if (!row) return undefined;
  // Oldest first, ties by the lower id: the order a discussion is read in.
  const refactors = await sql.query<RefactorRow>(`select ${REFACTOR_COLUMNS} ${REFACTOR_FROM} where r.code_id = $1 order by r.created_at, r.id`, [id]);
  return codeOf(row, refactors.map(refactorOf));
}

/** One refactoring of a code; the writes read back what they wrote with it, in their transaction. */
export async function readRefactor(sql: Sql, codeId: number, id: number): Promise<ListedRefactor | undefined> {
  const [row] = await sql.query<RefactorRow>(`select ${REFACTOR_COLUMNS} ${REFACTOR_FROM} where r.id = $1 and r.code_id = $2`, [id, codeId]);
  return row ? listedRefactorOf(row) : undefined;
}

/** One person's public fields, as lists nest them; the token hash is never read here. */
export async function readUser(sql: Sql, id: number): Promise<DatasetUser | undefined> {
  const [row] = await sql.query<UserRow>(`select u.id, ${userColumns('u', '')} from users u where u.id = $1`, [id]);
  return row ? userOf(row) : undefined;
}
