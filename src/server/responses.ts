// The reference service's core: from a request (method, target, If-None-Match) to a finished answer
// (status, headers, body bytes with a strong ETag). No Node module and no Buffer, so `serve` over
// node:http (server.ts) and an in-process fetch (fetchHandler.ts) send the same bytes and headers,
// in VS Code for the Web's browser extension host too. The catalog never changes while served, so
// each (resource, format, page) is rendered once and kept; only resources that exist are kept, which
// bounds the cache by the catalog's size whatever is asked.

import { ALL_LANGUAGES_SLUG } from '../api/languages';
import { PAGE_SIZE } from '../api/model';
import { REASON_PHRASES } from '../api/statusText';
import { languageKey, type Dataset, type DatasetCode, type DatasetRefactor, type Listing } from './dataset';
import { strongEtag } from './etag';
import { pagePath, renderCodeHtml, renderCodeListHtml, renderErrorHtml, renderIndexHtml, renderRefactorListHtml } from './htmlRender';
import { parseTarget, type Format, type Route } from './routes';
import { renderCodeListXml, renderCodeXml, renderErrorXml, renderRefactorListXml } from './xmlRender';

export interface ServiceRequest {
  readonly method: string;
  /** The request target: origin-form (`/codes/recent.xml?page=2`), or absolute-form as a proxy sends it. */
  readonly url: string;
  /** Lower-case names, as node:http gives them; If-None-Match is the only one read. */
  readonly headers: { readonly 'if-none-match'?: string };
}

export interface Answer {
  readonly status: Status;
  /** The reason phrase node:http sends for the status, so an in-process Response reports the same. */
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Empty for HEAD, 204 and 304. Shared between requests: read it, never write it. */
  readonly body: Uint8Array;
}

/** A found resource, with what a conditional request is answered by when it has an ETag. */
interface Found extends Answer {
  readonly revalidation?: { readonly etag: string; readonly notModified: Answer };
}

type Status = 200 | 204 | 304 | 400 | 404 | 405 | 500;

const CONTENT_TYPE: Record<Format, string> = {
  xml: 'application/xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

// Pages hold no scripts, images or forms: inline styles are all they need.
const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * On every answer, errors and 304 included: the service is public, read-only and has no credentials,
 * so any origin may read it (VS Code for the Web reads it from a browser). A client revalidates with
 * ETag and honours Retry-After, which a browser hides unless they are exposed.
 */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag, Retry-After',
} as const;

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

const EMPTY = new Uint8Array(0);
const encoder = new TextEncoder();

/**
 * The answer to a CORS preflight, on any path: the API's `Content-Type: text/xml` request header is
 * not one a browser sends without asking first. Browsers keep it for at most Max-Age seconds.
 */
const PREFLIGHT: Answer = {
  status: 204,
  statusText: REASON_PHRASES[204],
  headers: {
    ...CORS_HEADERS,
    'Access-Control-Allow-Methods': 'GET, HEAD',
    'Access-Control-Allow-Headers': 'Accept, Content-Type, If-None-Match',
    'Access-Control-Max-Age': '86400',
    Allow: ALLOWED_METHODS,
  },
  body: EMPTY,
};

const INTERNAL_ERROR: Answer = (() => {
  const body = encoder.encode('internal error\n');
  return {
    status: 500,
    statusText: REASON_PHRASES[500],
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(body.length), 'Cache-Control': 'no-cache', ...CORS_HEADERS },
    body,
  };
})();

/** Request targets remembered verbatim (short ones only, oldest dropped first): odd URLs cannot grow memory. */
const MAX_REMEMBERED_TARGETS = 2048;

export class Responder {
  private readonly cache = new Map<string, Found>();
  // The same few URLs are asked again and again (a tree refreshing, a benchmark): answering them
  // without parsing keeps the service about as fast as one sending a fixed buffer.
  private readonly byTarget = new Map<string, Found>();

  constructor(private readonly catalog: Dataset) {}

  /**
   * GET and HEAD read a resource (a matching If-None-Match gets 304, HEAD gets no body), OPTIONS is a
   * CORS preflight, anything else is 405; a failure while rendering is a 500 rather than no answer.
   */
  answer(request: ServiceRequest): Answer {
    try {
      if (request.method === 'OPTIONS') return PREFLIGHT;
      if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed(request.url);
      const found = this.find(request.url);
      const { revalidation } = found;
      if (revalidation && matchesNoneMatch(request.headers['if-none-match'], revalidation.etag)) return revalidation.notModified;
      if (request.method === 'HEAD') return { status: found.status, statusText: found.statusText, headers: found.headers, body: EMPTY };
      return found;
    } catch {
      return INTERNAL_ERROR;
    }
  }

  private find(rawUrl: string): Found {
    const known = this.byTarget.get(rawUrl);
    if (known) return known;
    const { response, kept } = this.build(rawUrl);
    if (kept && rawUrl.length <= 512) {
      if (this.byTarget.size >= MAX_REMEMBERED_TARGETS) this.byTarget.delete(this.byTarget.keys().next().value!);
      this.byTarget.set(rawUrl, response);
    }
    return response;
  }

  /** `kept`: the response is one of the rendered resources kept for the catalog's lifetime. */
  private build(rawUrl: string): { response: Found; kept: boolean } {
    const target = parseTarget(rawUrl);
    if (!target.ok) return { response: error(target.status, target.message, target.format), kept: false };
    const { route, format, page } = target;
    const resource = this.resolve(route, format, page);
    if (resource.status === 404) return { response: error(404, resource.message, format), kept: false };
    if (resource.key === undefined) return { response: ok(format, resource.render()), kept: false };
    const key = `${format}|${resource.key}`;
    let response = this.cache.get(key);
    if (!response) {
      response = ok(format, resource.render());
      this.cache.set(key, response);
    }
    return { response, kept: true };
  }

  /** `key` is set only when the response may be kept: the resource exists and the page is within it. */
  private resolve(
    route: Route,
    format: Format,
    page: number,
  ): { status: 200; key: string | undefined; render: () => string } | { status: 404; message: string } {
    const c = this.catalog;
    switch (route.kind) {
      case 'index':
        return { status: 200, key: 'index', render: () => renderIndexHtml(c) };
      case 'code': {
        const code = c.codes.get(route.id);
        if (!code) return { status: 404, message: `no code with id ${route.id}` };
        return { status: 200, key: `code|${code.id}`, render: () => (format === 'xml' ? renderCodeXml(code) : renderCodeHtml(code)) };
      }
      case 'codes': {
        const lang = this.language(route.language);
        const listing = route.listing === 'recent' ? c.recentCodes : c.popularCodes;
        const title = `${route.listing === 'recent' ? 'Recent' : 'Popular'} ${lang.name ? `${lang.name} ` : ''}codes`;
        const path = route.listing === 'recent' ? pagePath.recent(lang.name) : pagePath.popular(lang.name);
        return this.codeList(`${route.listing}|${lang.key}`, listing, lang, format, page, title, path);
      }
      case 'tag': {
        const lang = this.language(route.language);
        const tag = c.tags.get(route.tag.toLowerCase());
        const name = tag?.name ?? route.tag;
        const title = `Codes tagged ${name}${lang.name ? ` in ${lang.name}` : ''}`;
        const listing = tag?.codes ?? { all: [], byLanguage: new Map() };
        return this.codeList(tag ? `tag|${route.tag.toLowerCase()}|${lang.key}` : undefined, listing, lang, format, page, title, pagePath.tag(name, lang.name));
      }
      case 'refactors': {
        const lang = this.language(route.language);
        const items = pick(c.recentRefactors, lang.key);
        const key = pageKey(`refactors|${lang.key}`, items, page);
        const title = `Recent ${lang.name ? `${lang.name} ` : ''}refactorings`;
        const path = pagePath.refactorings(lang.name);
        return {
          status: 200,
          key,
          render: () => (format === 'xml' ? renderRefactorListXml(slice(items, page)) : renderRefactorListHtml({ title, path, page, items }, c.codes)),
        };
      }
    }
  }

  private codeList(
    baseKey: string | undefined,
    listing: Listing<DatasetCode>,
    lang: { key: string; name: string },
    format: Format,
    page: number,
    title: string,
    path: string,
  ): { status: 200; key: string | undefined; render: () => string } {
    const items = pick(listing, lang.key);
    return {
      status: 200,
      key: baseKey === undefined ? undefined : pageKey(baseKey, items, page),
      render: () => (format === 'xml' ? renderCodeListXml(slice(items, page)) : renderCodeListHtml({ title, path, page, items })),
    };
  }

  /**
   * `key` '' for all languages (no segment, or `all` as the original service's links said); `name`
   * as the dataset spells it, or as asked when no code has it.
   */
  private language(segment: string | undefined): { key: string; name: string } {
    if (segment === undefined || segment.toLowerCase() === ALL_LANGUAGES_SLUG) return { key: '', name: '' };
    const key = languageKey(segment);
    return { key, name: this.catalog.languages.find((l) => languageKey(l) === key) ?? segment };
  }
}

function pick<T>(listing: Listing<T>, langKey: string): readonly T[] {
  return langKey === '' ? listing.all : (listing.byLanguage.get(langKey) ?? []);
}

function slice<T>(items: readonly T[], page: number): readonly T[] {
  return items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
}

/**
 * An empty page past the end is not worth keeping; every page of an empty listing (only an unknown
 * language's is empty, named as asked, so not to be shared between spellings) is past its end.
 */
function pageKey(base: string, items: readonly (DatasetCode | DatasetRefactor)[], page: number): string | undefined {
  if (page > Math.ceil(items.length / PAGE_SIZE)) return undefined;
  return `${base}|${page}`;
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): `W/"x"` matches `"x"`; `*` matches any. */
export function matchesNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

function methodNotAllowed(rawUrl: string): Answer {
  const format: Format = rawUrl.split('?')[0].endsWith('.xml') ? 'xml' : 'html';
  return error(405, 'only GET, HEAD and OPTIONS are allowed', format, { Allow: ALLOWED_METHODS });
}

function ok(format: Format, text: string): Found {
  const body = encoder.encode(text);
  const etag = strongEtag(body);
  const cacheControl = 'public, max-age=60';
  return {
    status: 200,
    statusText: REASON_PHRASES[200],
    body,
    headers: { ...baseHeaders(format, body), ETag: etag, 'Cache-Control': cacheControl },
    revalidation: {
      etag,
      notModified: { status: 304, statusText: REASON_PHRASES[304], headers: { ETag: etag, 'Cache-Control': cacheControl, ...CORS_HEADERS }, body: EMPTY },
    },
  };
}

function error(status: 400 | 404 | 405, message: string, format: Format, extra: Record<string, string> = {}): Found {
  const body = encoder.encode(format === 'xml' ? renderErrorXml(message) : renderErrorHtml(status, message));
  return { status, statusText: REASON_PHRASES[status], body, headers: { ...baseHeaders(format, body), 'Cache-Control': 'no-cache', ...extra } };
}

function baseHeaders(format: Format, body: Uint8Array): Record<string, string> {
  return {
    'Content-Type': CONTENT_TYPE[format],
    'Content-Length': String(body.length),
    'X-Content-Type-Options': 'nosniff',
    ...(format === 'html' ? { 'Content-Security-Policy': HTML_CSP } : {}),
    ...CORS_HEADERS,
  };
}
