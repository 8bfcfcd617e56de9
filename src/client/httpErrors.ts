// Network failures put into words a user can act on. Whatever the fetch underneath (undici's, which
// keeps Node's socket error as the `cause` of its "fetch failed", or a browser's, which says nothing
// at all), the codes are looked for in the error, its `cause`, and an AggregateError's first member
// when several addresses were tried.

import type { ApiErrorKind } from '../core/errors';

export interface NetworkFailure {
  kind: ApiErrorKind;
  /** A few words without the URL, e.g. `connection refused`. */
  reason: string;
  /** Whether the same GET has a fair chance to succeed if sent again. */
  retry: boolean;
  /** True when nothing tells what happened (a browser's "Failed to fetch": CORS, DNS, offline alike). */
  unexplained: boolean;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT)/;

export function describeNetworkError(err: unknown, url: string): NetworkFailure {
  const failure = (kind: ApiErrorKind, reason: string, retry = false): NetworkFailure => ({ kind, reason, retry, unexplained: false });
  const code = errorCode(err);
  switch (code) {
    case 'ECONNREFUSED':
      return failure('connection', 'connection refused');
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return failure('connection', 'connection reset', true);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return failure('connection', `unknown host ${hostOf(url)}`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return failure('connection', `host ${hostOf(url)} unreachable`);
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return failure('timeout', `could not connect to ${hostOf(url)} in time`);
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return failure('connection', 'response shorter than its Content-Length', true);
  }
  if (code && TLS_CODE.test(code)) return failure('connection', `TLS error: ${oneLine(innermost(err))}`);
  if (code?.startsWith('HPE_')) return failure('connection', 'malformed HTTP response');
  const said = oneLine(innermost(err));
  if (code === undefined && err instanceof TypeError && (err as { cause?: unknown }).cause === undefined) {
    return { kind: 'connection', reason: `request failed (${said || 'no reason given'})`, retry: false, unexplained: true };
  }
  return failure('connection', said || 'request failed');
}

/** The deepest `cause`: what undici's "fetch failed" wraps. */
function innermost(err: unknown): unknown {
  let e = err;
  for (let depth = 0; depth < 4; depth++) {
    const cause = (e as { cause?: unknown } | null)?.cause;
    if (cause === undefined || cause === null) break;
    e = cause;
  }
  return e;
}

function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = e instanceof AggregateError && e.errors.length ? e.errors[0] : (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

function oneLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split(/\r?\n/)[0].trim();
}

/** `15000` -> `15 s`, `300` -> `0.3 s`: how deadlines appear in messages. */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
}

/** `10485760` -> `10 MiB`, `65536` -> `64 KiB`, else plain bytes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(2))} MiB`;
  return `${bytes} bytes`;
}
