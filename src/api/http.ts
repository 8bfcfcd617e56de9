// The transport: one GET for an XML document over undici, with what a service on the open internet
// needs around it: one overall deadline, a size cap enforced while streaming, redirects followed by
// hand (so every hop is checked), and a few retries for the failures that are worth retrying.
// Every failure comes out as an ApiError whose message is one line naming the URL and the cause.

import { STATUS_CODES } from 'node:http';
import { setTimeout as wait } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import { ApiError } from './errors';
import { type Logger, silentLogger } from './logger';
import { describeNetworkError, formatBytes, formatSeconds, type NetworkFailure } from './httpErrors';
// The manifest's version, so a release cannot send a stale User-Agent. esbuild inlines just this
// field into the bundles; tsc copies package.json next to out/src for the tests.
import { version as packageVersion } from '../../package.json';

export const CLIENT_VERSION: string = packageVersion;
export const DEFAULT_USER_AGENT = userAgentFor(CLIENT_VERSION);
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_MAX_TRIES = 3;
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;

/** Statuses that say "try again later" rather than "this will never work". */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Shared: decode() without `stream` starts afresh each time, also after an error. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function userAgentFor(version: string): string {
  return `refactor-browser/${version}`;
}

export interface RequestOptions {
  /** Owned by the caller (see createDispatcher), so connections are pooled across requests. */
  dispatcher: Dispatcher;
  /** The whole `User-Agent` value. */
  userAgent?: string;
  /** Sent as `If-None-Match`: a 304 then comes back as `{ status: 304, body: '' }`. */
  etag?: string;
  signal?: AbortSignal;
  /** One deadline for the whole request, retries, waits and redirects included. */
  timeoutMs?: number;
  /**
   * Waiting for the status line and headers, per exchange; defaults to the deadline. undici runs
   * this and bodyTimeoutMs on coarse timers (they may fire up to about a second late); the overall
   * deadline is exact.
   */
  headersTimeoutMs?: number;
  /** Longest silence between two body chunks; defaults to the deadline. */
  bodyTimeoutMs?: number;
  maxResponseBytes?: number;
  maxRedirects?: number;
  /** Attempts in all, the first one included. */
  maxTries?: number;
  /** The first retry waits this long, each further one twice as long (unless Retry-After says). */
  retryBaseDelayMs?: number;
  logger?: Logger;
}

export interface HttpResult {
  /** The URL that answered, after any redirects. */
  url: string;
  /** A 2xx status, or 304 when `etag` was sent and still matches. */
  status: number;
  /** The body decoded as UTF-8; empty for a 304. */
  body: string;
  etag?: string;
  /** How long the answer may be used without asking again (Cache-Control max-age); 0 for not at all. */
  maxAgeMs: number;
}

interface Context {
  readonly dispatcher: Dispatcher;
  readonly headers: Record<string, string>;
  readonly timeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly maxRedirects: number;
  readonly maxTries: number;
  readonly retryBaseDelayMs: number;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly callerSignal?: AbortSignal;
  readonly deadline: Deadline;
  readonly deadlineAt: number;
}

type Exchange =
  | { kind: 'done'; result: HttpResult }
  | { kind: 'redirect'; status: number; location: string | undefined }
  | { kind: 'retry-status'; status: number; retryAfterMs: number | undefined };

/** GET `url` for an XML document; resolves only with a 2xx (or an expected 304) and its text. */
export async function fetchXml(url: string, options: RequestOptions): Promise<HttpResult> {
  const href = httpHref(url);
  if (href === undefined) throw new ApiError('invalid-url', url, 'not an http or https URL');
  if (options.signal?.aborted) throw new ApiError('aborted', url, 'cancelled');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = new Deadline(timeoutMs, options.signal);
  const headers: Record<string, string> = {
    accept: 'application/xml',
    'content-type': 'text/xml',
    'user-agent': options.userAgent ?? DEFAULT_USER_AGENT,
  };
  if (options.etag) headers['if-none-match'] = options.etag;
  const ctx: Context = {
    dispatcher: options.dispatcher,
    headers,
    timeoutMs,
    headersTimeoutMs: options.headersTimeoutMs ?? timeoutMs,
    bodyTimeoutMs: options.bodyTimeoutMs ?? timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    maxTries: Math.max(1, options.maxTries ?? DEFAULT_MAX_TRIES),
    retryBaseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
    logger: options.logger ?? silentLogger,
    signal: deadline.signal,
    callerSignal: options.signal,
    deadline,
    deadlineAt: Date.now() + timeoutMs,
  };

  try {
    // Comparing hrefs catches A -> B -> A long before the redirect limit would.
    const visited = new Set<string>([href]);
    let current = url;
    for (let redirects = 0; ; ) {
      const outcome = await exchangeWithRetries(current, ctx);
      if (outcome.kind === 'done') return outcome.result;
      const next = nextHop(current, outcome.status, outcome.location);
      redirects++;
      if (redirects > ctx.maxRedirects) {
        throw new ApiError('too-many-redirects', current, `too many redirects (more than ${ctx.maxRedirects})`);
      }
      if (visited.has(next)) throw new ApiError('too-many-redirects', current, `redirect loop back to ${next}`);
      visited.add(next);
      current = next;
    }
  } finally {
    deadline.dispose();
  }
}

/**
 * The one signal a request runs under: aborted by the caller's signal, or with a TimeoutError when
 * the deadline passes. What AbortSignal.any([caller, AbortSignal.timeout(ms)]) gives, for a fraction
 * of its cost per request, and its timer is cleared once the request is over instead of staying
 * armed for the rest of the deadline.
 */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onCallerAbort: (() => void) | undefined;
  /** True once the deadline has passed (not when the caller aborted). */
  aborted = false;

  constructor(ms: number, private readonly caller: AbortSignal | undefined) {
    if (!Number.isInteger(ms) || ms < 0 || ms > 0xffff_ffff) AbortSignal.timeout(ms); // throws as it always did
    this.timer = setTimeout(() => {
      this.aborted = true;
      this.controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, ms);
    this.timer.unref();
    if (caller) {
      const onCallerAbort = () => this.controller.abort(caller.reason);
      caller.addEventListener('abort', onCallerAbort, { once: true });
      this.onCallerAbort = onCallerAbort;
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.onCallerAbort) this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}

/**
 * Why a redirect from `from` to `to` must not be followed, or undefined when it may be.
 * A downgrade to http would hand the rest of the exchange to anyone on the path.
 */
export function redirectRefusal(from: string, to: string): string | undefined {
  const target = new URL(to);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return `redirect to ${target.protocol} refused`;
  }
  if (new URL(from).protocol === 'https:' && target.protocol === 'http:') {
    return 'redirect from https to http refused';
  }
  return undefined;
}

/** Milliseconds to wait from a Retry-After value (seconds or an HTTP-date); undefined if unusable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // All three HTTP-date forms start with a day name; without that check Date.parse('-5') is a year.
  const at = /^[A-Za-z]{3}/.test(text) ? Date.parse(text) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function nextHop(current: string, status: number, location: string | undefined): string {
  if (!location) throw statusError(current, status, ' without a Location');
  let next: string;
  try {
    next = new URL(location, current).href;
  } catch {
    throw statusError(current, status, ' with an invalid Location');
  }
  const refusal = redirectRefusal(current, next);
  if (refusal) throw new ApiError('insecure-redirect', current, refusal, { status });
  return next;
}

async function exchangeWithRetries(url: string, ctx: Context): Promise<Exclude<Exchange, { kind: 'retry-status' }>> {
  for (let attempt = 1; ; attempt++) {
    let failure: { error: ApiError; retryAfterMs?: number };
    try {
      const outcome = await exchange(url, ctx);
      if (outcome.kind !== 'retry-status') return outcome;
      failure = { error: statusError(url, outcome.status), retryAfterMs: outcome.retryAfterMs };
    } catch (err) {
      const problem = classify(err, url, ctx);
      if (!problem.retry) throw problem.error;
      failure = { error: problem.error };
    }
    const tries = attempt === 1 ? '' : ` (after ${attempt} tries)`;
    if (attempt >= ctx.maxTries) throw withSuffix(failure.error, tries);
    const delayMs = failure.retryAfterMs ?? ctx.retryBaseDelayMs * 2 ** (attempt - 1);
    // Waiting past the deadline would only turn a clear status into a vaguer timeout.
    if (Date.now() + delayMs >= ctx.deadlineAt) {
      const why = failure.retryAfterMs !== undefined
        ? ` (Retry-After ${formatSeconds(delayMs)} exceeds the deadline)`
        : tries;
      throw withSuffix(failure.error, why);
    }
    ctx.logger.warn(`GET ${url}: ${failure.error.reason}; retry ${attempt} of ${ctx.maxTries - 1} in ${delayMs} ms`);
    try {
      await wait(delayMs, undefined, { signal: ctx.signal });
    } catch (err) {
      throw classify(err, url, ctx).error;
    }
  }
}

async function exchange(url: string, ctx: Context): Promise<Exchange> {
  const started = Date.now();
  const res = await settledOnAbort(request(url, {
    method: 'GET',
    headers: ctx.headers,
    dispatcher: ctx.dispatcher,
    signal: ctx.signal,
    headersTimeout: ctx.headersTimeoutMs,
    bodyTimeout: ctx.bodyTimeoutMs,
  }), ctx.signal);
  const status = res.statusCode;
  const logDone = () => ctx.logger.info(`GET ${url} -> ${status} in ${Date.now() - started} ms`);

  if (status >= 200 && status < 300) {
    const body = await readCapped(res, url, ctx);
    logDone();
    return { kind: 'done', result: { url, status, body, etag: header(res.headers, 'etag'), maxAgeMs: maxAgeMs(res.headers) } };
  }
  // Bodies of non-2xx answers are of no use here; dump() reads a little to keep the socket reusable.
  await res.body.dump({ limit: 64 * 1024, signal: ctx.signal }).catch(() => undefined);
  logDone();
  if (status === 304 && ctx.headers['if-none-match']) {
    return { kind: 'done', result: { url, status, body: '', etag: header(res.headers, 'etag'), maxAgeMs: maxAgeMs(res.headers) } };
  }
  if (REDIRECT_STATUSES.has(status)) return { kind: 'redirect', status, location: header(res.headers, 'location') };
  if (RETRY_STATUSES.has(status)) {
    return { kind: 'retry-status', status, retryAfterMs: parseRetryAfter(header(res.headers, 'retry-after')) };
  }
  throw statusError(url, status);
}

async function readCapped(res: Dispatcher.ResponseData, url: string, ctx: Context): Promise<string> {
  const cap = ctx.maxResponseBytes;
  const tooLarge = () => new ApiError('too-large', url, `response larger than ${formatBytes(cap)}`);
  const declared = Number(header(res.headers, 'content-length'));
  if (Number.isFinite(declared) && declared > cap) {
    discard(res.body);
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > cap) {
      // Destroying mid-body closes the connection, so the server stops sending at once.
      discard(res.body);
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  try {
    return UTF8.decode(Buffer.concat(chunks, size));
  } catch (err) {
    throw new ApiError('invalid-xml', url, 'body is not valid UTF-8', { cause: err });
  }
}

/**
 * undici looks at a request's signal only once its socket has connected (nodejs/undici#386), so a
 * connect that hangs would outlast both the deadline and a cancel, up to the connect timeout. This
 * settles as soon as the signal fires; a response that still comes is thrown away.
 */
function settledOnAbort(pending: Promise<Dispatcher.ResponseData>, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (res) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) discard(res.body);
        else resolve(res);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
    if (signal.aborted) onAbort();
  });
}

/** Stops a body we will not read; undici then reports an abort nobody needs to hear about. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Turns whatever a request threw into an ApiError, and says whether another try could help. */
function classify(err: unknown, url: string, ctx: Context): { error: ApiError; retry: boolean } {
  // The signals are checked first: once one fired, undici's own error only says "aborted".
  if (ctx.callerSignal?.aborted) return { error: new ApiError('aborted', url, 'cancelled', { cause: err }), retry: false };
  if (ctx.deadline.aborted) {
    return { error: new ApiError('timeout', url, `timed out after ${formatSeconds(ctx.timeoutMs)}`, { cause: err }), retry: false };
  }
  if (err instanceof ApiError) return { error: err, retry: false };
  const failure: NetworkFailure = describeNetworkError(err, url, {
    headersTimeoutMs: ctx.headersTimeoutMs,
    bodyTimeoutMs: ctx.bodyTimeoutMs,
  });
  return { error: new ApiError(failure.kind, url, failure.reason, { cause: err }), retry: failure.retry };
}

function statusError(url: string, status: number, suffix = ''): ApiError {
  const text = STATUS_CODES[status];
  return new ApiError('http-status', url, `HTTP ${status}${text ? ` ${text}` : ''}${suffix}`, { status });
}

function withSuffix(error: ApiError, suffix: string): ApiError {
  if (!suffix) return error;
  return new ApiError(error.kind, error.url, error.reason + suffix, { ...error.options });
}

/**
 * Cache-Control's max-age in milliseconds: how long the answer is fresh. 0 when the service says
 * nothing, asks for revalidation (no-cache, no-store) or gives an odd value; at most a day.
 */
export function maxAgeMs(headers: Dispatcher.ResponseData['headers']): number {
  const value = header(headers, 'cache-control')?.toLowerCase() ?? '';
  if (/(?:^|[\s,])no-(?:cache|store)\b/.test(value)) return 0;
  const m = /(?:^|[\s,])max-age=(\d{1,9})(?:$|[\s,;])/.exec(value);
  return m ? Math.min(Number(m[1]), 86_400) * 1000 : 0;
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The URL's href if it is an http or https URL. */
function httpHref(url: string): string | undefined {
  try {
    const { protocol, href } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? href : undefined;
  } catch {
    return undefined;
  }
}
