// "Is this an http(s) URL", answered once for every caller: the base address, a proxy, a redirect,
// the page a write made, a code's page URL pasted or given to a tool, a link the code view or the
// service's pages would open, the command line's --base-url. Each asks with the WHATWG URL parser,
// so two callers never disagree about the same text (a pattern like /^https?:\/\// refused
// `http:host/codes/42`, which the parser, and so the base address, reads as http://host/codes/42).
// Whatever else a caller requires (no credentials, no downgrade to http) it checks on the URL given.

/** `text` (resolved against `base` when given) as an http: or https: URL; undefined for another scheme or no URL at all. */
export function httpUrl(text: string, base?: string | URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
}

/** True for a string that is an absolute http: or https: URL. */
export function isHttpUrl(v: unknown): v is string {
  return typeof v === 'string' && httpUrl(v) !== undefined;
}

/** The scheme of a URL, without its colon (`ftp`); undefined when `text` is no URL. */
export function schemeOf(text: string): string | undefined {
  try {
    return new URL(text).protocol.slice(0, -1);
  } catch {
    return undefined;
  }
}
