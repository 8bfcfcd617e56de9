// The reason phrases HTTP defines (RFC 9110, with 428, 429, 431 and 511 of RFC 6585 and 451 of RFC
// 7725): what the reference service sends, and the only phrases the client shows. A phrase a service
// sends for another status is its own text, so the client shows just the number for it.

export const REASON_PHRASES = {
  100: 'Continue', 101: 'Switching Protocols',
  200: 'OK', 201: 'Created', 202: 'Accepted', 203: 'Non-Authoritative Information', 204: 'No Content',
  205: 'Reset Content', 206: 'Partial Content',
  300: 'Multiple Choices', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified',
  305: 'Use Proxy', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
  400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found',
  405: 'Method Not Allowed', 406: 'Not Acceptable', 407: 'Proxy Authentication Required', 408: 'Request Timeout',
  409: 'Conflict', 410: 'Gone', 411: 'Length Required', 412: 'Precondition Failed', 413: 'Content Too Large',
  414: 'URI Too Long', 415: 'Unsupported Media Type', 416: 'Range Not Satisfiable', 417: 'Expectation Failed',
  421: 'Misdirected Request', 422: 'Unprocessable Content', 426: 'Upgrade Required', 428: 'Precondition Required',
  429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable',
  504: 'Gateway Timeout', 505: 'HTTP Version Not Supported', 511: 'Network Authentication Required',
} as const;

export type DefinedStatus = keyof typeof REASON_PHRASES;

/** The defined reason phrase of `status`, or undefined for a status HTTP does not define. */
export function reasonPhrase(status: number): string | undefined {
  return Object.hasOwn(REASON_PHRASES, status) ? REASON_PHRASES[status as DefinedStatus] : undefined;
}

/** `HTTP 404 Not Found`; `HTTP 599` for a status without a defined phrase, whatever the service said. */
export function statusLine(status: number): string {
  const phrase = reasonPhrase(status);
  return phrase ? `HTTP ${status} ${phrase}` : `HTTP ${status}`;
}
