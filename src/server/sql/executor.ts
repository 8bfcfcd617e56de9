// The one way the SQL store talks to PostgreSQL: embedded (PGlite, a data directory or memory) or a
// server (pg). Both speak the same SQL; this hides how each runs a query, a transaction and LISTEN.
// The drivers are loaded only when opened, so a bundle that never opens one never loads it.

import { withoutCredentials } from '../../core/errors';
import { pgliteStartParams } from './pgliteSettings';
import type { PgliteReply, PgliteRequest, PgliteWorkerData } from './pgliteProtocol';

export interface Sql {
  /**
   * Rows as the driver parses them: int8 is a number in PGlite and a string in pg, so read ids and
   * counts through Number(). Without params, `text` may hold several statements (the rows are the
   * last one's).
   */
  query<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Commits what `fn` did when it resolves, rolls it all back when it rejects. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Calls `onPayload` for each NOTIFY on `channel` from any connection; resolves to an unsubscribe.
   * `onLost` is called once if the subscription ends without being unsubscribed (its connection
   * failed or was closed by the server): no notification comes after it.
   */
  listen?(channel: string, onPayload: (payload: string) => void, onLost: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** A failure from the database: its SQLSTATE (`23505` for a unique violation) and a message with no credentials. */
export class SqlError extends Error {
  override readonly name = 'SqlError';
  constructor(
    message: string,
    /** The SQLSTATE, when the database sent one. */
    readonly code: string | undefined,
  ) {
    super(withoutCredentials(message));
  }

  /** Drops the cause: a driver's error may hold the connection string. */
  static from(e: unknown, context?: string): SqlError {
    if (e instanceof SqlError) return e;
    const message = e instanceof Error ? e.message : String(e);
    const code = typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;
    return new SqlError(context ? `${context}: ${message}` : message, code);
  }
}

async function translated<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw SqlError.from(e);
  }
}

/** Quotes an identifier for LISTEN and UNLISTEN, which take no parameters. */
function identifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Embedded PostgreSQL in this process: files under `dataDir`, or memory only when it is undefined. */
export async function openPglite(dataDir: string | undefined): Promise<Sql> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await translated(async () => {
    const options = { startParams: pgliteStartParams(PGlite.defaultStartParams) };
    const opened = dataDir === undefined ? new PGlite(options) : new PGlite(dataDir, options);
    await opened.waitReady;
    return opened;
  });
  type Runner = { query: typeof db.query; exec: typeof db.exec };
  const over = (runner: Runner, inTransaction: boolean): Sql => ({
    query: <T>(text: string, params?: readonly unknown[]) =>
      translated(async () => {
        if (params === undefined || params.length === 0) {
          const results = await runner.exec(text);
          return (results.at(-1)?.rows ?? []) as T[];
        }
        return (await runner.query<T>(text, [...params])).rows;
      }),
    // PGlite is one connection: a transaction inside one is the same transaction.
    transaction: inTransaction
      ? <T>(fn: (tx: Sql) => Promise<T>) => fn(over(runner, true))
      : async <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => {
          const thrown = new Set<unknown>();
          try {
            return await db.transaction(async (tx) => {
              try {
                return await fn(over(tx, true));
              } catch (e) {
                thrown.add(e);
                throw e;
              }
            });
          } catch (e) {
            // What `fn` threw reaches the caller as it was; only the driver's own failures are translated.
            throw thrown.has(e) ? e : SqlError.from(e);
          }
        },
    close: async () => {
      if (!inTransaction) await db.close();
    },
  });
  return over(db, false);
}

/** PGlite on its own thread (openPgliteWorker). */
export interface PgliteSql extends Sql {
  /** Whether the database was new and started from the prepared data directory rather than initdb. */
  readonly fromPrepared: boolean;
}

/**
 * PGlite as openPglite opens it, on a worker thread of its own: PGlite runs its WebAssembly
 * synchronously on the calling thread, so this keeps the caller's thread (an HTTP server's) free
 * while a query runs. A transaction's `fn` runs here and its queries go to the one transaction the
 * worker holds open until `fn` settles; other queries wait for it, as in PGlite itself. A data
 * directory that does not exist yet is unpacked from `prepared` (by default the one the build wrote
 * beside this module for the installed PGlite: preparedDataDir.ts), or made by initdb without one.
 */
export async function openPgliteWorker(dataDir: string | undefined, options: { prepared?: string } = {}): Promise<PgliteSql> {
  const { Worker } = await import('node:worker_threads');
  const path = await import('node:path');
  let fromPrepared = false;
  if (dataDir !== undefined) {
    const { preparedDataDir, startFromPrepared } = await import('./preparedDataDir');
    const prepared = options.prepared ?? preparedDataDir(__dirname);
    if (prepared !== undefined) fromPrepared = await startFromPrepared(prepared, dataDir);
  }
  // Beside this module: out/src/server/sql/ when compiled, dist/ beside the CLI bundle.
  const worker = new Worker(path.join(__dirname, 'pgliteWorker.js'), { workerData: { dataDir } satisfies PgliteWorkerData });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (e: SqlError) => void }>();
  let nextId = 1;
  let ended: SqlError | undefined;
  const endAll = (e: SqlError): void => {
    ended ??= e;
    for (const w of waiting.values()) w.reject(ended);
    waiting.clear();
  };
  worker.on('message', (reply: PgliteReply) => {
    const w = waiting.get(reply.id);
    if (!w) return;
    waiting.delete(reply.id);
    // The worker counts as work to wait for only while it has something to answer.
    if (waiting.size === 0) worker.unref();
    if (reply.ok) w.resolve(reply.value);
    else w.reject(new SqlError(reply.message, reply.code));
  });
  worker.on('error', (e) => endAll(SqlError.from(e, 'the database thread failed')));
  worker.on('exit', () => endAll(new SqlError('the database is closed', undefined)));

  const answer = (id: number): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (ended) return reject(ended);
      waiting.set(id, { resolve, reject });
      worker.ref();
    });
  const ask = (request: DistributiveOmit<PgliteRequest, 'id'>): Promise<unknown> => {
    const id = nextId++;
    const answered = answer(id);
    if (!ended) worker.postMessage({ ...request, id });
    return answered;
  };

  try {
    // The worker's first message (id 0) says whether PGlite opened.
    await answer(0);
  } catch (e) {
    await worker.terminate();
    throw e;
  }

  const query = async <T>(tx: number | undefined, text: string, params?: readonly unknown[]): Promise<T[]> =>
    (await ask({ kind: 'query', text, params: params === undefined ? undefined : [...params], tx })) as T[];
  const inTransaction = (tx: number): Sql => ({
    query: (text, params) => query(tx, text, params),
    // PGlite is one connection: a transaction inside one is the same transaction.
    transaction: (fn) => fn(inTransaction(tx)),
    close: async () => undefined,
  });
  return {
    fromPrepared,
    query: (text, params) => query(undefined, text, params),
    transaction: async <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => {
      const tx = (await ask({ kind: 'begin' })) as number;
      let value: T;
      try {
        value = await fn(inTransaction(tx));
      } catch (e) {
        // What `fn` threw reaches the caller as it was; a rollback that fails too changes nothing for it.
        await ask({ kind: 'end', tx, commit: false }).catch(() => undefined);
        throw e;
      }
      await ask({ kind: 'end', tx, commit: true });
      return value;
    },
    close: async () => {
      if (ended) return;
      try {
        await ask({ kind: 'close' });
      } finally {
        await worker.terminate();
      }
    },
  };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A PostgreSQL server through a pool of connections; `url` is a postgres:// connection string. */
export async function openPostgres(url: string, options: { maxConnections?: number } = {}): Promise<Sql> {
  const pg = (await import('pg')).default;
  const shown = withoutCredentials(url);
  let pool: import('pg').Pool;
  try {
    pool = new pg.Pool({ connectionString: url, max: options.maxConnections ?? 10 });
  } catch (e) {
    throw SqlError.from(e, `cannot use the database at ${shown}`);
  }
  // An idle connection the server dropped is an 'error' event, which would end the process when
  // unheard; the pool replaces it, and the next query reports any lasting problem.
  pool.on('error', () => undefined);
  try {
    await pool.query('select 1');
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw SqlError.from(e, `cannot connect to the database at ${shown}`);
  }

  type Queryable = Pick<import('pg').PoolClient, 'query'>;
  const run = async <T>(on: Queryable, text: string, params?: readonly unknown[]): Promise<T[]> =>
    translated(async () => {
      const result = (await on.query(text, params === undefined ? undefined : [...params])) as unknown as import('pg').QueryResult | import('pg').QueryResult[];
      return (Array.isArray(result) ? (result.at(-1)?.rows ?? []) : result.rows) as T[];
    });

  const inClient = (client: import('pg').PoolClient): Sql => ({
    query: (text, params) => run(client, text, params),
    transaction: (fn) => fn(inClient(client)),
    close: async () => undefined,
  });

  return {
    query: (text, params) => run(pool, text, params),
    transaction: async <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => {
      const client = await translated(() => pool.connect());
      let broken: Error | undefined;
      try {
        await run(client, 'BEGIN');
        const value = await fn(inClient(client));
        await run(client, 'COMMIT');
        return value;
      } catch (e) {
        try {
          await client.query('ROLLBACK');
        } catch (rollback) {
          // A connection that cannot roll back is not given back to the pool.
          broken = rollback instanceof Error ? rollback : new Error(String(rollback));
        }
        // What `fn` threw reaches the caller as it was (its queries' failures are SqlErrors already).
        throw e;
      } finally {
        client.release(broken);
      }
    },
    listen: async (channel, onPayload, onLost) => {
      // Its own connection: a pooled one would be given to queries, and LISTEN is per connection.
      const client = new pg.Client({ connectionString: url });
      let subscribed = false;
      let over = false;
      const lost = (): void => {
        if (over) return;
        over = true;
        client.end().catch(() => undefined);
        if (subscribed) onLost();
      };
      // A terminated backend or a dropped socket is an 'error', then an 'end'; either means no more notifications.
      client.on('error', lost);
      client.on('end', lost);
      client.on('notification', (n) => {
        if (n.channel === channel) onPayload(n.payload ?? '');
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${identifier(channel)}`);
        if (over) throw new Error('the connection closed');
      } catch (e) {
        over = true;
        await client.end().catch(() => undefined);
        throw SqlError.from(e, `cannot listen to the database at ${shown}`);
      }
      subscribed = true;
      return async () => {
        if (over) return;
        over = true;
        await client.query(`UNLISTEN ${identifier(channel)}`).catch(() => undefined);
        await client.end().catch(() => undefined);
      };
    },
    close: () => translated(() => pool.end()),
  };
}
