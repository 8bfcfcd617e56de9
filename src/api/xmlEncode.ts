// The bodies the client sends to a writable service: small XML documents built by hand, every
// text escaped so that the service's parser gives back exactly what was typed. A character XML 1.0
// cannot carry at all (most C0 controls, U+FFFE, U+FFFF, a lone surrogate) is refused here, naming
// the field: escaped or not, a conforming parser would refuse the whole body.
import { ApiError } from './errors';

export interface NewCode {
  title: string;
  /** A language name the service knows (languages.ts), e.g. `Ruby`. */
  language: string;
  comment: string;
  code: string;
  /** Sent space-separated in `tag-list`; absent or empty: no tags. */
  tags?: readonly string[];
}

export interface NewRefactor {
  comment: string;
  code: string;
  /** Optional: the service shows an untitled refactoring by its author and date. */
  title?: string;
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Anything outside XML 1.0's Char production. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/**
 * `text` escaped as element content. `>` is escaped too, so `]]>` never appears; CR is sent as a
 * reference, since a parser reads a literal one (and CRLF) as LF.
 */
export function escapeXmlText(text: string, field: string): string {
  const bad = NOT_XML_CHAR.exec(text);
  if (bad) {
    const at = codePointName(bad[0]);
    throw new ApiError('invalid-input', '', `${field} holds ${at}, which XML cannot carry: remove it and send again`);
  }
  return text.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

/** `<code>` for `POST /codes.xml`. */
export function codeBody(code: NewCode): string {
  const tags = (code.tags ?? []).map((t) => t.trim()).filter((t) => t !== '');
  for (const tag of tags) {
    // Tags are sent separated by spaces; one with a space or comma inside would arrive as two.
    if (/[\s,]/.test(tag)) throw new ApiError('invalid-input', '', `the tag "${tag}" holds a space or a comma, which separate tags`);
  }
  return document('code', [
    ['title', code.title],
    ['language', code.language],
    ['comment', code.comment],
    ['code', code.code],
    ['tag-list', tags.join(' ')],
  ]);
}

/** `<refactor>` for `POST /codes/{id}/refactors.xml`; no `<title>` when none is given. */
export function refactorBody(refactor: NewRefactor): string {
  const fields: [string, string][] = [];
  if (refactor.title !== undefined) fields.push(['title', refactor.title]);
  fields.push(['comment', refactor.comment], ['code', refactor.code]);
  return document('refactor', fields);
}

/** `<rating>` for `POST …/rate.xml`: a whole number from 1 to 5. */
export function ratingBody(value: number): string {
  if (!Number.isInteger(value) || value < 1 || value > 5) {
    throw new ApiError('invalid-input', '', `a rating is a whole number from 1 to 5, got ${value}`);
  }
  return document('rating', [['value', String(value)]]);
}

function document(root: string, fields: readonly (readonly [string, string])[]): string {
  const lines = fields.map(([name, text]) => `  <${name}>${escapeXmlText(text, name)}</${name}>\n`);
  return `${DECLARATION}<${root}>\n${lines.join('')}</${root}>\n`;
}

/** `U+0007`, `a lone surrogate U+D800`: how a refused character is named. */
function codePointName(c: string): string {
  const cp = c.codePointAt(0) as number;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return cp >= 0xd800 && cp <= 0xdfff ? `a lone surrogate ${hex}` : `the character ${hex}`;
}
