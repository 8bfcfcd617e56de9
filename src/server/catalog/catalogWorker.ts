// Reads or generates a catalog on a thread of its own, checks it whole and hands its rows over packed
// (packedRows.ts), for a command that then imports it into embedded PostgreSQL
// (src/server/catalog/catalogApart.ts starts it). Parsing 10,000 codes' JSON
// leaves some 150 MiB of garbage that V8 keeps mapped long after; on this thread it goes when the
// thread ends, before the database opens, instead of adding to the process's peak beside PGlite.
// A file of its own beside the code that starts it: out/src/server/catalog/ under test, dist/
// beside the CLI bundle.

import { parentPort, workerData } from 'node:worker_threads';
import { DatasetError } from './dataset';
import { loadDatasetFile } from './datasetFile';
import { generateCatalog } from './generatedCatalog';
import { packedBuffers, packRows } from './packedRows';
import { catalogRows } from './catalogRows';
import type { CatalogReply, CatalogSpec } from './catalogApart';

const port = parentPort;
if (!port) throw new Error('catalogWorker runs as a worker thread');

const spec = workerData as CatalogSpec;
let reply: CatalogReply;
try {
  const dataset = 'file' in spec ? loadDatasetFile(spec.file) : generateCatalog({ codes: spec.generate });
  reply = { ok: true, rows: packRows(catalogRows(dataset)) };
} catch (e) {
  if (!(e instanceof DatasetError)) throw e;
  reply = { ok: false, error: { source: e.source, entry: e.entry, field: e.field, problem: e.problem } };
}
port.postMessage(reply, reply.ok ? packedBuffers(reply.rows) : []);
