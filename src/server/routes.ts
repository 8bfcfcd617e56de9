// From a request target to the resource it names. Paths are matched segment by segment after
// percent-decoding each segment on its own, so `%2F` or `..` can never name anything but a catalog
// entry, and nothing outside the catalog is ever looked up: there is no file system behind a path.

export type Route =
  | { readonly kind: 'index' }
  | { readonly kind: 'codes'; readonly listing: 'recent' | 'popular'; readonly language?: string }
  | { readonly kind: 'tag'; readonly tag: string; readonly language?: string }
  | { readonly kind: 'refactors'; readonly language?: string }
  | { readonly kind: 'code'; readonly id: number }
  | { readonly kind: 'refactor'; readonly codeId: number; readonly id: number }
  // The write API's collections and actions, which take POST only:
  | { readonly kind: 'newCode' }
  | { readonly kind: 'newRefactor'; readonly codeId: number }
  | { readonly kind: 'rate'; readonly codeId: number; readonly id: number }
  | { readonly kind: 'account' }
  // Whether this instance can answer: its storage is asked, and the answer is never cached.
  | { readonly kind: 'health' };

/** The methods each kind of route takes, besides OPTIONS (the CORS preflight, on any path). */
export const ROUTE_METHODS: Readonly<Record<Route['kind'], readonly string[]>> = {
  index: ['GET', 'HEAD'],
  codes: ['GET', 'HEAD'],
  tag: ['GET', 'HEAD'],
  refactors: ['GET', 'HEAD'],
  code: ['GET', 'HEAD', 'DELETE'],
  refactor: ['GET', 'HEAD', 'DELETE'],
  newCode: ['POST'],
  newRefactor: ['POST'],
  rate: ['POST'],
  account: ['GET', 'HEAD'],
  health: ['GET', 'HEAD'],
};

/** A request as the service sees it, from node:http or an in-process fetch alike. */
export interface ServiceRequest {
  readonly method: string;
  /** The request target: origin-form (`/codes/recent.xml?page=2`), or absolute-form as a proxy sends it. */
  readonly url: string;
  /** Lower-case names, as node:http gives them. */
  readonly headers: {
    readonly 'if-none-match'?: string;
    readonly authorization?: string;
    readonly 'content-type'?: string;
    readonly 'content-length'?: string;
    readonly host?: string;
    /** What a proxy in front says the client used (`https`), for the Location of what a write made. */
    readonly 'x-forwarded-proto'?: string;
  };
  /**
   * The client's address, as the server knows it (the peer's, or, behind a trusted proxy, the one it
   * forwarded): writes refused for their token are counted per address. Absent in process.
   */
  readonly client?: string;
  /**
   * Reads the body, refusing (with 'too-large') to hold more than `limit` bytes of it. Absent where
   * a request cannot have one.
   */
  readonly body?: (limit: number) => Promise<Uint8Array | 'too-large'>;
}

export type Format = 'xml' | 'html';

export type Target =
  | { readonly ok: true; readonly route: Route; readonly format: Format; readonly page: number }
  | { readonly ok: false; readonly status: 400 | 404; readonly message: string; readonly format: Format };

/** A code is named by its id, alone or followed by a hyphen and any text (the permalink, usually). */
const CODE_REF = /^(\d{1,15})(?:-.*)?$/s;
/** A refactoring is named by its id alone. */
const REFACTOR_ID = /^\d{1,15}$/;
/** The health check's path, as load balancers and orchestrators expect it: HTML-format only, no `.xml`. */
export const HEALTH_PATH = '/healthz';

/** Pages past about a billion hold nothing anyway; bounding the digits keeps the number exact. */
const PAGE = /^\d{1,9}$/;

export const BAD_PAGE_MESSAGE = 'page must not be negative or past 999999999, nor given twice (e.g. ?page=2)';

/** Parses `req.url` (origin-form, or absolute-form as a proxy sends it). */
export function parseTarget(rawUrl: string): Target {
  const q = rawUrl.indexOf('?');
  let path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const query = q < 0 ? '' : rawUrl.slice(q + 1);
  const absolute = /^https?:\/\/[^/]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || '/';

  const format: Format = path.endsWith('.xml') ? 'xml' : 'html';
  const notFound = { ok: false, status: 404, message: 'no such resource', format } as const;
  if (!path.startsWith('/')) return notFound;
  if (path === '/') return { ok: true, route: { kind: 'index' }, format, page: 1 };
  if (path === HEALTH_PATH) return { ok: true, route: { kind: 'health' }, format, page: 1 };

  const raw = (format === 'xml' ? path.slice(0, -'.xml'.length) : path).slice(1).split('/');
  const segments: string[] = [];
  for (const s of raw) {
    if (s === '') return notFound;
    try {
      segments.push(decodeURIComponent(s));
    } catch {
      return notFound; // malformed percent-encoding names nothing
    }
  }

  const route = match(segments);
  if (!route) return notFound;
  if (route.kind !== 'codes' && route.kind !== 'tag' && route.kind !== 'refactors') return { ok: true, route, format, page: 1 };
  const page = parsePage(query);
  if (page === undefined) return { ok: false, status: 400, message: BAD_PAGE_MESSAGE, format };
  return { ok: true, route, format, page };
}

/** The route the segments name; the index is only ever `/`, matched before. */
function match(s: string[]): Exclude<Route, { kind: 'index' | 'health' }> | undefined {
  const [first, second, third, fourth, fifth] = s;
  if (s.length === 1) {
    if (first === 'codes') return { kind: 'newCode' };
    if (first === 'account') return { kind: 'account' };
    return undefined;
  }
  if (s.length > 5) return undefined;
  // Lists: a third segment, where there is one, names the language (undefined: all languages).
  if (s.length <= 3) {
    if (first === 'codes' && (second === 'recent' || second === 'popular')) return { kind: 'codes', listing: second, language: third };
    if (first === 'tags') return { kind: 'tag', tag: second, language: third };
    if (first === 'refactorings' && second === 'recent') return { kind: 'refactors', language: third };
  }
  if (first !== 'codes') return undefined;
  const code = CODE_REF.exec(second);
  if (!code) return undefined;
  const codeId = Number(code[1]);
  if (s.length === 2) return { kind: 'code', id: codeId };
  if (third !== 'refactors') return undefined;
  if (s.length === 3) return { kind: 'newRefactor', codeId };
  if (!REFACTOR_ID.test(fourth)) return undefined;
  const id = Number(fourth);
  if (s.length === 4) return { kind: 'refactor', codeId, id };
  return fifth === 'rate' ? { kind: 'rate', codeId, id } : undefined;
}

/**
 * The original service read the page as an integer, 0 and anything that is not a number meaning
 * page 1 (`?page=0`, `?page=abc`, `?page=`). Undefined (a 400) for a negative page, one past what the
 * digits bound, or two pages.
 */
function parsePage(query: string): number | undefined {
  const values = new URLSearchParams(query).getAll('page');
  if (values.length === 0) return 1;
  const [value] = values;
  if (values.length > 1 || /^-\d*[1-9]/.test(value) || /^\d{10,}$/.test(value)) return undefined;
  return PAGE.test(value) ? Math.max(1, Number(value)) : 1;
}
