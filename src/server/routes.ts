// From a request target to the resource it names, and back. Every route is one row of ROUTES: its
// path, the methods it takes and whether only a writable service has it; the parser, the 405's and
// the preflight's `Allow` and the pages' links (render/htmlRender.ts's pagePath) all read that row.
// Paths are matched segment by segment after percent-decoding each segment on its own, so `%2F` or
// `..` can never name anything but a catalog entry, and nothing outside the catalog is ever looked
// up: there is no file system behind a path.

export type Route =
  | { readonly kind: 'index' }
  | { readonly kind: 'codes'; readonly listing: 'recent' | 'popular'; readonly language?: string }
  | { readonly kind: 'tag'; readonly tag: string; readonly language?: string }
  | { readonly kind: 'refactors'; readonly language?: string }
  | { readonly kind: 'code'; readonly id: number }
  | { readonly kind: 'refactor'; readonly codeId: number; readonly id: number }
  // A person as lists nest them: how a client names the author of a single code, whose answer
  // gives the author's user-id alone.
  | { readonly kind: 'user'; readonly id: number }
  // The write API's collections and actions, which take POST only:
  | { readonly kind: 'newCode' }
  | { readonly kind: 'newRefactor'; readonly codeId: number }
  | { readonly kind: 'rate'; readonly codeId: number; readonly id: number }
  | { readonly kind: 'account' }
  // Whether this instance can answer: its storage is asked, and the answer is never cached.
  | { readonly kind: 'health' };

/** Every method a route may take, in the order `Allow` lists them (OPTIONS, the CORS preflight, after them, on any path). */
const METHODS = ['GET', 'HEAD', 'POST', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];
/** The methods that only read: all a read-only service takes. */
export const READS: readonly Method[] = ['GET', 'HEAD'];

export interface RouteSpec {
  /**
   * The HTML page's path; the same path with `.xml` is the XML resource, unless `htmlOnly`. A `{field}`
   * is one segment, read into the route's field of that name by the reader of that name (any text
   * where there is none), or by another with `{field:reader}`; `{field?}`, last only, may be left out.
   */
  readonly path: string;
  /** In METHODS' order. */
  readonly methods: readonly Method[];
  /** A list, taking `?page=N`. */
  readonly paged?: true;
  /** No `.xml` form. */
  readonly htmlOnly?: true;
  /** Only a service that takes writes has it: a read-only one answers 404. */
  readonly writesOnly?: true;
}

export const ROUTES: { readonly [K in Route['kind']]: RouteSpec } = {
  index: { path: '/', methods: READS, htmlOnly: true },
  codes: { path: '/codes/{listing}/{language?}', methods: READS, paged: true },
  tag: { path: '/tags/{tag}/{language?}', methods: READS, paged: true },
  refactors: { path: '/refactorings/recent/{language?}', methods: READS, paged: true },
  code: { path: '/codes/{id:code}', methods: [...READS, 'DELETE'] },
  refactor: { path: '/codes/{codeId:code}/refactors/{id}', methods: [...READS, 'DELETE'] },
  user: { path: '/users/{id}', methods: READS },
  newCode: { path: '/codes', methods: ['POST'], writesOnly: true },
  newRefactor: { path: '/codes/{codeId:code}/refactors', methods: ['POST'], writesOnly: true },
  rate: { path: '/codes/{codeId:code}/refactors/{id}/rate', methods: ['POST'], writesOnly: true },
  account: { path: '/account', methods: READS, writesOnly: true },
  // As load balancers and orchestrators expect it: no `.xml`.
  health: { path: '/healthz', methods: READS, htmlOnly: true },
};

/** What reads a `{field}`'s segment into the route; undefined when the segment names nothing there. */
const READERS: Readonly<Record<string, (segment: string) => string | number | undefined>> = {
  listing: (s) => (s === 'recent' || s === 'popular' ? s : undefined),
  /** A code is named by its id, alone or followed by a hyphen and any text (the permalink, usually). */
  code: (s) => {
    const m = /^(\d{1,15})(?:-.*)?$/s.exec(s);
    return m ? Number(m[1]) : undefined;
  },
  /** A refactoring, or a person, is named by its id alone. */
  id: (s) => (/^\d{1,15}$/.test(s) ? Number(s) : undefined),
};
const TEXT = (s: string): string => s;

type Part =
  | { readonly literal: string }
  | { readonly field: string; readonly read: (segment: string) => string | number | undefined; readonly optional: boolean };

function partsOf(path: string): readonly Part[] {
  return path.split('/').filter((s) => s !== '').map((s): Part => {
    const param = /^\{(\w+)(?::(\w+))?(\?)?\}$/.exec(s);
    if (!param) return { literal: s };
    const [, field, reader, optional] = param;
    if (reader !== undefined && !Object.hasOwn(READERS, reader)) throw new Error(`${path}: no reader named ${reader}`);
    const read = Object.hasOwn(READERS, reader ?? field) ? READERS[reader ?? field] : TEXT;
    return { field, read, optional: optional === '?' };
  });
}

const KINDS = Object.keys(ROUTES) as Array<Route['kind']>;
const PARTS = Object.fromEntries(KINDS.map((kind) => [kind, partsOf(ROUTES[kind].path)])) as Record<Route['kind'], readonly Part[]>;

const ALL_METHODS = METHODS.filter((m) => KINDS.some((kind) => ROUTES[kind].methods.includes(m)));

/** The methods a service takes on some path, OPTIONS aside: reads only, unless it takes writes. */
export function serviceMethods(writable: boolean): readonly Method[] {
  return writable ? ALL_METHODS : READS;
}

/** The `Allow` header of a route, or of a whole service: its methods, then OPTIONS. */
export function allowOf(methods: readonly Method[]): string {
  return [...methods, 'OPTIONS'].join(', ');
}

/** A route's fields as its path takes them: a code's `id` may be `42-its-permalink` too. */
export type PathFields<K extends Route['kind']> = { readonly [F in keyof Omit<Extract<Route, { kind: K }>, 'kind'>]: string | number | undefined };

/** The HTML page's path of a route, each field percent-encoded as one segment; an optional one left out when empty. */
export function pathOf<K extends Route['kind']>(kind: K, fields: PathFields<K>): string {
  const values = fields as Readonly<Record<string, string | number | undefined>>;
  const segments = PARTS[kind].flatMap((part) => {
    if ('literal' in part) return [part.literal];
    const value = values[part.field];
    return part.optional && (value === undefined || value === '') ? [] : [encodeURIComponent(String(value))];
  });
  return `/${segments.join('/')}`;
}

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

/** Pages past about a billion hold nothing anyway; bounding the digits keeps the number exact. */
const PAGE = /^\d{1,9}$/;

export const BAD_PAGE_MESSAGE = 'page must not be negative or past 999999999, nor given twice (e.g. ?page=2)';

/** Parses `req.url` (origin-form, or absolute-form as a proxy sends it). `.xml` paths answer XML, errors included; every other path HTML. */
export function parseTarget(rawUrl: string): Target {
  const q = rawUrl.indexOf('?');
  let path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const query = q < 0 ? '' : rawUrl.slice(q + 1);
  const absolute = /^https?:\/\/[^/]*/i.exec(path);
  if (absolute) path = path.slice(absolute[0].length) || '/';

  const format: Format = path.endsWith('.xml') ? 'xml' : 'html';
  const notFound = { ok: false, status: 404, message: 'no such resource', format } as const;
  if (!path.startsWith('/')) return notFound;
  const rest = (format === 'xml' ? path.slice(0, -'.xml'.length) : path).slice(1);
  const segments: string[] = [];
  for (const s of rest === '' ? [] : rest.split('/')) {
    if (s === '') return notFound;
    try {
      segments.push(decodeURIComponent(s));
    } catch {
      return notFound; // malformed percent-encoding names nothing
    }
  }

  const route = match(segments, format);
  if (!route) return notFound;
  if (!ROUTES[route.kind].paged) return { ok: true, route, format, page: 1 };
  const page = parsePage(query);
  if (page === undefined) return { ok: false, status: 400, message: BAD_PAGE_MESSAGE, format };
  return { ok: true, route, format, page };
}

/** The route whose path the segments fill; no two can: their literals and readers tell them apart. */
function match(segments: readonly string[], format: Format): Route | undefined {
  for (const kind of KINDS) {
    if (format === 'xml' && ROUTES[kind].htmlOnly) continue;
    const fields = fill(PARTS[kind], segments);
    if (fields) return { kind, ...fields } as Route;
  }
  return undefined;
}

/** What the segments give each `{field}` of a route's path, or undefined when they do not fit it. */
function fill(parts: readonly Part[], segments: readonly string[]): Record<string, string | number | undefined> | undefined {
  if (segments.length > parts.length) return undefined;
  const fields: Record<string, string | number | undefined> = {};
  for (const [i, part] of parts.entries()) {
    const s = segments.at(i);
    if ('literal' in part) {
      if (s !== part.literal) return undefined;
    } else if (s !== undefined) {
      const value = part.read(s);
      if (value === undefined) return undefined;
      fields[part.field] = value;
    } else if (part.optional) {
      fields[part.field] = undefined;
    } else {
      return undefined;
    }
  }
  return fields;
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
