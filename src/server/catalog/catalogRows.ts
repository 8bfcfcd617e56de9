// A catalog as an import inserts it (sql/transfer.ts): the ids and names it checks for clashes first,
// then each table's statements' parameters, IMPORT_BATCH rows a statement. Made from a Dataset here;
// packedRows.ts packs them small, so that a catalog read on a thread of its own is handed over as a
// few MiB of compressed batches rather than as the Dataset's objects, which the importing thread
// would otherwise hold whole beside PGlite's memory for as long as the import runs.

import type { Dataset, Timestamp } from './dataset';

export interface CatalogCounts {
  readonly users: number;
  readonly codes: number;
  readonly refactors: number;
}

/** The tables an import fills, in the order it fills them. */
export const ROW_TABLES = ['users', 'codes', 'tags', 'refactors'] as const;
export type RowTable = (typeof ROW_TABLES)[number];

export interface CatalogRows {
  readonly counts: CatalogCounts;
  readonly userIds: readonly number[];
  readonly userNames: readonly string[];
  readonly codeIds: readonly number[];
  readonly refactorIds: readonly number[];
  /** How many of the codes say where they were mined from (`mined`): all of them make a mined catalog. */
  readonly minedCodes: number;
  /**
   * The parameters of each of `table`'s insert statements, in order (none for no rows). Readable
   * more than once: a write that is retried reads them again.
   */
  batches(table: RowTable): Iterable<unknown[]>;
}

/** Rows an import's statement inserts at most. */
export const IMPORT_BATCH = 500;

/** Minutes east of UTC of a Timestamp's text (`…+01:00`). */
function offsetOf(t: Timestamp): number {
  const m = /([+-])(\d{2}):(\d{2})$/.exec(t.text);
  if (!m) throw new Error(`a timestamp without an offset: ${t.text}`);
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** The rows of `dataset`, each batch's parameters made when it is read. */
export function catalogRows(dataset: Dataset): CatalogRows {
  const users = [...dataset.users.values()];
  const codes = [...dataset.codes.values()];
  const refactors = codes.flatMap((c) => c.refactors);
  const tags = codes.flatMap((c) => c.tags.map((name, position) => ({ codeId: c.id, position, name })));
  // Each as its table's statement in transfer.ts takes them, column by column.
  const columns: { [T in RowTable]: () => IterableIterator<unknown[]> } = {
    users: () => inBatches(users, (batch) => [
      batch.map((u) => u.id), batch.map((u) => u.name), batch.map((u) => u.identityUrl), batch.map((u) => u.website), batch.map((u) => u.rating),
    ]),
    codes: () => inBatches(codes, (batch) => [
      batch.map((c) => c.id),
      batch.map((c) => c.title),
      batch.map((c) => c.language),
      batch.map((c) => c.permalink),
      batch.map((c) => c.userId),
      batch.map((c) => c.createdAt.date.toISOString()),
      batch.map((c) => offsetOf(c.createdAt)),
      batch.map((c) => c.updatedAt.date.toISOString()),
      batch.map((c) => offsetOf(c.updatedAt)),
      batch.map((c) => c.comment),
      batch.map((c) => c.trackbackUrl),
      batch.map((c) => c.code),
      batch.map((c) => c.refactorsCount),
      batch.map((c) => c.mined?.commit ?? null),
      batch.map((c) => c.mined?.path ?? null),
      batch.map((c) => c.mined?.function ?? null),
    ]),
    tags: () => inBatches(tags, (batch) => [
      batch.map((t) => t.codeId), batch.map((t) => t.position), batch.map((t) => t.name), batch.map((t) => t.name.toLowerCase()),
    ]),
    refactors: () => inBatches(refactors, (batch) => [
      batch.map((r) => r.id),
      batch.map((r) => r.codeId),
      batch.map((r) => r.userId),
      // A registered author's name and website are the user's, not stored again.
      batch.map((r) => (r.userId === null ? r.userName : '')),
      batch.map((r) => (r.userId === null ? r.userWebsite : '')),
      batch.map((r) => r.title),
      batch.map((r) => r.comment),
      batch.map((r) => r.code),
      batch.map((r) => r.createdAt.date.toISOString()),
      batch.map((r) => offsetOf(r.createdAt)),
      batch.map((r) => r.rating),
      batch.map((r) => r.ratingsCount),
      // Who rated is not in a catalog: the total keeps the mean right when new ratings come.
      batch.map((r) => r.rating * r.ratingsCount),
    ]),
  };
  return {
    counts: { users: users.length, codes: codes.length, refactors: refactors.length },
    userIds: users.map((u) => u.id),
    userNames: users.map((u) => u.name),
    codeIds: codes.map((c) => c.id),
    refactorIds: refactors.map((r) => r.id),
    minedCodes: codes.filter((c) => c.mined !== undefined).length,
    batches: (table) => ({ [Symbol.iterator]: columns[table] }),
  };
}

function* inBatches<T>(rows: readonly T[], params: (batch: readonly T[]) => unknown[]): IterableIterator<unknown[]> {
  for (let at = 0; at < rows.length; at += IMPORT_BATCH) yield params(rows.slice(at, at + IMPORT_BATCH));
}
