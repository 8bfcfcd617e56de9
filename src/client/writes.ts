// What a write to the service needs beyond a read: the bearer token (checked before it is sent, and
// kept out of every message and log line), the failure statuses put into words a person can act on,
// the service's own reasons of a 422 kept as a list, and the page URL of what a POST made.
import { ApiError } from '../core/errors';
import { formatBytes, formatSeconds } from './httpErrors';
import { httpUrl } from '../core/httpUrl';
import { parseRetryAfter, type StatusExplanation } from './http';
import type { Logger } from './logger';
import { bearerHeader, MAX_BODY_BYTES, TOKEN68, TOKEN_REFUSED, type ServiceReason } from '../core/writeContract';
import { decodeErrors } from '../core/xmlDecode';

/** Reasons shown in one error's message; `reasons` keeps more, for a list. */
const REASONS_SHOWN = 10;
const REASONS_KEPT = 100;
/** Characters of one reason: a sentence about a field, not a document. */
const REASON_CHARS = 300;

/** The write's headers for `token`, refused (without quoting it) when no service could have given it. */
export function writeHeaders(token: string | undefined, url: string): Record<string, string> {
  if (token === undefined || token === '') throw new ApiError('invalid-input', url, 'a write needs a token, and none was given');
  if (!TOKEN68.test(token)) {
    throw new ApiError('invalid-input', url, 'the token holds characters no token has (only letters, digits and - . _ ~ + / =): check how it was copied');
  }
  return { authorization: bearerHeader(token), 'content-type': 'application/xml' };
}

/** `text` with every occurrence of `secret` replaced by `***`. */
export function withoutSecret(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('***') : text;
}

/**
 * `err` as it may be shown: an error whose text holds the token is made again without it, and
 * without its cause (whose text may hold it too).
 */
export function withoutToken(err: unknown, token: string | undefined): unknown {
  if (!token || !(err instanceof Error)) return err;
  const inCause = err.cause instanceof Error && (err.cause.message.includes(token) || String(err.cause.stack).includes(token));
  const inReasons = err instanceof ApiError && err.reasons.some((r) => r.includes(token));
  if (!err.message.includes(token) && !inCause && !inReasons) return err;
  if (err instanceof ApiError) {
    const { cause: _dropped, ...options } = err.options;
    void _dropped;
    const reasons = options.reasons?.map((r) => ({ ...r, text: withoutSecret(r.text, token) }));
    return new ApiError(err.kind, withoutSecret(err.url, token), withoutSecret(err.reason, token), { ...options, reasons });
  }
  return new Error(withoutSecret(err.message, token));
}

/** `logger` with the token masked in every line. */
export function tokenMaskingLogger(logger: Logger, token: string | undefined): Logger {
  return {
    trace: (m) => logger.trace(withoutSecret(m, token)),
    info: (m) => logger.info(withoutSecret(m, token)),
    warn: (m) => logger.warn(withoutSecret(m, token)),
    error: (m) => logger.error(withoutSecret(m, token)),
  };
}

/** The cause of a write's failure status in words, with the service's reasons where it gave any. */
export function explainWriteStatus(status: number, headers: Headers, body: string, now = Date.now()): StatusExplanation | undefined {
  const said = serviceReasons(body);
  // The service's own reason where it gave one (one reason, not ours and its), else ours.
  const withSaid = (reason: string): StatusExplanation => (said.length ? { reason: shown(said), reasons: said } : { reason });
  switch (status) {
    case 401:
      return { reason: TOKEN_REFUSED };
    case 403:
      return withSaid('only its author may change it');
    case 404:
      return withSaid('no such code or refactoring');
    case 405: {
      const allow = headers.get('allow');
      if (said.length) return { reason: shown(said), reasons: said };
      return { reason: `this service takes no contributions${allow ? ` (it allows ${allow})` : ''}` };
    }
    case 413:
      return { reason: `the contribution is larger than the service takes (${formatBytes(MAX_BODY_BYTES)})` };
    case 415:
      return { reason: 'the service did not take the body as XML' };
    case 422:
      return { reason: said.length ? shown(said) : 'the service refused the contribution without saying why', reasons: said };
    case 429:
    case 503: {
      const waitMs = parseRetryAfter(headers.get('retry-after'), now);
      const when = waitMs === undefined ? 'try again later' : `try again in ${formatSeconds(waitMs)}`;
      return { reason: status === 429 ? `too many requests: ${when}` : `the service is busy: ${when}` };
    }
    default:
      return said.length ? { reason: shown(said), reasons: said } : undefined;
  }
}

/** The `<error>`s of an `<errors>` body, each on one line; none for any other body. */
function serviceReasons(body: string): ServiceReason[] {
  if (body === '') return [];
  let reasons: ServiceReason[];
  try {
    reasons = decodeErrors(body);
  } catch {
    return [];
  }
  return reasons
    .map((r) => ({ ...r, text: r.text.replace(/\s+/g, ' ').trim() }))
    .filter((r) => r.text !== '')
    .slice(0, REASONS_KEPT)
    .map((r) => (r.text.length > REASON_CHARS ? { ...r, text: `${r.text.slice(0, REASON_CHARS - 1)}…` } : r));
}

function shown(reasons: readonly ServiceReason[]): string {
  const more = reasons.length - REASONS_SHOWN;
  const listed = reasons.slice(0, REASONS_SHOWN).map((r) => r.text).join('; ');
  return more > 0 ? `${listed}; and ${more} more` : listed;
}

/**
 * The page of what a POST made: its Location, resolved against the URL that answered, when that
 * is an http(s) URL; else `fallback`, the page the API's rules give.
 */
export function createdPage(location: string | undefined, answeredUrl: string, fallback: string): string {
  if (location === undefined) return fallback;
  return httpUrl(location, answeredUrl)?.href ?? fallback;
}
