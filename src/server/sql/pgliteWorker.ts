// Embedded PostgreSQL (PGlite) on a thread of its own: PGlite runs its WebAssembly synchronously on
// the thread that calls it, so on the HTTP server's thread every query would stall every request.
// openPgliteWorker (executor.ts) starts this script and sends it what to run; both ends are in
// pgliteProtocol.ts. It is a file of its own beside the code that starts it: out/src/server/sql/
// under test, and dist/ beside the CLI bundle.

import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { PgliteReply, PgliteRequest, PgliteWorkerData } from './pgliteProtocol';
import { pgliteStartParams } from './pgliteSettings';

const port = parentPort;
if (!port) throw new Error('pgliteWorker runs as a worker thread');

/** Thrown inside PGlite's transaction to roll it back when the caller's side failed. */
const ROLLBACK = new Error('rolled back');

type Runner = Pick<PGlite, 'query' | 'exec'> | Transaction;

async function rows(runner: Runner, text: string, params: unknown[] | undefined): Promise<unknown[]> {
  if (params === undefined || params.length === 0) return (await runner.exec(text)).at(-1)?.rows ?? [];
  return (await runner.query(text, params)).rows;
}

function failure(id: number, e: unknown): PgliteReply {
  const message = e instanceof Error ? e.message : String(e);
  const code = typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;
  return { id, ok: false, message, code };
}

async function main(): Promise<void> {
  const { dataDir } = workerData as PgliteWorkerData;
  const { PGlite } = await import('@electric-sql/pglite');
  let db: PGlite;
  try {
    const options = { startParams: pgliteStartParams(PGlite.defaultStartParams) };
    db = dataDir === undefined ? new PGlite(options) : new PGlite(dataDir, options);
    await db.waitReady;
  } catch (e) {
    port!.postMessage(failure(0, e));
    return;
  }

  /** Open transactions by id, each held open by PGlite until its `end` arrives. */
  const open = new Map<number, { tx: Transaction; end: (commit: boolean) => void }>();
  let nextTx = 1;

  /** The `end` request each ending transaction answers. */
  const ending = new Map<number, number>();
  const finished = (txId: number, error: unknown): void => {
    open.delete(txId);
    const id = ending.get(txId);
    ending.delete(txId);
    if (id === undefined) return;
    port!.postMessage(error === undefined ? ({ id, ok: true, value: undefined } satisfies PgliteReply) : failure(id, error));
  };

  const answer = (id: number, run: () => Promise<unknown>): void => {
    run().then(
      (value) => port!.postMessage({ id, ok: true, value } satisfies PgliteReply),
      (e: unknown) => port!.postMessage(failure(id, e)),
    );
  };

  port!.on('message', (request: PgliteRequest) => {
    switch (request.kind) {
      case 'query': {
        const runner = request.tx === undefined ? db : open.get(request.tx)?.tx;
        answer(request.id, async () => {
          if (!runner) throw new Error('the transaction is over');
          return rows(runner, request.text, request.params);
        });
        return;
      }
      case 'begin': {
        const txId = nextTx++;
        // Answered once PGlite has begun (after any transaction before it); the commit or rollback
        // is answered when `end` arrives and PGlite has finished it.
        let begun = false;
        db.transaction(async (tx) => {
          const commit = await new Promise<boolean>((end) => {
            open.set(txId, { tx, end });
            begun = true;
            port!.postMessage({ id: request.id, ok: true, value: txId } satisfies PgliteReply);
          });
          if (!commit) throw ROLLBACK;
        }).then(
          () => finished(txId, undefined),
          (e: unknown) => (begun ? finished(txId, e === ROLLBACK ? undefined : e) : port!.postMessage(failure(request.id, e))),
        );
        return;
      }
      case 'end': {
        const held = open.get(request.tx);
        if (!held) {
          port!.postMessage(failure(request.id, new Error('the transaction is over')));
          return;
        }
        ending.set(request.tx, request.id);
        held.end(request.commit);
        return;
      }
      case 'close':
        answer(request.id, () => db.close());
        return;
    }
  });

  port!.postMessage({ id: 0, ok: true, value: undefined } satisfies PgliteReply);
}

void main();
