// The service's read-only API as typed calls, over an injected WHATWG fetch (src/client/http.ts). On
// top of the transport it adds what a tree view needs: concurrent asks for one URL share one
// request; an answer is used again without asking for as long as the service's Cache-Control
// max-age says, and after that revalidated with its ETag, so an unchanged list costs a 304 and no
// decoding. expire() makes every held answer ask again.
//
// The writes (a writable service's: post a code or a refactoring, rate, delete) go through the same
// transport with the token given at construction, each sent once, and expire what is held: what a
// list or a code said before may have changed.

import { ApiError, DecodeError } from '../core/errors';
import { formatSeconds } from './httpErrors';
import { DEFAULT_TIMEOUT_MS, fetchXml, type FetchLike, type RequestOptions as TransportOptions } from './http';
import { silentLogger, withoutCredentialsIn, type Logger } from './logger';
import { copyCode, copyRefactor, copyUser, type Code, type Refactor, type User } from '../core/model';
import {
  accountUrl,
  codeIdUrl,
  codeRefOf,
  newCodeUrl,
  newRefactorUrl,
  pageUrl,
  refactorUrl,
  codeUrl,
  normalizeBaseUrl,
  popularCodesUrl,
  recentCodesUrl,
  recentRefactoringsUrl,
  tagCodesUrl,
  userUrl,
  type ListQuery,
} from './urls';
import { decodeCode, decodeCodes, decodeRefactor, decodeRefactors, decodeUser, type Checkpoint } from '../core/xmlDecode';
import { codeBody, ratingBody, refactorBody, type NewCode, type NewRefactor } from '../core/xmlEncode';
import { createdPage, explainWriteStatus, tokenMaskingLogger, withoutToken, writeHeaders } from './writes';

export type { NewCode, NewRefactor } from '../core/xmlEncode';

/** The transport's options (documented on RequestOptions in http.ts), a base URL, and a clock. */
export interface ClientOptions extends Partial<Omit<TransportOptions, 'signal' | 'etag'>> {
  /** The service's base address, http or https; checked in the constructor. */
  baseUrl: string;
  /** The clock max-age and the deadline of decoding are counted on, in milliseconds since the epoch. Default: Date.now. */
  now?: () => number;
  /** The bearer token the writes carry; reads never send it. Never logged or shown. */
  token?: string;
}

/** What a POST made, and the page it is shown on. */
export interface Created<T> {
  value: T;
  /** The page's URL, from the answer's Location. */
  url: string;
}

type WriteMethod = 'POST' | 'DELETE';

export interface RequestOpts {
  language?: string;
  page?: number;
  signal?: AbortSignal;
}

/** Enough for every list and code a user browses in a session; the oldest is dropped first. */
const CACHE_ENTRIES = 200;

interface CacheEntry {
  /** Without one the answer is dropped once stale: there is nothing to revalidate with. */
  etag?: string;
  value: unknown;
  /** The time (the client's clock) until which the value is used without asking the service. */
  freshUntil: number;
}

interface InFlight {
  promise: Promise<unknown>;
  controller: AbortController;
  waiters: number;
}

export class RefactorClient {
  readonly baseUrl: string;
  /** The deadline of each call, in milliseconds. */
  readonly timeoutMs: number;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly transport: Omit<TransportOptions, 'signal' | 'etag'>;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, InFlight>();
  private closing: Promise<void> | undefined;
  /** A function, not a field holding the text, so that printing the client does not print the token. */
  private readonly token: () => string | undefined;

  constructor(options: ClientOptions) {
    const token = options.token;
    this.token = () => token;
    this.baseUrl = normalizeBaseUrl(options.baseUrl).href;
    this.logger = options.logger ? withoutCredentialsIn(options.logger) : silentLogger;
    this.now = options.now ?? Date.now;
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.timeoutMs = timeoutMs;
    // Without a fetch of the caller's, the global one, looked up when a request is made, so a fetch
    // installed after this client (or none) is seen.
    const fetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.transport = {
      fetch,
      timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      maxRedirects: options.maxRedirects,
      maxTries: options.maxTries,
      retryBaseDelayMs: options.retryBaseDelayMs,
      userAgent: options.userAgent,
      unexplainedFailure: options.unexplainedFailure,
      logger: this.logger,
    };
  }

  async recentCodes(o: RequestOpts = {}): Promise<Code[]> {
    return this.get(recentCodesUrl(this.baseUrl, listQuery(o)), decodeCodes, copyCodes, o.signal);
  }

  async popularCodes(o: RequestOpts = {}): Promise<Code[]> {
    return this.get(popularCodesUrl(this.baseUrl, listQuery(o)), decodeCodes, copyCodes, o.signal);
  }

  async taggedCodes(tag: string, o: RequestOpts = {}): Promise<Code[]> {
    return this.get(tagCodesUrl(this.baseUrl, tag, listQuery(o)), decodeCodes, copyCodes, o.signal);
  }

  async recentRefactorings(o: RequestOpts = {}): Promise<Refactor[]> {
    return this.get(recentRefactoringsUrl(this.baseUrl, listQuery(o)), decodeRefactors, copyRefactors, o.signal);
  }

  async code(ref: string | number, o: { signal?: AbortSignal } = {}): Promise<Code> {
    return this.get(codeUrl(this.baseUrl, ref), decodeCode, copyCode, o.signal);
  }

  /** A person by id (`/users/<id>.xml`), held and revalidated like the other reads. */
  async user(id: number, o: { signal?: AbortSignal } = {}): Promise<User> {
    return this.get(userUrl(this.baseUrl, id), decodeUser, copyUser, o.signal);
  }

  /** Posts a new code; resolves with it as the service now serves it, and its page. */
  async postCode(code: NewCode, o: { signal?: AbortSignal } = {}): Promise<Created<Code>> {
    const url = newCodeUrl(this.baseUrl);
    const { value, location, answered } = await this.write('POST', url, () => codeBody(code), decodeCode, o.signal);
    return { value, url: createdPage(location, answered, pageUrl(codeUrl(this.baseUrl, codeRefOf(value)))) };
  }

  /** Posts a refactoring of the code `codeRef` names (`42`, `42-some-title`, a page URL). */
  async postRefactor(codeRef: string | number, refactor: NewRefactor, o: { signal?: AbortSignal } = {}): Promise<Created<Refactor>> {
    const url = newRefactorUrl(this.baseUrl, codeRef);
    const { value, location, answered } = await this.write('POST', url, () => refactorBody(refactor), decodeRefactor, o.signal);
    return { value, url: createdPage(location, answered, pageUrl(refactorUrl(this.baseUrl, value.codeId, value.id))) };
  }

  /** Rates a refactoring from 1 to 5; resolves with its new rating and count of ratings. */
  async rate(codeRef: string | number, refactorId: number, value: number, o: { signal?: AbortSignal } = {}): Promise<Refactor> {
    const url = refactorUrl(this.baseUrl, codeRef, refactorId, true);
    return (await this.write('POST', url, () => ratingBody(value), decodeRefactor, o.signal)).value;
  }

  async deleteCode(codeRef: string | number, o: { signal?: AbortSignal } = {}): Promise<void> {
    await this.write('DELETE', codeIdUrl(this.baseUrl, codeRef), undefined, () => undefined, o.signal);
  }

  async deleteRefactor(codeRef: string | number, refactorId: number, o: { signal?: AbortSignal } = {}): Promise<void> {
    await this.write('DELETE', refactorUrl(this.baseUrl, codeRef, refactorId), undefined, () => undefined, o.signal);
  }

  /** The person the token belongs to. Never held: it says whether the token still works. */
  async account(o: { signal?: AbortSignal } = {}): Promise<User> {
    const token = this.token();
    try {
      const url = accountUrl(this.baseUrl);
      const res = await fetchXml(url, {
        ...this.transport,
        logger: tokenMaskingLogger(this.logger, token),
        signal: o.signal,
        headers: writeHeaders(token, url),
        explainStatus: explainWriteStatus,
      });
      return decodeOrThrow(res.url, () => decodeUser(res.body));
    } catch (err) {
      throw withoutToken(err, token);
    }
  }

  /** Every answer held is asked for again on its next call (revalidated with its ETag): a Refresh. */
  expire(): void {
    for (const entry of this.cache.values()) entry.freshUntil = 0;
  }

  /** Cancels what is in flight; later calls fail. The transport's connections are its owner's to close. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const shared of this.inFlight.values()) shared.controller.abort();
      this.inFlight.clear();
    })();
    return this.closing;
  }

  /**
   * Sends one write, never twice (the transport does not retry a POST or DELETE), and decodes its
   * answer. Whatever the outcome, the answers held are expired: a write that failed late may still
   * have been made.
   */
  private async write<T>(
    method: WriteMethod,
    url: string,
    body: (() => string) | undefined,
    decode: Decode<T>,
    signal: AbortSignal | undefined,
  ): Promise<{ value: T; location?: string; answered: string }> {
    if (this.closing) throw new ApiError('aborted', url, 'client closed');
    const token = this.token();
    let sent = false;
    try {
      const headers = writeHeaders(token, url);
      const text = body === undefined ? undefined : withUrl(url, body);
      const startedAt = this.now();
      sent = true;
      const res = await fetchXml(url, {
        ...this.transport,
        logger: tokenMaskingLogger(this.logger, token),
        method,
        body: text,
        headers,
        signal,
        explainStatus: explainWriteStatus,
      });
      const checkpoint: Checkpoint = () => {
        if (this.now() - startedAt <= this.timeoutMs) return;
        throw new ApiError('timeout', res.url, `timed out after ${formatSeconds(this.timeoutMs)} (decoding the response)`);
      };
      const value = decodeOrThrow(res.url, () => decode(res.body, checkpoint));
      return { value, location: res.location, answered: res.url };
    } catch (err) {
      const shown = withoutToken(err, token);
      this.logger.error(shown instanceof Error ? shown.message : String(shown));
      throw shown;
    } finally {
      if (sent) this.expire();
    }
  }

  private async get<T>(url: string, decode: Decode<T>, copy: (value: T) => T, signal: AbortSignal | undefined): Promise<T> {
    if (this.closing) throw new ApiError('aborted', url, 'client closed');
    if (signal?.aborted) throw new ApiError('aborted', url, 'cancelled');
    const held = this.cache.get(url);
    if (held && held.freshUntil > this.now()) {
      this.remember(url, held);
      return copy(held.value as T);
    }
    const shared = this.inFlight.get(url) ?? this.start(url, decode);
    const value = (await this.join(shared, url, signal)) as T;
    // Every caller gets its own copy, so no caller can change what the cache or another caller holds.
    return copy(value);
  }

  private start<T>(url: string, decode: Decode<T>): InFlight {
    const controller = new AbortController();
    const startedAt = this.now();
    const cached = this.cache.get(url);
    const shared: InFlight = { controller, waiters: 0, promise: Promise.resolve() };
    shared.promise = (async () => {
      try {
        const res = await fetchXml(url, {
          ...this.transport,
          signal: controller.signal,
          etag: cached?.etag,
        });
        const freshUntil = this.now() + res.maxAgeMs;
        if (res.status === 304 && cached) {
          this.remember(url, { ...cached, freshUntil });
          return cached.value;
        }
        // The transport's deadline ends with the body; decoding a large one can outlast what is left.
        const checkpoint: Checkpoint = () => {
          if (this.now() - startedAt <= this.timeoutMs) return;
          throw new ApiError('timeout', res.url, `timed out after ${formatSeconds(this.timeoutMs)} (decoding the response)`);
        };
        const value = decodeOrThrow(res.url, () => decode(res.body, checkpoint));
        if (res.etag || res.maxAgeMs > 0) this.remember(url, { etag: res.etag, value, freshUntil });
        else this.cache.delete(url);
        return value;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (err instanceof ApiError && err.kind === 'aborted') this.logger.info(`GET ${url}: ${err.reason}`);
        else this.logger.error(message);
        throw err;
      } finally {
        if (this.inFlight.get(url) === shared) this.inFlight.delete(url);
      }
    })();
    // Every waiter may have left by the time it settles; the rejection is theirs, not unhandled.
    shared.promise.catch(() => undefined);
    this.inFlight.set(url, shared);
    return shared;
  }

  /**
   * Waits for a shared request on behalf of one caller. A caller's abort ends only its own wait;
   * the request itself is cancelled once no caller is waiting for it any more.
   */
  private join(shared: InFlight, url: string, signal: AbortSignal | undefined): Promise<unknown> {
    shared.waiters++;
    if (!signal) return shared.promise;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        reject(new ApiError('aborted', url, 'cancelled'));
        if (--shared.waiters === 0) {
          // Gone from the map first, so a new caller starts afresh instead of joining a dying request.
          if (this.inFlight.get(url) === shared) this.inFlight.delete(url);
          shared.controller.abort();
        }
      };
      signal.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  private remember(url: string, entry: CacheEntry): void {
    // A Map keeps insertion order: re-inserting marks the entry as the most recently used.
    this.cache.delete(url);
    this.cache.set(url, entry);
    if (this.cache.size > CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
  }
}

const copyCodes = (codes: Code[]): Code[] => codes.map(copyCode);
const copyRefactors = (refactors: Refactor[]): Refactor[] => refactors.map(copyRefactor);

function listQuery(o: RequestOpts): ListQuery {
  return { language: o.language, page: o.page };
}

type Decode<T> = (xml: string, checkpoint: Checkpoint) => T;

/** Builds a write's body; an input refused names the URL it was for. */
function withUrl(url: string, body: () => string): string {
  try {
    return body();
  } catch (err) {
    if (err instanceof ApiError && err.url === '') throw new ApiError(err.kind, url, err.reason, err.options);
    throw err;
  }
}

function decodeOrThrow<T>(url: string, decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    if (err instanceof DecodeError) throw ApiError.fromDecode(url, err);
    throw err;
  }
}
