// The reference service's core: from a request (method, target, headers, body) to a finished answer
// (status, headers, body bytes with a strong ETag). No Node module and no Buffer, so `serve` over
// node:http (server.ts) and an in-process fetch (fetchHandler.ts) send the same bytes and headers,
// in VS Code for the Web's browser extension host too. Reads come from a store (store.ts); what was
// rendered is kept for as long as the store's version stays the same, so unchanged data is read and
// rendered once. Only resources that exist are kept, and no more than MAX_KEPT of them.

import { ALL_LANGUAGES_SLUG } from '../../core/languages';
import { EMPTY, error, health, internalError, ok, preflight, type Answer, type Found } from '../answers';
import { languageKey } from '../catalog/dataset';
import { pagePath, renderCodeHtml, renderCodeListHtml, renderIndexHtml, renderRefactorHtml, renderRefactorListHtml, renderUserHtml } from '../render/htmlRender';
import { allowOf, parseTarget, READS, ROUTES, serviceMethods, type Format, type Route, type ServiceRequest } from '../routes';
import type { CatalogStore, ListedCode, Page, Summary } from '../store';
import { renderCodeListXml, renderCodeXml, renderRefactorListXml, renderRefactorXml, renderUserXml } from '../render/xmlRender';

export type { Answer } from '../answers';
export type { ServiceRequest } from '../routes';


/** What the read-only service answers to a write, and where to look for one that takes them. */
export const READ_ONLY_MESSAGE = `only ${serviceMethods(false).join(', ')} and OPTIONS are allowed: this service is read-only (\`refactor-browser serve --data-dir DIR\` starts one that takes contributions)`;

/** Request targets remembered verbatim (short ones only, oldest dropped first): odd URLs cannot grow memory. */
const MAX_REMEMBERED_TARGETS = 2048;

/** How long the health check waits for the store before it answers 503. */
export const HEALTH_TIMEOUT_MS = 2_000;

/** Rendered resources kept at once (oldest dropped first): a large catalog's pages cannot fill memory. */
const MAX_KEPT = 4096;

/**
 * What answers the write API and the account (writes/handler.ts's Contributions, over a writable store).
 * Given by the caller, so that a read-only service (the extension's in-process sample) carries none
 * of it.
 */
export interface WriteHandler {
  answer(route: Route, request: ServiceRequest, format: Format): Promise<Answer>;
}

type Resolved = { status: 200; text: string; keep: boolean } | { status: 404; message: string };

export class Responder {
  /** Rendered resources by format, route and page. */
  private readonly cache = new Map<string, Found>();
  // The same few URLs are asked again and again (a tree refreshing, a benchmark): answering them
  // without parsing keeps the service about as fast as one sending a fixed buffer.
  private readonly byTarget = new Map<string, Found>();
  /** The store's version what is kept was read at. */
  private keptVersion: number;
  private summaryOf: { version: number; summary: Promise<Summary> } | undefined;
  /** Resources being read and rendered, by the same key as `cache`, with the version they are read at. */
  private readonly reading = new Map<string, { version: number; found: Promise<Found> }>();
  private readonly writable: boolean;

  /** `writes`: how a writable store's write routes are answered; without it, the service is read-only. */
  constructor(
    private readonly store: CatalogStore,
    private readonly writes?: WriteHandler,
  ) {
    this.keptVersion = store.version;
    this.writable = writes !== undefined;
  }

  /**
   * GET and HEAD read a resource (a matching If-None-Match gets 304, HEAD gets no body), OPTIONS is a
   * CORS preflight, a writable store takes the write API's POST and DELETE; anything else is 405. A
   * failure while answering is a 500 rather than no answer.
   */
  async answer(request: ServiceRequest): Promise<Answer> {
    const answer = await this.respond(request);
    return request.method === 'HEAD' && answer.body.length > 0 ? { ...answer, body: EMPTY } : answer;
  }

  private async respond(request: ServiceRequest): Promise<Answer> {
    try {
      const { method } = request;
      if (method === 'OPTIONS') return preflight(this.writable);
      const reading = (READS as readonly string[]).includes(method);
      if (reading) {
        const known = this.current(request.url);
        if (known) return this.conditional(request, known);
      }
      const target = parseTarget(request.url);
      if (!this.writable && !reading) return error(405, READ_ONLY_MESSAGE, target.format, false, { Allow: allowOf(serviceMethods(false)) });
      if (!target.ok || (!this.writable && ROUTES[target.route.kind].writesOnly)) {
        return target.ok ? error(404, 'no such resource', target.format, false) : error(target.status, target.message, target.format, this.writable);
      }
      const { route, format } = target;
      const { methods, writesOnly } = ROUTES[route.kind];
      if (!(methods as readonly string[]).includes(method)) {
        const allowed = allowOf(methods);
        return error(405, `only ${allowed} are allowed here`, format, this.writable, { Allow: allowed });
      }
      if (route.kind === 'health') return health(await this.healthy(), this.writable);
      if (this.writes && (writesOnly || !reading)) return await this.writes.answer(route, request, format);
      return this.conditional(request, await this.find(request.url, route, format, target.page));
    } catch {
      return internalError(this.writable);
    }
  }

  /**
   * Whether the store answers now, within HEALTH_TIMEOUT_MS (a database that hangs is as down as one
   * that refuses): asked on every health check, never from what is kept.
   */
  private async healthy(): Promise<boolean> {
    if (!this.store.ping) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), HEALTH_TIMEOUT_MS)));
    try {
      return await Promise.race([this.store.ping().then(() => true, () => false), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private conditional(request: ServiceRequest, found: Found): Answer {
    const { revalidation } = found;
    if (revalidation && matchesNoneMatch(request.headers['if-none-match'], revalidation.etag)) return revalidation.notModified;
    return found;
  }

  /** What is kept for this target, if it was read at the store's current version. */
  private current(rawUrl: string): Found | undefined {
    if (this.keptVersion !== this.store.version) {
      this.cache.clear();
      this.byTarget.clear();
      this.keptVersion = this.store.version;
      return undefined;
    }
    return this.byTarget.get(rawUrl);
  }

  private async find(rawUrl: string, route: Route, format: Format, page: number): Promise<Found> {
    const version = this.store.version;
    const key = `${format}|${JSON.stringify(route)}|${page}`;
    const kept = this.cache.get(key);
    if (kept && this.keptVersion === version) return kept;
    // Right after a write, every connection asks for the same few pages at once: one reads each.
    const underWay = this.reading.get(key);
    if (underWay?.version === version) return underWay.found;
    const found = this.read(rawUrl, key, version, route, format, page);
    this.reading.set(key, { version, found });
    const done = () => {
      if (this.reading.get(key)?.found === found) this.reading.delete(key);
    };
    found.then(done, done);
    return found;
  }

  private async read(rawUrl: string, key: string, version: number, route: Route, format: Format, page: number): Promise<Found> {
    const resolved = await this.resolve(route, format, page);
    if (resolved.status === 404) return error(404, resolved.message, format, this.writable);
    const response = ok(format, resolved.text, this.writable);
    // Kept only when the store did not change while it was read: what a write replaced is never kept.
    if (resolved.keep && version === this.store.version && version === this.keptVersion) {
      remember(this.cache, key, response, MAX_KEPT);
      if (rawUrl.length <= 512) remember(this.byTarget, rawUrl, response, MAX_REMEMBERED_TARGETS);
    }
    return response;
  }

  /** `keep`: the resource exists and the page holds something, so it is worth keeping. */
  private async resolve(route: Route, format: Format, page: number): Promise<Resolved> {
    const s = this.store;
    switch (route.kind) {
      case 'index':
        return { status: 200, keep: true, text: renderIndexHtml(await this.summary()) };
      case 'code': {
        const code = await s.code(route.id);
        if (!code) return { status: 404, message: `no code with id ${route.id}` };
        return { status: 200, keep: true, text: format === 'xml' ? renderCodeXml(code) : renderCodeHtml(code) };
      }
      case 'refactor': {
        const refactor = await s.refactor(route.codeId, route.id);
        if (!refactor) return { status: 404, message: `no refactoring with id ${route.id} of code ${route.codeId}` };
        return { status: 200, keep: true, text: format === 'xml' ? renderRefactorXml(refactor) : renderRefactorHtml(refactor) };
      }
      case 'user': {
        const user = await s.user(route.id);
        if (!user) return { status: 404, message: `no user with id ${route.id}` };
        return { status: 200, keep: true, text: format === 'xml' ? renderUserXml(user) : renderUserHtml(user) };
      }
      case 'codes': {
        const lang = await this.language(route.language);
        const items = await (route.listing === 'recent' ? s.recentCodes(lang.key, page) : s.popularCodes(lang.key, page));
        const title = `${route.listing === 'recent' ? 'Recent' : 'Popular'} ${lang.name ? `${lang.name} ` : ''}codes`;
        const path = pagePath[route.listing](lang.name);
        return codeList(items, format, page, title, path);
      }
      case 'tag': {
        const lang = await this.language(route.language);
        const tagged = await s.taggedCodes(route.tag.toLowerCase(), lang.key, page);
        const name = tagged?.name ?? route.tag;
        const title = `Codes tagged ${name}${lang.name ? ` in ${lang.name}` : ''}`;
        // An unknown tag is named as asked, so its empty page is not shared between spellings.
        return codeList(tagged?.page ?? { items: [], hasNext: false }, format, page, title, pagePath.tag(name, lang.name));
      }
      case 'refactors': {
        const lang = await this.language(route.language);
        const p = await s.recentRefactors(lang.key, page);
        const title = `Recent ${lang.name ? `${lang.name} ` : ''}refactorings`;
        const path = pagePath.refactorings(lang.name);
        return {
          status: 200,
          keep: p.items.length > 0,
          text: format === 'xml' ? renderRefactorListXml(p.items) : renderRefactorListHtml({ title, path, page, ...p }),
        };
      }
      default:
        return { status: 404, message: 'no such resource' };
    }
  }

  private summary(): Promise<Summary> {
    const version = this.store.version;
    if (this.summaryOf?.version !== version) this.summaryOf = { version, summary: this.store.summary() };
    return this.summaryOf.summary;
  }

  /**
   * `key` '' for all languages (no segment, or `all` as the original service's links said); `name`
   * as the catalog spells it, or as asked when no code has it.
   */
  private async language(segment: string | undefined): Promise<{ key: string; name: string }> {
    if (segment === undefined || segment.toLowerCase() === ALL_LANGUAGES_SLUG) return { key: '', name: '' };
    const key = languageKey(segment);
    const { languages } = await this.summary();
    return { key, name: languages.find((l) => languageKey(l) === key) ?? segment };
  }
}

/**
 * An empty page is not worth keeping: past the end, or a language no code has, named as asked, so
 * not to be shared between spellings.
 */
function codeList(p: Page<ListedCode>, format: Format, page: number, title: string, path: string): Resolved {
  return {
    status: 200,
    keep: p.items.length > 0,
    text: format === 'xml' ? renderCodeListXml(p.items) : renderCodeListHtml({ title, path, page, ...p }),
  };
}

function remember<K, V>(map: Map<K, V>, key: K, value: V, bound: number): void {
  if (map.size >= bound) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): `W/"x"` matches `"x"`; `*` matches any. */
export function matchesNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
