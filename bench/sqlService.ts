// The database-backed reference service the service.* figures measure: embedded PostgreSQL (PGlite)
// in a fresh temporary data directory, on its own thread as serve --data-dir runs it, holding the
// sample catalog, with people who may write (one unless asked for more).
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSampleDataset } from '../src/server/catalog/sampleDataset';
import { startServer, type RunningServer } from '../src/server/http/server';
import { openPgliteWorker, type Sql } from '../src/server/sql/executor';
import { openSqlStore, type SqlStore } from '../src/server/sql/sqlStore';
import { newToken, tokenHash } from '../src/server/tokens';

export interface SqlService {
  readonly server: RunningServer;
  readonly store: SqlStore;
  /** The executor the store runs on: the same embedded database. */
  readonly sql: Sql;
  /** The first writer's bearer token. */
  readonly token: string;
  /** Every writer, the first included. */
  readonly writers: ReadonlyArray<{ readonly id: number; readonly token: string }>;
  close(): Promise<void>;
}

/** Far above any rate a benchmark writes at: the default (30 a minute) would answer 429. */
const UNTHROTTLED = 1_000_000_000;

export interface SqlServiceOptions {
  /** People who may write (default 1). */
  writers?: number;
  /** The service's write rate (default UNTHROTTLED). */
  writesPerMinute?: number;
}

export async function startSqlService(options: SqlServiceOptions = {}): Promise<SqlService> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-bench-'));
  let sql: Sql | undefined;
  try {
    sql = await openPgliteWorker(path.join(dir, 'data'));
    const store = await openSqlStore(sql);
    const imported = await store.importCatalog(loadSampleDataset());
    if (imported.refused) throw new Error(`importing the sample catalog: ${imported.message}`);
    const writers: Array<{ id: number; token: string }> = [];
    for (let i = 0; i < (options.writers ?? 1); i++) {
      const token = newToken();
      const person = await store.addPerson(`Bench Writer ${i + 1}`, {}, await tokenHash(token));
      if (person.refused) throw new Error(`adding a writer: ${person.message}`);
      writers.push({ id: person.value.id, token });
    }
    const server = await startServer({ host: '127.0.0.1', port: 0, store, contributions: { writesPerMinute: options.writesPerMinute ?? UNTHROTTLED } });
    const opened = sql;
    return {
      server,
      store,
      sql: opened,
      token: writers[0].token,
      writers,
      async close() {
        await server.close();
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await sql?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
