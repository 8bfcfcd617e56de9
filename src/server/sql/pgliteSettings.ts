// How the store starts PGlite, in its worker (pgliteWorker.ts) and in process (executor.ts).

/**
 * PostgreSQL's shared buffers: PGlite's default is 128 MB, all of it touched as it starts (in
 * WebAssembly memory, which is never given back), which put an idle `serve --data-dir` near 300 MiB
 * and importing 10,000 codes over 400 MiB. 32 MB holds a catalog of that size's hot pages; the rest
 * is read through the operating system's file cache, and the service keeps the pages it rendered.
 */
export const SHARED_BUFFERS = '32MB';

/** PGlite's start parameters with ours after them (a later `-c` wins). */
export function pgliteStartParams(defaults: readonly string[]): string[] {
  return [...defaults, '-c', `shared_buffers=${SHARED_BUFFERS}`];
}
