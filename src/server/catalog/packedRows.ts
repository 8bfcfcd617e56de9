// A catalog's rows (catalogRows.ts) packed to cross from the thread that read the
// catalog to the one that imports it: each statement's parameters serialized and deflated on its
// own, a few MiB for 10,000 codes where the Dataset's objects took some 80 MiB of the importing
// thread's heap, held beside PGlite's memory for the whole import. A batch is unpacked only when its
// statement is sent, and again should the write be retried.

import { deserialize, serialize } from 'node:v8';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { ROW_TABLES, type CatalogRows, type RowTable } from './catalogRows';

/** CatalogRows as one message can carry them: the ids as they are, the statements' parameters packed. */
export interface PackedRows extends Omit<CatalogRows, 'batches'> {
  /** Each statement's parameters, v8-serialized and deflated, one buffer each, in order. */
  readonly tables: { readonly [T in RowTable]: readonly Uint8Array[] };
}

export function packRows(rows: CatalogRows): PackedRows {
  const tables = {} as { [T in RowTable]: Uint8Array[] };
  for (const table of ROW_TABLES) {
    // Level 1: nearly as small as the default for these texts (about a fifth), in half the time.
    tables[table] = [...rows.batches(table)].map((params) => ownBuffer(deflateRawSync(serialize(params), { level: 1 })));
  }
  const { counts, userIds, userNames, codeIds, refactorIds, minedCodes } = rows;
  return { counts, userIds, userNames, codeIds, refactorIds, minedCodes, tables };
}

/** The buffers to move (rather than copy) with a PackedRows in a postMessage. */
export function packedBuffers(packed: PackedRows): ArrayBuffer[] {
  return ROW_TABLES.flatMap((table) => packed.tables[table].map((b) => b.buffer as ArrayBuffer));
}

export function unpackRows(packed: PackedRows): CatalogRows {
  const { counts, userIds, userNames, codeIds, refactorIds, minedCodes } = packed;
  return {
    counts, userIds, userNames, codeIds, refactorIds, minedCodes,
    batches: (table) => unpacked(packed.tables[table]),
  };
}

/** Each batch unpacked as it is reached, so that only the one being sent is held unpacked. */
function* unpacked(batches: readonly Uint8Array[]): IterableIterator<unknown[]> {
  for (const b of batches) yield deserialize(inflateRawSync(b)) as unknown[];
}

/** A copy with an ArrayBuffer of its own: a Buffer may share one (Node's pool), which cannot be moved. */
function ownBuffer(b: Buffer): Uint8Array {
  return new Uint8Array(b);
}
