// A real node:http (or, given a certificate, https) server in front of a reference service that behaves like services the spec
// allows but the reference service does not: it may answer 404 for the language forms the spec
// does not show (popular codes, recent refactorings), ignore `?page`, hold answers until released,
// send no CORS headers, say no code's tags, or redirect everything elsewhere. Everything else is forwarded byte for byte. Its own answers (500, 404)
// carry the reference service's CORS header, so a browser reads them as it reads the service's.
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { FrontRecord } from '../services/protocol';

export interface FrontOptions {
  /** 404 for /codes/popular/<language>.xml and /refactorings/recent/<language>.xml. */
  noLanguageForms?: boolean;
  /** Drops the query, so every page is page 1. */
  ignorePage?: boolean;
  /** No Access-Control-* header on any answer, preflights included: a browser may read none of them. */
  noCors?: boolean;
  /** Answers every request but a browser's preflight with a 302 to this origin, same path and query. */
  redirectTo?: string;
  /** Leaves the `<tags>` element out of every code, as the original service's XML did. */
  noTags?: boolean;
  /** Serve https with this key and certificate (test/hostile/tls.ts makes one). */
  tls?: { key: string; cert: string };
}

export interface FrontServer {
  readonly url: string;
  /** Every path asked for, in order (a browser's CORS preflights left out: the client did not ask them). */
  readonly paths: string[];
  /** The same requests with their method, Origin, User-Agent and Authorization. */
  readonly requests: FrontRecord[];
  /** Paths (as asked, query included) answered 500 while listed here. */
  readonly failing: Set<string>;
  /** Paths answered 503 with `Retry-After: 0` as many times as given here (a busy service asking to be asked again). */
  readonly busy: Map<string, number>;
  /** Until released, list requests wait (to watch what a view shows while loading). */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

/** A code's `<tags>` element, empty or not, with the line it stands on. */
const NO_TAGS = /\n *<tags type="array"(?:\/>|>(?:<\/tags>|[\s\S]*?\n *<\/tags>))/g;
const LANGUAGE_FORM = /^\/(codes\/popular|refactorings\/recent)\/[^/]+\.xml$/;
/** What the reference service allows every answer (src/server/http/responses.ts). */
const CORS = { 'access-control-allow-origin': '*' };

function withoutCors(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.toLowerCase().startsWith('access-control-')));
}

export async function startFrontServer(upstream: string, options: FrontOptions): Promise<FrontServer> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  const paths: string[] = [];
  const requests: FrontRecord[] = [];
  const failing = new Set<string>();
  const busy = new Map<string, number>();
  const cors = options.noCors ? {} : CORS;
  let held: Array<() => void> | undefined;
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://front');
    // A preflight is the browser asking leave to send the request: forwarded at once (the service
    // answers it), never failed, held or counted.
    const preflight = req.method === 'OPTIONS';
    if (!preflight) {
      paths.push(url.pathname + url.search);
      requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, origin: req.headers.origin ?? null, userAgent: req.headers['user-agent'] ?? null, authorization: req.headers.authorization ?? null });
    }
    const answer = (): void => {
      if (!preflight && failing.has(url.pathname + url.search)) {
        res.writeHead(500, { 'content-type': 'text/plain', ...cors }).end('failing on purpose');
        return;
      }
      const busyFor = preflight ? 0 : busy.get(url.pathname + url.search) ?? 0;
      if (busyFor > 0) {
        busy.set(url.pathname + url.search, busyFor - 1);
        res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '0', ...cors }).end('busy, ask again');
        return;
      }
      if (!preflight && options.redirectTo !== undefined) {
        res.writeHead(302, { location: new URL(url.pathname + url.search, options.redirectTo).href, ...cors }).end();
        return;
      }
      if (!preflight && options.noLanguageForms && LANGUAGE_FORM.test(url.pathname)) {
        res.writeHead(404, { 'content-type': 'text/plain', ...cors }).end('no such list');
        return;
      }
      const forwarded = http.request({
        host: target.hostname,
        port: target.port,
        path: options.ignorePage ? url.pathname : url.pathname + url.search,
        method: req.method,
        headers: { ...req.headers, host: target.host },
        agent: false,
      }, (up) => {
        const headers = options.noCors ? withoutCors(up.headers) : up.headers;
        if (!options.noTags) {
          res.writeHead(up.statusCode ?? 502, headers);
          up.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8').replace(NO_TAGS, '');
          const { 'content-length': _length, etag: _etag, ...rest } = headers;
          res.writeHead(up.statusCode ?? 502, rest).end(body);
        });
      });
      forwarded.on('error', () => res.destroy());
      // The body goes on too (a write's), read only once the request is answered from upstream.
      req.pipe(forwarded);
    };
    if (held && !preflight) held.push(answer);
    else answer();
  };
  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, onRequest) : http.createServer(onRequest);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}/`,
    paths,
    requests,
    failing,
    busy,
    hold: () => { held ??= []; },
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const answer of waiting) answer();
    },
    close: () => new Promise<void>((resolve) => {
      held = undefined;
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
