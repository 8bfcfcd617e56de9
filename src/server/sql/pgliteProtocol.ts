// What the HTTP thread and the PGlite worker thread (pgliteWorker.ts) say to each other. Values
// cross by structured clone, which keeps Dates, numbers and byte arrays as they are.

export interface PgliteWorkerData {
  /** PGlite's data directory, or undefined for memory only. */
  readonly dataDir: string | undefined;
}

export type PgliteRequest =
  | { readonly id: number; readonly kind: 'query'; readonly text: string; readonly params?: unknown[]; readonly tx?: number }
  /** Begins a transaction; answered with its id once PGlite holds it. */
  | { readonly id: number; readonly kind: 'begin' }
  /** Commits or rolls back a transaction `begin` answered; answered once PGlite has done so. */
  | { readonly id: number; readonly kind: 'end'; readonly tx: number; readonly commit: boolean }
  | { readonly id: number; readonly kind: 'close' };

/** The answer to the request with the same id; id 0 is the worker's own: PGlite is open, or could not open. */
export type PgliteReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly message: string; readonly code: string | undefined };
