// How an element's text and `type` attribute become a value (read-only-xml-api.md, Typed elements):
// references decoded, integers, floats and datetimes read strictly by the type attribute, never by
// the look of the text, and a field's error worded with the element and the item it sits in.
import { DecodeError } from './errors';
import { isXmlChar } from './writeContract';

/** Where a value sits: its element path and the item it belongs to, for error messages. */
export interface Where {
  readonly path: string;   // e.g. `codes/code`
  readonly item: string;   // e.g. `code`
  readonly index: number;  // 0-based position in its list, -1 for a single element
  readonly parent?: Where;
}

// ---- Text ---------------------------------------------------------------------------------------

const REFERENCE = /&(?:#([0-9]{1,7})|#x([0-9a-fA-F]{1,6})|(lt|gt|amp|quot|apos));/g;
const XML_ENTITIES: ReadonlyMap<string, string> = new Map([['lt', '<'], ['gt', '>'], ['amp', '&'], ['quot', '"'], ['apos', "'"]]);

/**
 * An element's text with the five XML entities and numeric references decoded. Anything else
 * (`&nbsp;`, `&copy;`: not XML) stays exactly as sent, since decoding it would silently change code.
 * A reference to a character XML forbids (NUL, a lone surrogate) becomes what `forbidden` makes of it:
 * by default it stays visible rather than vanishing.
 */
export function decodeReferences(text: string, forbidden: (ref: string, cp: number) => string = (ref) => ref): string {
  return text.replace(REFERENCE, (ref: string, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return XML_ENTITIES.get(name) as string;
    const cp = dec !== undefined ? Number(dec) : parseInt(hex as string, 16);
    return isXmlChar(cp) ? String.fromCodePoint(cp) : forbidden(ref, cp);
  });
}

// ---- Text and type to value ---------------------------------------------------------------------

const BLANK = /^[ \t\r\n]*$/;
const INTEGER = /^[ \t\r\n]*[-+]?\d+[ \t\r\n]*$/;
const FLOAT = /^[ \t\r\n]*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[ \t\r\n]*$/;
const DATETIME = /^[ \t\r\n]*(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([-+])(\d{2}):(\d{2}))[ \t\r\n]*$/;

export function isBlank(text: string): boolean {
  return BLANK.test(text);
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

/** The instant, or undefined for a day, time or offset that does not exist. */
function toDate(m: RegExpExecArray): Date | undefined {
  const [, y, mo, d, h, mi, s, frac, zulu, sign, oh, om] = m.map((part) => part);
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  if (!zulu && (Number(oh) > 23 || Number(om) > 59)) return undefined;
  const offsetMinutes = Number(oh) * 60 + Number(om);
  const offset = zulu ? 0 : sign === '-' ? -offsetMinutes : offsetMinutes;
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms));
  date.setUTCFullYear(year); // Date.UTC would map years 0-99 to 1900-1999
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
