// Network failures from undici and Node's sockets, put into words a user can act on. The codes
// hide in different places (the error, its `cause`, an AggregateError's first member when several
// addresses were tried), so they are looked for in all of them.

import type { ApiErrorKind } from './errors';

export interface NetworkFailure {
  kind: ApiErrorKind;
  /** A few words without the URL, e.g. `connection refused`. */
  reason: string;
  /** Whether the same GET has a fair chance to succeed if sent again. */
  retry: boolean;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT)/;

export function describeNetworkError(
  err: unknown,
  url: string,
  timeouts: { headersTimeoutMs: number; bodyTimeoutMs: number },
): NetworkFailure {
  const code = errorCode(err);
  switch (code) {
    case 'ECONNREFUSED':
      return { kind: 'connection', reason: 'connection refused', retry: false };
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return { kind: 'connection', reason: 'connection reset', retry: true };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return { kind: 'connection', reason: `unknown host ${hostOf(url)}`, retry: false };
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { kind: 'connection', reason: `host ${hostOf(url)} unreachable`, retry: false };
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return { kind: 'timeout', reason: `could not connect to ${hostOf(url)} in time`, retry: false };
    case 'UND_ERR_HEADERS_TIMEOUT':
      return { kind: 'timeout', reason: `no response within ${formatSeconds(timeouts.headersTimeoutMs)}`, retry: false };
    case 'UND_ERR_BODY_TIMEOUT':
      return { kind: 'timeout', reason: `response stalled for ${formatSeconds(timeouts.bodyTimeoutMs)}`, retry: false };
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return { kind: 'connection', reason: 'response shorter than its Content-Length', retry: true };
  }
  if (code && TLS_CODE.test(code)) return { kind: 'connection', reason: `TLS error: ${oneLine(err)}`, retry: false };
  if (code?.startsWith('HPE_')) return { kind: 'connection', reason: 'malformed HTTP response', retry: false };
  return { kind: 'connection', reason: oneLine(err) || 'request failed', retry: false };
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
