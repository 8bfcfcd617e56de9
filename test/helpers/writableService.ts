// A writable reference service for tests: the SQL store over an embedded PostgreSQL in memory (or
// another database `open` gives), served over loopback HTTP. Opening one costs seconds, so a suite opens one in `before` and
// empties it between tests with reset().

import { startServer, type RunningServer } from '../../src/server/http/server';
import { openPglite, type Sql } from '../../src/server/sql/executor';
import { openSqlStore, type SqlStore } from '../../src/server/sql/sqlStore';
import { newToken, tokenHash } from '../../src/server/tokens';
import type { Dataset } from '../../src/server/catalog/dataset';
import type { ContributionLimits } from '../../src/server/writes/handler';

export interface WritableService {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  readonly store: SqlStore;
  /** The store's own connection, to look at rows no page shows. */
  readonly sql: Sql;
  readonly server: RunningServer;
  /** Adds a person who may write and returns their token. */
  addPerson(name: string, about?: { website?: string; identityUrl?: string }): Promise<string>;
  /** Loads a catalog into the (empty) store. */
  load(catalog: Dataset): Promise<void>;
  /** Forgets every row and person (ids go on counting, so no write rate carries over); what was served before is not served again. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function startWritableService(limits: Partial<ContributionLimits> = {}, open: () => Promise<Sql> = () => openPglite(undefined)): Promise<WritableService> {
  const sql = await open();
  const store = await openSqlStore(sql);
  const server = await startServer({ port: 0, host: '127.0.0.1', store, contributions: limits });
  return {
    url: server.url,
    store,
    sql,
    server,
    async addPerson(name, about = {}) {
      const token = newToken();
      const added = await store.addPerson(name, about, await tokenHash(token));
      if (added.refused) throw new Error(added.message);
      return token;
    },
    async load(catalog) {
      const loaded = await store.importCatalog(catalog);
      if (loaded.refused) throw new Error(loaded.message);
    },
    async reset() {
      await sql.query('truncate users, codes, code_tags, refactors, ratings cascade');
      await sql.query('update meta set version = version + 1');
      await store.refreshVersion();
    },
    async close() {
      await server.close();
      await store.close();
    },
  };
}
