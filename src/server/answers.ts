// The reference service's answers as values: status, reason phrase, headers and body bytes, built
// the same way for reads (responses.ts) and writes (writes.ts). No Node module and no Buffer, so the
// same bytes go out over node:http and through an in-process fetch.

import { REASON_PHRASES } from '../core/statusText';
import type { ServiceReason } from '../core/writeContract';
import { strongEtag } from './etag';
import { allowOf, serviceMethods, type Format } from './routes';
import { renderErrorHtml } from './render/htmlRender';
import { renderErrorXml } from './render/xmlRender';

export interface Answer {
  readonly status: Status;
  /** The reason phrase node:http sends for the status, so an in-process Response reports the same. */
  readonly statusText: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Empty for HEAD, 204 and 304. Shared between requests: read it, never write it. */
  readonly body: Uint8Array;
}

/** A found resource, with what a conditional request is answered by when it has an ETag. */
export interface Found extends Answer {
  readonly revalidation?: { readonly etag: string; readonly notModified: Answer };
}

export type Status = 200 | 201 | 204 | 304 | 400 | 401 | 403 | 404 | 405 | 413 | 415 | 422 | 429 | 500 | 503;
export type ErrorStatus = Exclude<Status, 200 | 201 | 204 | 304>;

const CONTENT_TYPE: Record<Format, string> = {
  xml: 'application/xml; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

// Pages hold no scripts, images or forms: inline styles are all they need.
const HTML_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * On every answer, errors and 304 included: any origin may read the service (VS Code for the Web
 * reads it from a browser), and no cookie is ever involved: writes carry a bearer token, which a
 * page can only send if it has it. A client revalidates with ETag and honours Retry-After, which a
 * browser hides unless they are exposed; a writable service's clients also read Location.
 */
export function corsHeaders(writable: boolean): Record<string, string> {
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': writable ? 'ETag, Retry-After, Location' : 'ETag, Retry-After' };
}

export const EMPTY = new Uint8Array(0);
const encoder = new TextEncoder();

/**
 * The answer to a CORS preflight, on any path: the API's `Content-Type: text/xml` request header is
 * not one a browser sends without asking first, nor is a write's Authorization. Browsers keep it for
 * at most Max-Age seconds.
 */
export function preflight(writable: boolean): Answer {
  return {
    status: 204,
    statusText: REASON_PHRASES[204],
    headers: {
      ...corsHeaders(writable),
      'Access-Control-Allow-Methods': serviceMethods(writable).join(', '),
      'Access-Control-Allow-Headers': writable ? 'Accept, Content-Type, If-None-Match, Authorization' : 'Accept, Content-Type, If-None-Match',
      'Access-Control-Max-Age': '86400',
      Allow: allowOf(serviceMethods(writable)),
    },
    body: EMPTY,
  };
}

export function internalError(writable: boolean): Answer {
  const body = encoder.encode('internal error\n');
  return {
    status: 500,
    statusText: REASON_PHRASES[500],
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(body.length), 'Cache-Control': 'no-cache', ...corsHeaders(writable) },
    body,
  };
}

/**
 * The health check's answer: 200 when the storage answered, 503 when it did not. `no-store`: a proxy
 * or a browser that kept it would report a stopped instance as well, or a recovered one as down.
 */
export function health(healthy: boolean, writable: boolean): Answer {
  const status = healthy ? 200 : 503;
  const body = encoder.encode(healthy ? 'ok\n' : 'the storage does not answer\n');
  return {
    status,
    statusText: REASON_PHRASES[status],
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(body.length), 'Cache-Control': 'no-store', ...corsHeaders(writable) },
    body,
  };
}

/** A resource anyone may keep for a minute and revalidate with its ETag. */
export function ok(format: Format, text: string, writable: boolean): Found {
  const body = encoder.encode(text);
  const etag = strongEtag(body);
  const cacheControl = 'public, max-age=60';
  const cors = corsHeaders(writable);
  return {
    status: 200,
    statusText: REASON_PHRASES[200],
    body,
    headers: { ...baseHeaders(format, body, cors), ETag: etag, 'Cache-Control': cacheControl },
    revalidation: {
      etag,
      notModified: { status: 304, statusText: REASON_PHRASES[304], headers: { ETag: etag, 'Cache-Control': cacheControl, ...cors }, body: EMPTY },
    },
  };
}

/** The answer to a write, or to one person's request (their account): never kept by a cache. */
export function personal(status: 200 | 201 | 204, format: Format, text: string, extra: Record<string, string> = {}): Answer {
  const body = status === 204 ? EMPTY : encoder.encode(text);
  const headers = status === 204 ? { ...corsHeaders(true) } : baseHeaders(format, body, corsHeaders(true));
  return { status, statusText: REASON_PHRASES[status], body, headers: { ...headers, 'Cache-Control': 'no-store', ...extra } };
}

/** One reason, or several (a 422 lists every invalid field, naming it), in the format the path asked for. */
export function error(status: ErrorStatus, reasons: string | readonly ServiceReason[], format: Format, writable: boolean, extra: Record<string, string> = {}): Found {
  const list = typeof reasons === 'string' ? [{ text: reasons }] : reasons;
  const text = format === 'xml' ? renderErrorXml(list) : renderErrorHtml(status, list.map((r) => r.text).join(' '));
  const body = encoder.encode(text);
  return { status, statusText: REASON_PHRASES[status], body, headers: { ...baseHeaders(format, body, corsHeaders(writable)), 'Cache-Control': 'no-cache', ...extra } };
}

function baseHeaders(format: Format, body: Uint8Array, cors: Record<string, string>): Record<string, string> {
  return {
    'Content-Type': CONTENT_TYPE[format],
    'Content-Length': String(body.length),
    'X-Content-Type-Options': 'nosniff',
    ...(format === 'html' ? { 'Content-Security-Policy': HTML_CSP } : {}),
    ...cors,
  };
}
