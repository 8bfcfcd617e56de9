// A catalog read or generated on a thread that ends once it has handed the catalog over
// (catalogWorker.ts): the parsing's garbage ends with it. Only the catalog's rows, packed small
// (packedRows.ts), come across: the Dataset's objects would stay in the importing thread's heap
// beside PGlite's memory for as long as the import runs.

import { DatasetError } from './dataset';
import type { CatalogRows } from './catalogRows';
import { unpackRows, type PackedRows } from './packedRows';

/** What to read: a catalog file, or the generated catalog of so many codes. */
export type CatalogSpec = { readonly file: string } | { readonly generate: number };

export type CatalogReply =
  | { readonly ok: true; readonly rows: PackedRows }
  | { readonly ok: false; readonly error: { source: string; entry: string | undefined; field: string | undefined; problem: string } };

/**
 * The rows to import of the catalog `spec` names, read and checked whole on a thread of its own; a
 * catalog that cannot be served rejects with its DatasetError.
 */
export async function loadCatalogApart(spec: CatalogSpec): Promise<CatalogRows> {
  const { Worker } = await import('node:worker_threads');
  const path = await import('node:path');
  // Beside this module: out/src/server/catalog/ when compiled, dist/ beside the CLI bundle.
  const worker = new Worker(path.join(__dirname, 'catalogWorker.js'), { workerData: spec });
  try {
    const reply = await new Promise<CatalogReply>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the catalog's thread ended (${code}) before answering`)));
    });
    if (!reply.ok) throw new DatasetError(reply.error.source, reply.error.entry, reply.error.field, reply.error.problem);
    return unpackRows(reply.rows);
  } finally {
    await worker.terminate();
  }
}
