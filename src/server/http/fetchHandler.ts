// The reference service as a WHATWG fetch handler, for the extension's built-in sample catalog in any
// extension host, the browser's web worker one included: no socket, no port, no Node module. The
// answer is the Responder's, as `serve`'s is (server.ts), so the status, reason phrase, headers and body bytes
// are the same either way; only what a connection adds (Date, Connection, Keep-Alive) is missing.

import type { Dataset } from '../catalog/dataset';
import { memoryStore } from '../catalog/memoryStore';
import { Responder } from './responses';

export { SAMPLE_BASE_URL } from '../../core/sample';

/**
 * The built-in sample catalog's name wherever services are named: the search index's file (the
 * extension's and the CLI's alike), the extension's documents, stars and offline lists.
 */
export const SAMPLE_SERVICE = 'sample';

/** The signature of the global `fetch`: what a client takes as its transport. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Answers `request` from `site`. */
export async function handle(request: Request, site: Responder): Promise<Response> {
  const url = new URL(request.url);
  const header = (name: string): string | undefined => request.headers.get(name) ?? undefined;
  const answer = await site.answer({
    method: request.method,
    url: url.pathname + url.search,
    headers: {
      'if-none-match': header('if-none-match'),
      authorization: header('authorization'),
      'content-type': header('content-type'),
      'content-length': header('content-length'),
      host: url.host,
    },
    body: async (limit) => {
      const bytes = new Uint8Array(await request.arrayBuffer());
      return bytes.length > limit ? 'too-large' : bytes;
    },
  });
  // HEAD, 204 and 304 carry no body (and a Response refuses one with 204 or 304). The Response copies
  // the bytes, so the body the Responder keeps for the next request is never handed out.
  const body = answer.body.length === 0 ? null : answer.body;
  return new Response(body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
}

/**
 * A `fetch` answered in this process by the reference service over `catalog`. It rejects as fetch
 * does when the signal is already aborted, and reports the URL it answered as `response.url`.
 */
export function inProcessFetch(catalog: Dataset): Fetch {
  const site = new Responder(memoryStore(catalog));
  return async (input, init) => {
    const request = new Request(input, init);
    request.signal.throwIfAborted();
    const response = await handle(request, site);
    const url = new URL(request.url);
    url.hash = '';
    Object.defineProperty(response, 'url', { value: url.href });
    return response;
  };
}
