// Turns a request target into a finished response: status, headers and body bytes with a strong ETag.
// The catalog never changes while served, so each (resource, format, page) is rendered once and kept;
// only resources that exist are kept, which bounds the cache by the catalog's size whatever is asked.

import { createHash } from 'node:crypto';
import { ALL_LANGUAGES_SLUG } from '../api/languages';
import { PAGE_SIZE } from '../api/model';
import { languageKey, type Dataset, type DatasetCode, type DatasetRefactor, type Listing } from './dataset';
import { pagePath, renderCodeHtml, renderCodeListHtml, renderErrorHtml, renderIndexHtml, renderRefactorListHtml } from './htmlRender';
import { parseTarget, type Format, type Route } from './routes';
import { renderCodeListXml, renderCodeXml, renderErrorXml, renderRefactorListXml } from './xmlRender';

export interface Response {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Present on 200 responses only: what If-None-Match is compared with. */
  readonly etag?: string;
}

const CONTENT_TYPE: Record<Format, string> = {
  xml: 'application/xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

// Pages hold no scripts, images or forms: inline styles are all they need.
const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

export const ALLOWED_METHODS = 'GET, HEAD';

/** Request targets remembered verbatim (short ones only, oldest dropped first): odd URLs cannot grow memory. */
const MAX_REMEMBERED_TARGETS = 2048;

export class Site {
  private readonly cache = new Map<string, Response>();
  // The same few URLs are asked again and again (a tree refreshing, a benchmark): answering them
  // without parsing keeps the service about as fast as one sending a fixed buffer.
  private readonly byTarget = new Map<string, Response>();

  constructor(private readonly catalog: Dataset) {}

  respond(rawUrl: string): Response {
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
  private build(rawUrl: string): { response: Response; kept: boolean } {
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

  methodNotAllowed(rawUrl: string): Response {
    const format: Format = rawUrl.split('?')[0].endsWith('.xml') ? 'xml' : 'html';
    return error(405, 'only GET and HEAD are allowed', format, { Allow: ALLOWED_METHODS });
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

/** Only an unknown language's listing is empty; an empty page past the end is not worth keeping. */
function pageKey(base: string, items: readonly (DatasetCode | DatasetRefactor)[], page: number): string | undefined {
  if (items.length === 0 || page > Math.ceil(items.length / PAGE_SIZE)) return undefined;
  return `${base}|${page}`;
}

function ok(format: Format, text: string): Response {
  const body = Buffer.from(text, 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return {
    status: 200,
    body,
    etag,
    headers: {
      ...baseHeaders(format, body),
      ETag: etag,
      'Cache-Control': 'public, max-age=60',
    },
  };
}

function error(status: number, message: string, format: Format, extra: Record<string, string> = {}): Response {
  const body = Buffer.from(format === 'xml' ? renderErrorXml(message) : renderErrorHtml(status, message), 'utf8');
  return { status, body, headers: { ...baseHeaders(format, body), 'Cache-Control': 'no-cache', ...extra } };
}

function baseHeaders(format: Format, body: Buffer): Record<string, string> {
  return {
    'Content-Type': CONTENT_TYPE[format],
    'Content-Length': String(body.length),
    'X-Content-Type-Options': 'nosniff',
    ...(format === 'html' ? { 'Content-Security-Policy': HTML_CSP } : {}),
  };
}
