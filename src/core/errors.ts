// One error family for everything that can go wrong between a request and a typed result.
// Every ApiError has a one-line message that names the URL and the cause; the UI and the CLI show
// `message` as it is.
import { isSampleAddress } from './sample';
import type { ServiceReason, WriteField } from './writeContract';

export type ApiErrorKind =
  | 'timeout'            // the overall deadline (or connect/headers/body timeout) passed
  | 'http-status'        // a status other than 2xx/304 (after retries where they apply)
  | 'not-xml'            // the body is not XML at all (HTML page, JSON, plain text, empty)
  | 'invalid-xml'        // XML that is malformed: truncated, two roots, a DOCTYPE, bad UTF-8
  | 'wrong-root'         // well-formed XML with another root element than the one expected
  | 'type-mismatch'      // an element's text does not match its `type` attribute, or a required field is missing
  | 'too-large'          // the body passed the size cap, or holds far more elements or attributes than the API's shapes
  | 'too-many-redirects' // more redirects than allowed, or a loop
  | 'insecure-redirect'  // a redirect from https to http, to a scheme other than http(s), or with a token to another origin
  | 'connection'         // refused, reset, unknown host, TLS failure
  | 'aborted'            // cancelled by the caller's AbortSignal
  | 'invalid-url'        // the base URL or a reference is not a usable http(s) URL
  | 'invalid-input';     // a write's field or token that cannot be sent as it is (refused before sending)

/** Raised by the XML decoder, which does not know the URL; the client wraps it into an ApiError. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
  constructor(
    readonly kind: 'not-xml' | 'invalid-xml' | 'wrong-root' | 'type-mismatch' | 'too-large',
    message: string,
    /** The element the problem is in, e.g. `code/id`, where there is one. */
    readonly element?: string,
  ) {
    super(message);
  }
}

/**
 * `Bearer` and a token after it, as an Authorization header's value reads (a transport's message
 * about a header it refused may quote the value); not a challenge's `Bearer realm="…"`.
 */
const BEARER = /\b(Bearer\s+)(?![A-Za-z]+=")[^\s"',;]+/gi;
/** A scheme at the start of a word: where a URL in a text can begin. */
const SCHEME = /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*):/g;
/** The schemes whose authority the URL parser finds after any number of `/` or `\\` (`http:user@host`). */
const SPECIAL_SCHEMES = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'file']);

/**
 * `text` with the user name and password of every URL in it replaced by `***` (`http://***@proxy:8080`),
 * so that no message, log line or notification made from it can show credentials. A URL is read as
 * the URL parser reads it: `http:user:secret@host`, `http:\\user@host` and `HTTP:/user@host` have
 * credentials too, and they end at the last `@` of the authority (`http://user:p@ss@host`). A URL that
 * does not parse loses what would be its credentials all the same. A bearer token after `Bearer` is
 * masked too.
 */
export function withoutCredentials(text: string): string {
  return withoutUrlCredentials(text).replace(BEARER, (_, word: string) => `${word}***`);
}

function withoutUrlCredentials(text: string): string {
  if (!text.includes('@')) return text;
  let shown = '';
  let copied = 0;
  // Each character is in at most one authority: what looks like a scheme inside one (`user:`) is not
  // read again, which keeps this linear in the text.
  let read = 0;
  for (const m of text.matchAll(SCHEME)) {
    if (m.index < read) continue;
    const special = SPECIAL_SCHEMES.has(m[1].toLowerCase());
    const afterColon = m.index + m[0].length;
    // Other schemes have an authority only after `//` (`mailto:ana@host` has none).
    if (!special && !text.startsWith('//', afterColon)) continue;
    let start = afterColon;
    while (text[start] === '/' || (special && text[start] === '\\')) start++;
    let end = start;
    while (end < text.length && !/[\s/?#]/.test(text[end]) && !(special && text[end] === '\\')) end++;
    read = end;
    const at = text.slice(start, end).lastIndexOf('@');
    if (at === -1 || !hasCredentials(text.slice(m.index, end))) continue;
    shown += `${text.slice(copied, start)}***`;
    copied = start + at;
  }
  return shown + text.slice(copied);
}

/** False only when the URL parser reads `url` and finds neither a user name nor a password. */
function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return true;
  }
}

/**
 * A URL as a message or log line shows it: credentials masked, and the built-in sample catalog's
 * by its name and path, never as an address a person could try to open.
 */
export function shownUrl(url: string): string {
  if (!isSampleAddress(url)) return withoutCredentials(url);
  const { pathname, search } = new URL(url);
  return `the built-in sample catalog's ${pathname}${search}`;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The URL, credentials masked. */
  readonly url: string;
  /** The cause in a few words, without the URL, e.g. `HTTP 404 Not Found`; credentials masked. */
  readonly reason: string;

  constructor(
    readonly kind: ApiErrorKind,
    url: string,
    reason: string,
    readonly options: { status?: number; cause?: unknown; element?: string; reasons?: readonly ServiceReason[] } = {},
  ) {
    const shownReason = withoutCredentials(reason);
    super(url ? `${shownUrl(url)}: ${shownReason}` : shownReason, { cause: options.cause });
    this.url = withoutCredentials(url);
    this.reason = shownReason;
  }

  get status(): number | undefined {
    return this.options.status;
  }

  get element(): string | undefined {
    return this.options.element;
  }

  /**
   * What the service said was wrong, one sentence each, worded for a person (a 422's `<error>`s:
   * one per invalid field); empty when it said nothing the client could read.
   */
  get reasons(): readonly string[] {
    return (this.options.reasons ?? []).map((r) => r.text);
  }

  /** The service's reason about `field` (a 422's `<error field="…">`, writeContract.ts's FIELD), if it gave one. */
  reasonFor(field: WriteField): string | undefined {
    return this.options.reasons?.find((r) => r.field === field)?.text;
  }

  static fromDecode(url: string, err: DecodeError): ApiError {
    return new ApiError(err.kind, url, err.message, { cause: err, element: err.element });
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
