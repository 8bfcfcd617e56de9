// The transport: one GET for an XML document (or one write: a POST or DELETE) through an injected WHATWG `fetch` (undici's in the CLI
// and the tests, the extension host's own in the extension, an in-process one for the built-in
// sample catalog), with what a service on the open internet needs around it: one overall deadline,
// a size cap enforced while streaming, redirects followed by hand (so every hop is checked, and a
// token never follows one to another origin), and a few retries for the failures that are worth
// retrying. Every failure comes out as an ApiError whose message is one line naming the URL and the cause. No Node module: it runs in a browser too.

import { ApiError, shownUrl } from '../core/errors';
import { type Logger, silentLogger, withoutCredentialsIn } from './logger';
import { httpUrl } from '../core/httpUrl';
import { describeNetworkError, formatBytes, formatSeconds } from './httpErrors';
import { statusLine } from '../core/statusText';
import { DEFAULT_MAX_RESPONSE_BYTES, type ServiceReason } from '../core/writeContract';
// The manifest's version, so a release cannot send a stale User-Agent. esbuild inlines just this
// field into the bundles; tsc copies package.json next to out/src for the tests.
import { version as packageVersion } from '../../package.json';

export const CLIENT_VERSION: string = packageVersion;
export const DEFAULT_USER_AGENT = userAgentFor(CLIENT_VERSION);
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_MAX_TRIES = 3;
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;

/** WHATWG fetch, as Node, browsers and VS Code's extension hosts have it (or a stand-in). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Statuses that say "try again later" rather than "this will never work". */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Shared: decode() without `stream` starts afresh each time, also after an error. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function userAgentFor(version: string): string {
  return `refactor-browser/${version}`;
}

export interface RequestOptions {
  /** The transport, owned by the caller (its connections are pooled across requests). */
  fetch: FetchLike;
  /** The whole `User-Agent` value; default `refactor-browser/<version>`; null sends none (a browser sends its own). */
  userAgent?: string | null;
  /** Sent as `If-None-Match`: a 304 then comes back as `{ status: 304, body: '' }`. */
  etag?: string;
  signal?: AbortSignal;
  /** One deadline for the whole request, retries, waits and redirects included. Default 15000. */
  timeoutMs?: number;
  /** Default 10 MiB. */
  maxResponseBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Attempts in all, the first one included, for 429/502/503/504 and connection resets. Default 3. */
  maxTries?: number;
  /** The first retry waits this long, each further one twice as long (unless Retry-After says). Default 500. */
  retryBaseDelayMs?: number;
  /**
   * The cause to give when a request fails with no status and nothing said about why, as a browser's
   * fetch does for a service that does not allow cross-origin requests (CORS); `url` is the one asked.
   */
  unexplainedFailure?: (url: string) => string;
  logger?: Logger;
  /**
   * Default GET. A POST or DELETE is sent once: never retried (the service may have acted on it
   * before the failure) and never redirected (its body and token would go again, or elsewhere).
   */
  method?: 'GET' | 'POST' | 'DELETE';
  /** A write's body. */
  body?: string;
  /** More request headers (a write's Authorization and Content-Type); they replace defaults of the same name. Never logged. */
  headers?: Readonly<Record<string, string>>;
  /**
   * When given, the body of an answer with a failure status is read (within the size cap) and this
   * may put the cause into words; what it returns follows the status line in the error.
   */
  explainStatus?: (status: number, headers: Headers, body: string) => StatusExplanation | undefined;
}

export interface StatusExplanation {
  /** A few words after the status line, e.g. `the token was refused`. */
  reason: string;
  /** What the service said was wrong, one item each (ApiError.reasons). */
  reasons?: readonly ServiceReason[];
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
  /** The Location header as sent (a write's 201 names what it made there). */
  location?: string;
}

interface Context {
  readonly fetch: FetchLike;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly body?: string;
  readonly explainStatus?: RequestOptions['explainStatus'];
  readonly headers: Record<string, string>;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly maxRedirects: number;
  readonly maxTries: number;
  readonly retryBaseDelayMs: number;
  readonly unexplainedFailure?: (url: string) => string;
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

/** GET (or write to) `url` for an XML document; resolves only with a 2xx (or an expected 304) and its text. */
export async function fetchXml(url: string, options: RequestOptions): Promise<HttpResult> {
  const href = httpHref(url);
  if (href === undefined) throw new ApiError('invalid-url', url, 'not an http or https URL');
  if (options.signal?.aborted) throw new ApiError('aborted', url, 'cancelled');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = new Deadline(timeoutMs, options.signal);
  const headers: Record<string, string> = { accept: 'application/xml', 'content-type': 'text/xml' };
  const userAgent = options.userAgent === undefined ? DEFAULT_USER_AGENT : options.userAgent;
  if (userAgent !== null) headers['user-agent'] = userAgent;
  const method = options.method ?? 'GET';
  if (options.etag && method === 'GET') headers['if-none-match'] = options.etag;
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  const ctx: Context = {
    fetch: options.fetch,
    method,
    body: options.body,
    explainStatus: options.explainStatus,
    headers,
    timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    maxTries: method === 'GET' ? Math.max(1, options.maxTries ?? DEFAULT_MAX_TRIES) : 1,
    retryBaseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
    unexplainedFailure: options.unexplainedFailure,
    logger: options.logger ? withoutCredentialsIn(options.logger) : silentLogger,
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
      if (ctx.headers.authorization !== undefined && new URL(next).origin !== new URL(current).origin) {
        throw new ApiError('insecure-redirect', current, `redirect to ${new URL(next).origin} refused (${TOKEN_STAYS})`, { status: outcome.status });
      }
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
 * the deadline passes; its timer is cleared once the request is over.
 */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onCallerAbort: (() => void) | undefined;
  /** True once the deadline has passed (not when the caller aborted). */
  aborted = false;

  constructor(ms: number, private readonly caller: AbortSignal | undefined) {
    // Node's timers fire after 1 ms for anything longer than 2^31 - 1 ms, so that is the longest deadline.
    if (!Number.isInteger(ms) || ms < 0 || ms > 0x7fff_ffff) throw new RangeError(`timeout must be a whole number of milliseconds, got ${ms}`);
    this.timer = setTimeout(() => {
      this.aborted = true;
      this.controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    }, ms);
    // In Node, a pending deadline must not keep the process alive (a browser's timer has no unref).
    (this.timer as { unref?: () => void }).unref?.();
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
  if (!httpUrl(to)) {
    return `redirect to ${target.protocol} refused`;
  }
  if (new URL(from).protocol === 'https:' && target.protocol === 'http:') {
    return 'redirect from https to http refused';
  }
  return undefined;
}

/** Milliseconds to wait from a Retry-After value (seconds or an HTTP-date); undefined if unusable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value === null) return undefined;
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
    ctx.logger.warn(`${ctx.method} ${shownUrl(url)}: ${failure.error.reason}; retry ${attempt} of ${ctx.maxTries - 1} in ${delayMs} ms`);
    try {
      await sleep(delayMs, ctx.signal);
    } catch (err) {
      throw classify(err, url, ctx).error;
    }
  }
}

async function exchange(url: string, ctx: Context): Promise<Exchange> {
  const started = Date.now();
  // The client holds answers itself for their max-age and expires them after a write or a Refresh;
  // a browser's HTTP cache would go on serving such a list for up to that max-age more. `no-cache`
  // has it ask the service each time (its ETag keeps that a 304); Node's fetch has no such cache,
  // and its types leave the option out.
  const init: RequestInit & { cache: 'no-cache' } = { method: ctx.method, headers: ctx.headers, body: ctx.body, signal: ctx.signal, redirect: 'manual', cache: 'no-cache' };
  let res = await ctx.fetch(url, init);
  if (res.type === 'opaqueredirect' && ctx.method !== 'GET') {
    discard(res);
    throw new ApiError('http-status', url, `redirected${NOT_REDIRECTED}`);
  }
  if (res.type === 'opaqueredirect' && ctx.headers.authorization !== undefined) {
    // Where it leads is hidden, so it may be another origin: the token is not sent after it.
    discard(res);
    throw new ApiError('insecure-redirect', url, `redirected, and the browser does not say where (${TOKEN_STAYS})`);
  }
  if (res.type === 'opaqueredirect') {
    // A browser hides a redirect's status and Location from a manual fetch: let it follow, then
    // check where it ended (a browser also refuses loops and stops after 20 hops itself).
    res = await ctx.fetch(url, { ...init, redirect: 'follow' });
    if (res.redirected && res.url) {
      const refusal = redirectRefusal(url, res.url);
      if (refusal) {
        discard(res);
        throw new ApiError('insecure-redirect', url, refusal);
      }
    }
  }
  const answered = res.redirected && res.url ? res.url : url;
  const status = res.status;
  const logDone = () => ctx.logger.info(`${ctx.method} ${shownUrl(url)} -> ${status} in ${Date.now() - started} ms`);

  if (status >= 200 && status < 300) {
    const body = await readCapped(res, url, ctx);
    logDone();
    const location = res.headers.get('location') ?? undefined;
    return { kind: 'done', result: { url: answered, status, body, etag: res.headers.get('etag') ?? undefined, maxAgeMs: maxAgeMs(res.headers), location } };
  }
  if (ctx.method !== 'GET') {
    const suffix = REDIRECT_STATUSES.has(status) ? NOT_REDIRECTED : '';
    throw await failureOfWrite(res, url, ctx, suffix).finally(logDone);
  }
  // Bodies of non-2xx answers are of no use here.
  discard(res);
  logDone();
  if (status === 304 && ctx.headers['if-none-match']) {
    return { kind: 'done', result: { url: answered, status, body: '', etag: res.headers.get('etag') ?? undefined, maxAgeMs: maxAgeMs(res.headers) } };
  }
  if (REDIRECT_STATUSES.has(status)) return { kind: 'redirect', status, location: res.headers.get('location') ?? undefined };
  if (RETRY_STATUSES.has(status)) {
    return { kind: 'retry-status', status, retryAfterMs: parseRetryAfter(res.headers.get('retry-after')) };
  }
  throw statusError(url, status);
}

/** Why a request with a token follows no redirect to another origin (Sign In's read; writes follow none). */
const TOKEN_STAYS = 'a token goes only to the service it was given for';

/** A redirect is not followed for a write: its body and token would go to another address. */
const NOT_REDIRECTED = ' (a write is not sent on to another address)';

/** The error for a write's failure status, put into words by the caller's explainStatus where it can. */
async function failureOfWrite(res: Response, url: string, ctx: Context, suffix: string): Promise<ApiError> {
  if (!ctx.explainStatus) {
    discard(res);
    return statusError(url, res.status, suffix);
  }
  // An error body that cannot be read is no worse than none: the status still says what happened.
  const body = await readCapped(res, url, ctx).catch(() => '');
  const explained = ctx.explainStatus(res.status, res.headers, body);
  if (!explained) return statusError(url, res.status, suffix);
  return new ApiError('http-status', url, `${statusLine(res.status)}${suffix}: ${explained.reason}`, { status: res.status, reasons: explained.reasons });
}

async function readCapped(res: Response, url: string, ctx: Context): Promise<string> {
  const cap = ctx.maxResponseBytes;
  const tooLarge = () => new ApiError('too-large', url, `response larger than ${formatBytes(cap)}`);
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > cap) {
    discard(res);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (res.body) {
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > cap) {
        // Cancelling mid-body closes the connection, so the server stops sending at once.
        void reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return UTF8.decode(bytes);
  } catch (err) {
    throw new ApiError('invalid-xml', url, 'body is not valid UTF-8', { cause: err });
  }
}

/** Stops a body we will not read. */
function discard(res: Response): void {
  if (res.body && !res.bodyUsed) void res.body.cancel().catch(() => undefined);
}

/** Resolves after `ms`, or rejects with the signal's reason once it aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Turns whatever a request threw into an ApiError, and says whether another try could help. */
function classify(err: unknown, url: string, ctx: Context): { error: ApiError; retry: boolean } {
  // The signals are checked first: once one fired, the transport's own error only says "aborted".
  if (ctx.callerSignal?.aborted) return { error: new ApiError('aborted', url, 'cancelled', { cause: err }), retry: false };
  if (ctx.deadline.aborted) {
    return { error: new ApiError('timeout', url, `timed out after ${formatSeconds(ctx.timeoutMs)}`, { cause: err }), retry: false };
  }
  if (err instanceof ApiError) return { error: err, retry: false };
  const failure = describeNetworkError(err, url);
  const reason = failure.unexplained && ctx.unexplainedFailure ? ctx.unexplainedFailure(url) : failure.reason;
  return { error: new ApiError(failure.kind, url, reason, { cause: err }), retry: failure.retry };
}

// The phrase the service sends is never shown: it is the service's own text, and only the defined
// phrases read the same whatever the transport says.
function statusError(url: string, status: number, suffix = ''): ApiError {
  return new ApiError('http-status', url, `${statusLine(status)}${suffix}`, { status });
}

function withSuffix(error: ApiError, suffix: string): ApiError {
  if (!suffix) return error;
  return new ApiError(error.kind, error.url, error.reason + suffix, { ...error.options });
}

/**
 * Cache-Control's max-age in milliseconds: how long the answer is fresh. 0 when the service says
 * nothing, asks for revalidation (no-cache, no-store) or gives an odd value; at most a day.
 */
export function maxAgeMs(headers: Headers): number {
  const value = headers.get('cache-control')?.toLowerCase() ?? '';
  if (/(?:^|[\s,])no-(?:cache|store)\b/.test(value)) return 0;
  const m = /(?:^|[\s,])max-age=(\d{1,9})(?:$|[\s,;])/.exec(value);
  return m ? Math.min(Number(m[1]), 86_400) * 1000 : 0;
}

/** The URL's href if it is an http or https URL. */
function httpHref(url: string): string | undefined {
  return httpUrl(url)?.href;
}

/** What an aborted signal was aborted with, as an Error (AbortSignal.timeout's is a DOMException, one). */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(String(reason));
}
