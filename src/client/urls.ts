// The service's URLs (read-only-xml-api.md, Endpoints) built from a base address, and code
// references read back from what users paste. Every user-supplied part (language, tag, code_ref)
// becomes exactly one path segment, whatever characters it holds.
import { languageSlug } from '../core/languages';
import { ApiError } from '../core/errors';
import { httpUrl, schemeOf } from '../core/httpUrl';
import { isId } from '../core/ids';
import type { Code } from '../core/model';

export interface ListQuery {
  /** A language name in any lettercase; empty or absent: all languages. */
  language?: string;
  /** 1-based; page 1 is the URL without a query. */
  page?: number;
}

export const CREDENTIALS_REFUSED = 'a base URL must not contain a user name or password';

/**
 * The base address as a URL whose pathname ends with '/', so that endpoint paths resolve below
 * any path prefix (`http://h/api` and `http://h/api/` are the same base). Query and hash are dropped.
 */
export function normalizeBaseUrl(base: string): URL {
  const text = base.trim();
  const url = httpUrl(text);
  if (!url) {
    const scheme = schemeOf(text);
    throw new ApiError('invalid-url', base, scheme === undefined ? 'not a valid URL' : `${scheme} URLs are not supported, only http and https`);
  }
  // Nothing would send them (the read API has no authentication), and a URL is logged and shown everywhere.
  if (url.username !== '' || url.password !== '') throw new ApiError('invalid-url', base, CREDENTIALS_REFUSED);
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return url;
}

/** `/codes/recent.xml`, `/codes/recent/<language>.xml` */
export function recentCodesUrl(base: string | URL, q: ListQuery = {}): string {
  return listUrl(base, ['codes', 'recent'], q);
}

/** `/codes/popular.xml`, `/codes/popular/<language>.xml` */
export function popularCodesUrl(base: string | URL, q: ListQuery = {}): string {
  return listUrl(base, ['codes', 'popular'], q);
}

/** `/tags/<tag>/<language>.xml`, `/tags/<tag>.xml` without a language; the tag is trimmed. */
export function tagCodesUrl(base: string | URL, tag: string, q: ListQuery = {}): string {
  const name = tag.trim();
  if (name === '') throw new RangeError('a tag must not be empty');
  return listUrl(base, ['tags', name], q);
}

/** `/refactorings/recent.xml`, `/refactorings/recent/<language>.xml` */
export function recentRefactoringsUrl(base: string | URL, q: ListQuery = {}): string {
  return listUrl(base, ['refactorings', 'recent'], q);
}

/** `/codes/<code_ref>.xml`; a refactoring's code is `codeUrl(base, refactor.codeId)`. */
export function codeUrl(base: string | URL, ref: string | number): string {
  if (typeof ref === 'number' && !(Number.isSafeInteger(ref) && ref >= 0)) {
    throw new RangeError(`a code id must be a non-negative integer, got ${ref}`);
  }
  const text = String(ref).trim();
  if (text === '') throw new RangeError('a code reference must not be empty');
  return build(base, ['codes', text], undefined);
}

// The write API's resources are addressed by a code's id alone: `42` of `42-some-title`.

/** `/codes.xml`: where a new code is posted. */
export function newCodeUrl(base: string | URL): string {
  return build(base, ['codes'], undefined);
}

/** `/codes/<id>/refactors.xml`: where a refactoring of the code is posted. */
export function newRefactorUrl(base: string | URL, codeRef: string | number): string {
  return build(base, ['codes', String(codeIdOf(codeRef)), 'refactors'], undefined);
}

/** `/codes/<id>/refactors/<refactor id>.xml`, and with `rate` `…/<refactor id>/rate.xml`. */
export function refactorUrl(base: string | URL, codeRef: string | number, refactorId: number, rate = false): string {
  if (!isId(refactorId)) throw new RangeError(`a refactoring id must be a whole number from 1, got ${String(refactorId)}`);
  const segments = ['codes', String(codeIdOf(codeRef)), 'refactors', String(refactorId)];
  return build(base, rate ? [...segments, 'rate'] : segments, undefined);
}

/** `/codes/<id>.xml` by the id alone, as a DELETE names it. */
export function codeIdUrl(base: string | URL, codeRef: string | number): string {
  return build(base, ['codes', String(codeIdOf(codeRef))], undefined);
}

/** `/users/<id>.xml`: a person, as lists nest them; what names a single code's author (its answer gives `user-id` alone). */
export function userUrl(base: string | URL, userId: number): string {
  if (!isId(userId)) throw new RangeError(`a user id must be a whole number from 1, got ${String(userId)}`);
  return build(base, ['users', String(userId)], undefined);
}

/** `/account.xml`: the person a token belongs to. */
export function accountUrl(base: string | URL): string {
  return build(base, ['account'], undefined);
}

/** The id of a code reference (`42`, `42-some-title`, a page URL, or the number); a RangeError for anything else. */
export function codeIdOf(ref: string | number): number {
  const text = typeof ref === 'number' ? String(ref) : parseCodeRef(ref);
  const id = text === undefined ? NaN : Number(/^\d+/.exec(text)?.[0]);
  if (!isId(id)) throw new RangeError(`"${String(ref)}" is not a code ref (an id like 42, 42-some-title, or a page URL)`);
  return id;
}

/** The HTML page of an XML URL: the same URL without the `.xml` ending its path; the query stays. */
export function pageUrl(xmlUrl: string): string {
  let url: URL;
  try {
    url = new URL(xmlUrl);
  } catch {
    throw new ApiError('invalid-url', xmlUrl, 'not a valid URL');
  }
  if (url.pathname.endsWith('.xml')) url.pathname = url.pathname.slice(0, -'.xml'.length);
  return url.href;
}

/** The `<code_ref>` of a code: `42-some-title`, or `42` when it has no permalink. */
export function codeRefOf(code: Pick<Code, 'id' | 'permalink'>): string {
  return code.permalink === '' ? `${code.id}` : `${code.id}-${code.permalink}`;
}

const CODE_REF = /^(\d+)(?:-(.*))?$/s;

/**
 * A code_ref from what a user typed or pasted: `42`, `42-some-title`, or a page or XML URL of the
 * code (`https://host/prefix/codes/42-some-title`, `.../codes/42-x.xml`). Undefined for anything else.
 */
export function parseCodeRef(input: string): string | undefined {
  const text = input.trim();
  const url = httpUrl(text);
  if (url) return refFromUrl(url);
  return refOf(text);
}

function refOf(segment: string): string | undefined {
  const m = CODE_REF.exec(segment);
  if (!m) return undefined;
  const slug = m[2];
  if (slug === undefined || slug === '') return m[1];
  // A slug is one segment of text; whitespace or a path inside it means this was not a reference.
  return /[\s/?#]/.test(slug) ? undefined : `${m[1]}-${slug}`;
}

function refFromUrl(url: URL): string | undefined {
  const segments = url.pathname.split('/');
  if (segments[segments.length - 1] === '') segments.pop(); // a trailing slash
  // A pathname starts with '/', so segments[0] is '' and a path too short has no 'codes' before its end.
  if (segments[segments.length - 2] !== 'codes') return undefined;
  let last = segments[segments.length - 1];
  if (last.endsWith('.xml')) last = last.slice(0, -'.xml'.length);
  try {
    last = decodeURIComponent(last);
  } catch {
    return undefined;
  }
  return refOf(last);
}

// ---- Building ---------------------------------------------------------------------------------

function listUrl(base: string | URL, segments: string[], q: ListQuery): string {
  const language = q.language?.trim() ?? '';
  return build(base, language === '' ? segments : [...segments, languageSlug(language)], q.page);
}

/** `<base>/<seg>/.../<last>.xml[?page=N]`, each segment percent-encoded on its own. */
function build(base: string | URL, segments: string[], page: number | undefined): string {
  const root = normalizeBaseUrl(typeof base === 'string' ? base : base.href);
  const last = segments.length - 1;
  const path = segments
    .map((s, i) => (i === last ? `${encodeSegment(s)}.xml` : encodeSegment(s)))
    .join('/');
  const href = `${root.href}${path}${pageQuery(page)}`;
  // URL parsers treat a segment of `%2E%2E` like `..` (WHATWG URL), so a tag of "." or ".." in the
  // middle of a path would silently address another resource: refuse any URL that would be rewritten.
  const parsed = new URL(href);
  if (parsed.pathname !== `${root.pathname}${path}`) {
    throw new ApiError('invalid-url', href, 'a tag, language or code reference of only dots cannot be put in a URL');
  }
  return href;
}

/** encodeURIComponent, plus dots when the segment is only dots, so it is never a `.`/`..` segment. */
function encodeSegment(s: string): string {
  return /^\.+$/.test(s) ? s.replace(/\./g, '%2E') : encodeURIComponent(s);
}

function pageQuery(page: number | undefined): string {
  if (page === undefined) return '';
  if (!Number.isSafeInteger(page) || page < 1) {
    throw new RangeError(`a page must be a positive integer, got ${page}`);
  }
  return page > 1 ? `?page=${page}` : '';
}
