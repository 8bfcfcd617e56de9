// The write API's contract, each fact once, for both sides: what the client (api/) sends and the
// reference service (server/) takes. docs/api.md ("Contributing: the write API") says the same to
// people. No vscode, no Node module.
import { PAGE_SIZE } from './model';

/** A new code as a person submits it; the service sets everything else (id, dates, permalink, counts). */
export interface NewCode {
  readonly title: string;
  /** A language name the service knows (languages.ts), e.g. `Ruby`. */
  readonly language: string;
  readonly comment: string;
  readonly code: string;
  /** Sent in `tag-list`; absent or empty: no tags. As the service keeps them: distinct, in the order given. */
  readonly tags?: readonly string[];
}

/** A new refactoring of a code; it takes its code's language. */
export interface NewRefactor {
  /** Optional: an untitled refactoring is shown by its author and date. */
  readonly title?: string;
  readonly comment: string;
  readonly code: string;
}

/** The elements of a body, named as Rails names them; also what a 422's `<error field="…">` names. */
export const FIELD = { title: 'title', language: 'language', comment: 'comment', code: 'code', tags: 'tag-list', value: 'value' } as const;
export type WriteField = (typeof FIELD)[keyof typeof FIELD];

/** `Tag list` for `tag-list`: a field as the service's reasons name it. */
export function fieldLabel(field: WriteField): string {
  const words = field.replace(/-/g, ' ');
  return words[0].toUpperCase() + words.slice(1);
}

/** One reason a write was refused, and the field it is about where it is one field's (the `field` attribute). */
export interface ServiceReason {
  readonly text: string;
  readonly field?: string;
}
export const FIELD_ATTRIBUTE = 'field';

/** Tags are sent joined by a space; the service also splits at commas. */
export const TAG_SEPARATOR = ' ';
const TAG_SEPARATORS = /[\s,]+/;

export function splitTags(text: string): string[] {
  return text.split(TAG_SEPARATORS).filter((t) => t !== '');
}

/** A tag holding a separator would arrive as two. */
export function holdsTagSeparator(tag: string): boolean {
  return TAG_SEPARATORS.test(tag);
}

export const MAX_TITLE_CHARS = 200;
export const MAX_TAGS = 20;
export const MAX_TAG_CHARS = 50;

// A list page carries 25 items whole, and a client reads an answer of at most 10 MiB (http.ts): a
// code's or refactoring's text is bounded so that a page of the longest ones still fits, every
// character escaped at its worst (`&` is `&amp;`, 5 bytes; no character takes more in UTF-8).
// writeContract.test.ts renders such a page and reads it with the client.
export const MAX_CODE_CHARS = 60_000;
export const MAX_COMMENT_CHARS = 20_000;
/** Bytes a character takes at most once escaped (`&amp;`, `&#13;`; 4 in UTF-8 otherwise). */
export const WORST_ESCAPED_BYTES = 5;

/**
 * `text` escaped as element content, by both sides. `>` is escaped too, so `]]>` never appears; CR
 * is sent as a reference, since a parser reads a literal one (and CRLF) as LF.
 */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}
/**
 * The largest answer a client reads (http.ts's default): the service's text bounds are made to fit it.
 * Here rather than in http.ts, so that the service need not bundle the client's transport.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
/** The answer a client reads, and the items on a page: what the bounds above are made to fit. */
export const READ_BOUNDS = { answerBytes: DEFAULT_MAX_RESPONSE_BYTES, pageItems: PAGE_SIZE } as const;

/** The largest body the service reads; a larger one is 413 before it is read whole. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** RFC 6750's token68: what an Authorization header carries without quoting. */
export const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
const BEARER = new RegExp(`^Bearer[ \\t]+(${TOKEN68.source.slice(1, -1)})[ \\t]*$`, 'i');

export function bearerHeader(token: string): string {
  return `Bearer ${token}`;
}

/** The token of an Authorization header, when it is a bearer token of the token68 form. */
export function bearerToken(authorization: string): string | undefined {
  return BEARER.exec(authorization)?.[1];
}

/** Why a 401 refused a token that was sent. */
export const TOKEN_REFUSED = 'the token was refused: it is unknown, revoked or replaced';

// XML 1.0's Char production: anything else cannot be carried, not even as a character reference.
const XML_CHARS: readonly (readonly [number, number])[] = [[0x9, 0xa], [0xd, 0xd], [0x20, 0xd7ff], [0xe000, 0xfffd], [0x10000, 0x10ffff]];

export function isXmlChar(cp: number): boolean {
  return XML_CHARS.some(([from, to]) => cp >= from && cp <= to);
}

const hex = (cp: number): string => `\\u{${cp.toString(16)}}`;
const NOT_XML_CHAR = new RegExp(`[^${XML_CHARS.map(([from, to]) => `${hex(from)}-${hex(to)}`).join('')}]`, 'u');

/** The code point of the first character XML cannot carry (a lone surrogate included); undefined when none. */
export function firstNonXmlChar(text: string): number | undefined {
  return NOT_XML_CHAR.exec(text)?.[0].codePointAt(0);
}

/** `U+0001`. */
export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}
