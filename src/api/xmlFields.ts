// The typed fields of the service's items, shared by both readers of a body (xmlDecode.ts's walk
// over fast-xml-parser's tree, and xmlPlainDecode.ts's one pass over the plain bodies the service
// sends): which fields make a Code, a Refactor and a User, how references in text are decoded, how
// an element's text and `type` attribute become a number, a date or a string, and how a field's
// error is worded.
import { DecodeError } from './errors';
import type { Code, Refactor, User } from './model';

/** Where a value sits: its element path and the item it belongs to, for error messages. */
export interface Where {
  readonly path: string;   // e.g. `codes/code`
  readonly item: string;   // e.g. `code`
  readonly index: number;  // 0-based position in its list, -1 for a single element
  readonly parent?: Where;
}

/** An item's fields by element name, however the body was read. */
export interface ItemFields {
  /** "" when absent or empty, whatever the type attribute says. */
  str(name: string): string;
  /** Integer or float by the type attribute; null when absent or empty. */
  num(name: string): number | null;
  requiredInt(name: string): number;
  /** null when absent or empty. */
  datetime(name: string): Date | null;
  /** The nested `user`, undefined when absent or without fields. */
  user(): User | undefined;
}

// Object literals list the fields in the contract's JSON order (CONTRACT.md), which --json prints.
export function codeFrom(f: ItemFields): Code {
  const code: Code = {
    id: f.requiredInt('id'),
    title: f.str('title'),
    language: f.str('language'),
    permalink: f.str('permalink'),
    code: f.str('code'),
    comment: f.str('comment'),
    createdAt: f.datetime('created-at'),
    updatedAt: f.datetime('updated-at'),
    refactorsCount: f.num('refactors-count'),
    trackbackUrl: f.str('trackback-url'),
    userId: f.num('user-id'),
  };
  const user = f.user();
  if (user) code.user = user;
  return code;
}

export function refactorFrom(f: ItemFields): Refactor {
  const refactor: Refactor = {
    id: f.requiredInt('id'),
    codeId: f.requiredInt('code-id'),
    title: f.str('title'),
    language: f.str('language'),
    code: f.str('code'),
    comment: f.str('comment'),
    createdAt: f.datetime('created-at'),
    rating: f.num('rating'),
    ratingsCount: f.num('ratings-count'),
    userId: f.num('user-id'),
    userName: f.str('user-name'),
    userWebsite: f.str('user-website'),
  };
  const user = f.user();
  if (user) refactor.user = user;
  return refactor;
}

export function userFrom(f: ItemFields): User {
  return {
    id: f.requiredInt('id'),
    name: f.str('name'),
    identityUrl: f.str('identity-url'),
    rating: f.num('rating'),
    refactorsCount: f.num('refactors-count'),
    website: f.str('website'),
  };
}

/** The element names `from` reads (not `user`), found by running it on a reader that only listens. */
export function fieldNames(from: (f: ItemFields) => unknown): string[] {
  const names: string[] = [];
  const listen = <T>(value: T) => (name: string): T => {
    names.push(name);
    return value;
  };
  from({ str: listen(''), num: listen(null), requiredInt: listen(0), datetime: listen(null), user: () => undefined });
  return names;
}

// ---- Text ---------------------------------------------------------------------------------------

const NUMERIC_REF = /&#(?:([0-9]{1,7})|x([0-9a-fA-F]{1,6}));/y;
const NAMED_REFS: ReadonlyArray<readonly [string, string]> = [['lt;', '<'], ['gt;', '>'], ['amp;', '&'], ['quot;', '"'], ['apos;', "'"]];

/**
 * An element's text with the five XML entities and numeric references decoded. Anything else
 * (`&nbsp;`, `&copy;`: not XML) stays exactly as sent, since decoding it would silently change code.
 * The same as replacing /&(?:#([0-9]{1,7})|#x([0-9a-fA-F]{1,6})|(lt|gt|amp|quot|apos));/g, in a
 * third of the time (test/unit/xmlFields.test.ts holds the two equal).
 */
export function decodeReferences(text: string): string {
  let amp = text.indexOf('&');
  if (amp === -1) return text;
  let out = '';
  let from = 0;
  while (amp !== -1) {
    let value: string | undefined;
    let end = amp;
    if (text.charCodeAt(amp + 1) === 0x23 /* # */) {
      NUMERIC_REF.lastIndex = amp;
      const m = NUMERIC_REF.exec(text);
      if (m) {
        value = numericRef(m[0], m[1], m[2]);
        end = NUMERIC_REF.lastIndex;
      }
    } else {
      for (const [name, char] of NAMED_REFS) {
        if (text.startsWith(name, amp + 1)) {
          value = char;
          end = amp + 1 + name.length;
          break;
        }
      }
    }
    if (value === undefined) {
      amp = text.indexOf('&', amp + 1);
    } else {
      out += text.slice(from, amp) + value;
      from = end;
      amp = text.indexOf('&', end);
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

function isXmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff)
    || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

function numericRef(ref: string, dec: string | undefined, hex: string | undefined): string {
  const cp = dec !== undefined ? Number(dec) : parseInt(hex as string, 16);
  // A reference to a character XML forbids (NUL, a lone surrogate) stays visible rather than vanishing.
  return isXmlChar(cp) ? String.fromCodePoint(cp) : ref;
}

// ---- Text and type to value ---------------------------------------------------------------------

const BLANK = /^[ \t\r\n]*$/;
const INTEGER = /^[ \t\r\n]*[-+]?\d+[ \t\r\n]*$/;
const FLOAT = /^[ \t\r\n]*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[ \t\r\n]*$/;
const DATETIME = /^[ \t\r\n]*(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([-+])(\d{2}):(\d{2}))[ \t\r\n]*$/;

export function isBlank(text: string): boolean {
  return text.length === 0 || BLANK.test(text);
}

/** A present number field's value from its text and type attribute. */
export function numberValue(text: string, type: string | undefined, name: string, w: Where): number | null {
  if (type === 'integer') {
    if (INTEGER.test(text)) {
      const n = Number(text);
      if (!Number.isSafeInteger(n)) throw mismatch(w, name, type, `is ${quote(text)}, too large for an integer`);
      return n === 0 ? 0 : n; // no -0
    }
    if (isBlank(text)) return null;
    throw mismatch(w, name, type, `is ${quote(text)}, not an integer`);
  }
  if (type === 'float') {
    if (FLOAT.test(text)) {
      const n = Number(text);
      if (!Number.isFinite(n)) throw mismatch(w, name, type, `is ${quote(text)}, too large for a float`);
      return n === 0 ? 0 : n;
    }
    if (isBlank(text)) return null;
    throw mismatch(w, name, type, `is ${quote(text)}, not a float`);
  }
  if (isBlank(text)) return null;
  throw mismatch(w, name, type, `is ${quote(text)} without type="integer" or type="float", not a number`);
}

/** A required integer field; `text` undefined when the element is absent. */
export function requiredIntValue(text: string | undefined, type: string | undefined, name: string, w: Where): number {
  if (text === undefined) throw mismatch(w, name, undefined, 'is missing');
  const n = numberValue(text, type, name, w);
  if (n !== null && Number.isInteger(n)) return n;
  if (n === null) throw mismatch(w, name, type, 'is empty');
  throw mismatch(w, name, type, `is ${n}, not an integer`);
}

/** A present datetime field's value from its text and type attribute. */
export function datetimeValue(text: string, type: string | undefined, name: string, w: Where): Date | null {
  if (type === 'datetime') {
    // What the service always sends, read without the regular expression; the rest as below.
    const date = canonicalDate(text);
    if (date !== undefined) return date;
  }
  const m = DATETIME.exec(text);
  if (m && type === 'datetime') {
    const date = toDate(m);
    if (date) return date;
    throw mismatch(w, name, type, `is ${quote(text)}, not a valid date and time`);
  }
  if (isBlank(text)) return null;
  if (type !== 'datetime') throw mismatch(w, name, type, `is ${quote(text)} without type="datetime", not a date and time`);
  throw mismatch(w, name, type, `is ${quote(text)}, not a datetime of the form YYYY-MM-DDThh:mm:ss+hh:mm`);
}

function toDate(m: RegExpExecArray): Date | undefined {
  const [, y, mo, d, h, mi, s, frac, zulu, sign, oh, om] = m;
  const offset = zulu ? 0 : (Number(oh) * 60 + Number(om)) * (sign === '-' ? -1 : 1);
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  if (!zulu && (Number(oh) > 23 || Number(om) > 59)) return undefined;
  return dateOf(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), ms, offset);
}

/**
 * `YYYY-MM-DDThh:mm:ssZ` or `YYYY-MM-DDThh:mm:ss±hh:mm` exactly, as DATETIME would read it; undefined
 * for any other text (blanks around it, a fraction, another form) and for an invalid date.
 */
function canonicalDate(text: string): Date | undefined {
  const n = text.length;
  if (n !== 20 && n !== 25) return undefined;
  const at = (i: number): number => text.charCodeAt(i);
  if (at(4) !== 0x2d || at(7) !== 0x2d || at(10) !== 0x54 || at(13) !== 0x3a || at(16) !== 0x3a) return undefined;
  let offset = 0;
  if (n === 20) {
    if (at(19) !== 0x5a) return undefined; // Z
  } else {
    const sign = at(19);
    if ((sign !== 0x2b && sign !== 0x2d) || at(22) !== 0x3a) return undefined;
    const oh = digitsAt(text, 20, 2), om = digitsAt(text, 23, 2);
    if (oh > 23 || om > 59) return undefined; // NaN (not digits) is caught below
    offset = (oh * 60 + om) * (sign === 0x2d ? -1 : 1);
  }
  const year = digitsAt(text, 0, 4), month = digitsAt(text, 5, 2), day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2), minute = digitsAt(text, 14, 2), second = digitsAt(text, 17, 2);
  if (Number.isNaN(year + month + day + hour + minute + second + offset)) return undefined;
  return dateOf(year, month, day, hour, minute, second, 0, offset);
}

/** The decimal number in text[at, at + count), or NaN if any of it is not an ASCII digit. */
function digitsAt(text: string, at: number, count: number): number {
  let v = 0;
  for (let k = at; k < at + count; k++) {
    const d = text.charCodeAt(k) - 0x30;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return v;
}

/** The instant, or undefined for a day or time that does not exist; `offset` in minutes east of UTC. */
function dateOf(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number, offset: number): Date | undefined {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  if (year >= 100) return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset * 60_000);
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms));
  date.setUTCFullYear(year); // Date.UTC maps years 0-99 to 1900-1999
  return new Date(date.getTime() - offset * 60_000);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

// ---- Error messages -----------------------------------------------------------------------------

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function describe(w: Where): string {
  const own = w.index >= 0 ? `${w.item} ${w.index + 1}` : `the ${w.item}`;
  if (w.parent) return `${own} of ${describe(w.parent)}`;
  return w.index >= 0 ? `${own} of the list` : own;
}

/** e.g. `<id type="integer"> in code 3 of the list is "twenty", not an integer`, element `codes/code/id`. */
export function mismatch(w: Where, name: string, type: string | undefined, problem: string): DecodeError {
  const tag = type === undefined ? `<${name}>` : `<${name} type=${JSON.stringify(type)}>`;
  return new DecodeError('type-mismatch', `${tag} in ${describe(w)} ${problem}`, `${w.path}/${name}`);
}
