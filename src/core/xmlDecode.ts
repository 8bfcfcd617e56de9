// The service's XML bodies turned into typed Code and Refactor objects (read-only-xml-api.md), on
// fast-xml-parser. Body checks come first (not XML at all, a DOCTYPE, more markup than the API's
// shapes ever hold, malformed, wrong root), then one parse, then a walk that reads each element by
// its `type` attribute and never guesses from the text (xmlFields.ts).
import { EntityDecoderOptions, X2jOptions, XMLParser, XMLValidator } from 'fast-xml-parser';
import { DecodeError } from './errors';
import { isId } from './ids';
import type { Code, Refactor, User } from './model';
import { datetimeValue, decodeReferences, isBlank, mismatch, numberValue, requiredIntValue, type Where } from './xmlFields';
import { malformedXmlError } from './xmlErrors';
import { FIELD_ATTRIBUTE, type ServiceReason } from './writeContract';

/** A parsed element: text, or an object of attributes (`@_name`), `#text` and child elements. */
type XmlValue = string | XmlElement | XmlValue[];
interface XmlElement {
  readonly [name: string]: XmlValue | undefined;
}

const TEXT = '#text';
const TYPE = '@_type';

// fast-xml-parser decodes numeric references only together with all HTML named entities, and
// `&nbsp;` or `&copy;` are not XML: this decoder uses xmlFields.ts's decodeReferences, which knows
// the five XML entities and numeric references and leaves anything else exactly as sent. DOCTYPE
// entities never reach it (a DOCTYPE is refused first), so the input-entity hooks do nothing.
const entityDecoder: EntityDecoderOptions = {
  setExternalEntities: () => undefined,
  addInputEntities: () => undefined,
  reset: () => undefined,
  setXmlVersion: () => undefined,
  decode: decodeReferences,
};

// These names throw inside the parser; renaming them makes them unknown elements, which are ignored.
const RESERVED_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
const LIST_ITEM_PATHS = new Set(['codes.code', 'refactors.refactor', 'code.refactors.refactor']);

/**
 * The parser options, exported so a benchmark can parse the same bytes raw with the same cost.
 * CRLF (and a lone CR) in the raw XML becomes LF, as XML requires; a `&#13;` reference survives as \r.
 */
export const parserOptions: X2jOptions = {
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: TEXT,
  trimValues: false,          // keeps indentation, blank lines and the final newline of code
  parseTagValue: false,       // "007" stays a string; numbers come only from type="integer"/"float"
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
  entityDecoder,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // A one-item list must still be an array; other type="array" shapes are handled in the walk.
  isArray: (_name, jPath) => typeof jPath === 'string' && LIST_ITEM_PATHS.has(jPath),
  transformTagName: (name) => (RESERVED_NAMES.has(name) ? `#${name}` : name),
};

const parser = new XMLParser(parserOptions);

/**
 * Called between the stages of decoding (scan, validation, parse, every few items of the walk): it
 * throws to stop a decoding that has outlived its request's deadline. Decoding is synchronous, so
 * this is the only place a deadline can end it.
 */
export type Checkpoint = () => void;
const NO_CHECKPOINT: Checkpoint = () => undefined;
/** Items of a list walked between two checkpoints. */
const ITEMS_PER_CHECKPOINT = 100;

/** A list of codes: root `<codes type="array">`. */
export function decodeCodes(xml: string, checkpoint: Checkpoint = NO_CHECKPOINT): Code[] {
  const root = parseRoot(xml, 'codes', checkpoint);
  return mapWithCheckpoints(children(root, 'code'), checkpoint, (v, index) => codeFrom(asElement(v), { path: 'codes/code', item: 'code', index }));
}

/** A list of refactorings: root `<refactors type="array">`. */
export function decodeRefactors(xml: string, checkpoint: Checkpoint = NO_CHECKPOINT): Refactor[] {
  return refactorsFrom(parseRoot(xml, 'refactors', checkpoint), 'refactors/refactor', undefined, checkpoint);
}

/** One code with its refactorings: root `<code>`; `refactors` is [] when the XML has none. */
export function decodeCode(xml: string, checkpoint: Checkpoint = NO_CHECKPOINT): Code {
  const root = asElement(parseRoot(xml, 'code', checkpoint));
  const where: Where = { path: 'code', item: 'code', index: -1 };
  const code = codeFrom(root, where);
  code.refactors = refactorsFrom(first(root.refactors), 'code/refactors/refactor', where, checkpoint);
  return code;
}

/** One refactoring: root `<refactor>`, as a write answers it. */
export function decodeRefactor(xml: string, checkpoint: Checkpoint = NO_CHECKPOINT): Refactor {
  return refactorFrom(asElement(parseRoot(xml, 'refactor', checkpoint)), { path: 'refactor', item: 'refactor', index: -1 });
}

/** One person: root `<user>`, the element lists nest, as the account answers it. */
export function decodeUser(xml: string, checkpoint: Checkpoint = NO_CHECKPOINT): User {
  const w: Where = { path: 'user', item: 'user', index: -1 };
  const v = asElement(parseRoot(xml, 'user', checkpoint));
  return userFields(v, w);
}

/** What a service says was wrong with a request: the text of each `<error>` under `<errors>`. */
export function decodeErrors(xml: string): ServiceReason[] {
  const root = parseRoot(xml, 'errors', NO_CHECKPOINT);
  return children(root, 'error').map((v, index) => {
    const text = textOf(v, 'error', { path: 'errors/error', item: 'error', index });
    const field = typeof v === 'object' ? (v as XmlElement)[`@_${FIELD_ATTRIBUTE}`] : undefined;
    return typeof field === 'string' ? { text, field } : { text };
  });
}

function refactorsFrom(container: XmlValue | undefined, path: string, parent: Where | undefined, checkpoint: Checkpoint): Refactor[] {
  return mapWithCheckpoints(children(container, 'refactor'), checkpoint, (v, index) => refactorFrom(asElement(v), { path, item: 'refactor', index, parent }));
}

/** `items` mapped by `read`, with a checkpoint after every ITEMS_PER_CHECKPOINT of them. */
function mapWithCheckpoints<T>(items: XmlValue[], checkpoint: Checkpoint, read: (v: XmlValue, index: number) => T): T[] {
  return items.map((v, index) => {
    if (index % ITEMS_PER_CHECKPOINT === ITEMS_PER_CHECKPOINT - 1) checkpoint();
    return read(v, index);
  });
}

// Object literals list the fields in the contract's JSON order (CONTRACT.md), which --json prints.
function codeFrom(el: XmlElement, w: Where): Code {
  const code: Code = {
    id: requiredId(el, 'id', w),
    title: str(el, 'title', w),
    language: str(el, 'language', w),
    permalink: str(el, 'permalink', w),
    code: str(el, 'code', w),
    comment: str(el, 'comment', w),
    createdAt: datetime(el, 'created-at', w),
    updatedAt: datetime(el, 'updated-at', w),
    refactorsCount: num(el, 'refactors-count', w),
    trackbackUrl: str(el, 'trackback-url', w),
    userId: optionalId(el, 'user-id', w),
  };
  const tags = tagsFrom(el, w);
  if (tags) code.tags = tags;
  const user = userFrom(el, w);
  if (user) code.user = user;
  return code;
}

function refactorFrom(el: XmlElement, w: Where): Refactor {
  const refactor: Refactor = {
    id: requiredId(el, 'id', w),
    codeId: requiredId(el, 'code-id', w),
    title: str(el, 'title', w),
    language: str(el, 'language', w),
    code: str(el, 'code', w),
    comment: str(el, 'comment', w),
    createdAt: datetime(el, 'created-at', w),
    rating: num(el, 'rating', w),
    ratingsCount: num(el, 'ratings-count', w),
    userId: optionalId(el, 'user-id', w),
    userName: str(el, 'user-name', w),
    userWebsite: str(el, 'user-website', w),
  };
  const user = userFrom(el, w);
  if (user) refactor.user = user;
  return refactor;
}

/** The texts of `<tags type="array"><tag>…</tag></tags>`, or undefined when the element is absent. */
function tagsFrom(parent: XmlElement, pw: Where): string[] | undefined {
  const v = first(parent.tags);
  if (v === undefined) return undefined;
  const w: Where = { path: `${pw.path}/tags`, item: 'tags', index: -1, parent: pw };
  return children(v, 'tag').map((t) => textOf(t, 'tag', w)).filter((t) => t.trim() !== '');
}

/** The nested user, or undefined when the element is absent or has no fields (`<user/>`). */
function userFrom(parent: XmlElement, pw: Where): User | undefined {
  const v = first(parent.user);
  if (v === undefined || typeof v === 'string' || Array.isArray(v) || !hasChildElements(v)) return undefined;
  return userFields(v, { path: `${pw.path}/user`, item: 'user', index: -1, parent: pw });
}

function userFields(v: XmlElement, w: Where): User {
  return {
    id: requiredId(v, 'id', w),
    name: str(v, 'name', w),
    identityUrl: str(v, 'identity-url', w),
    rating: num(v, 'rating', w),
    refactorsCount: num(v, 'refactors-count', w),
    website: str(v, 'website', w),
  };
}

// ---- Fields by element name ---------------------------------------------------------------------

/** "" when absent or empty, whatever the type attribute says. */
function str(el: XmlElement, name: string, w: Where): string {
  const v = first(el[name]);
  return v === undefined ? '' : textOf(v, name, w);
}

/** Integer or float by the type attribute; null when absent or empty. */
function num(el: XmlElement, name: string, w: Where): number | null {
  const v = first(el[name]);
  return v === undefined ? null : numberValue(textOf(v, name, w), typeOf(v), name, w);
}

/** An id (ids.ts): a type mismatch otherwise, as for any field that is not what its type says. */
function requiredId(el: XmlElement, name: string, w: Where): number {
  const v = first(el[name]);
  const n = requiredIntValue(v === undefined ? undefined : textOf(v, name, w), v === undefined ? undefined : typeOf(v), name, w);
  if (!isId(n)) throw mismatch(w, name, v === undefined ? undefined : typeOf(v), `is ${String(n)}, not an id (a whole number from 1)`);
  return n;
}

/** An id, or null when absent or empty. */
function optionalId(el: XmlElement, name: string, w: Where): number | null {
  const n = num(el, name, w);
  if (n !== null && !isId(n)) throw mismatch(w, name, typeOf(first(el[name]) as XmlValue), `is ${String(n)}, not an id (a whole number from 1)`);
  return n;
}

/** null when absent or empty. */
function datetime(el: XmlElement, name: string, w: Where): Date | null {
  const v = first(el[name]);
  return v === undefined ? null : datetimeValue(textOf(v, name, w), typeOf(v), name, w);
}

// ---- Body checks and the root -------------------------------------------------------------------

const XML_START = /^<(?:\?xml|!--|!DOCTYPE|[A-Za-z_:\u00C0-\uFFFF])/i;
const HTML_START = /^<(?:!DOCTYPE\s+html|html[\s>/])/i;
const HTML_PAGE = 'expected XML, got an HTML page';

function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** Checks the body, parses it once, and returns the content of the expected root element. */
function parseRoot(xml: string, expected: string, checkpoint: Checkpoint): XmlValue {
  const body = markupStart(xml);
  scanMarkup(body);
  checkpoint();
  const valid = XMLValidator.validate(body);
  checkpoint();
  if (valid !== true) throw malformedXmlError(body, valid.err);
  let end = body.length;
  while (end > 0 && isXmlSpace(body.charCodeAt(end - 1))) end--;
  if (body.charCodeAt(end - 1) !== 0x3e /* > */) {
    throw new DecodeError('invalid-xml', 'malformed XML: text after the root element');
  }
  let doc: XmlElement;
  try {
    doc = parser.parse(body) as XmlElement;
  } catch (e) {
    throw new DecodeError('invalid-xml', `malformed XML: ${e instanceof Error ? e.message : String(e)}`);
  }
  checkpoint();
  return rootContent(doc, expected);
}

/** The body from its first `<`, after a BOM and whitespace; throws not-xml for anything else. */
function markupStart(xml: string): string {
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < xml.length && isXmlSpace(xml.charCodeAt(i))) i++;
  if (i === xml.length) throw new DecodeError('not-xml', 'expected XML, got an empty body');
  const head = xml.slice(i, i + 100);
  if (HTML_START.test(head)) throw new DecodeError('not-xml', HTML_PAGE);
  if (!XML_START.test(head)) {
    const what = head[0] === '{' || head[0] === '[' ? 'JSON' : 'plain text';
    const excerpt = head.slice(0, 40).replace(/\s+/g, ' ');
    throw new DecodeError('not-xml', `expected XML, got ${what}: ${JSON.stringify(excerpt)}`);
  }
  return i === 0 ? xml : xml.slice(i);
}

// Parsing costs grow with the number of elements and attributes, not with bytes: within the size
// cap, 2.4 million `<z/>` or 800,000 attributes would hold the parser (and the extension host) for
// seconds. The API's shapes hold few: a refactoring with its user has 33 elements and 15
// attributes, a page 25 items; even a list of 2,000 refactorings has 66,000 elements. One linear
// scan before parsing refuses anything beyond these bounds.
export const MAX_ELEMENTS = 100_000;
export const MAX_ATTRIBUTES = 100_000;

/** What a scan of a body found, and how many characters it looked at to find it. */
export interface MarkupScan {
  elements: number;
  attributes: number;
  /** Characters examined: at most the body's length, whatever the body. */
  steps: number;
}

const DOCTYPE_AT = /<!DOCTYPE/iy;
const DOCTYPE_NAME = /<!DOCTYPE\s*([^\s>[]*)/iy;
const DOCTYPE_ANYWHERE = /<!DOCTYPE\s*([^\s>[]*)/i;

/**
 * One pass over the body, each character looked at once: counts start tags and attributes outside
 * comments, CDATA and declarations into `scan`, and throws past either bound or at a DOCTYPE. Refusing any
 * DOCTYPE means no entity declared by the body is ever expanded (no entity bombs, no shadowing of
 * `&lt;`); `<!DOCTYPE` written inside CDATA or a comment is code text, not a declaration.
 */
export function scanMarkup(body: string, scan: MarkupScan = { elements: 0, attributes: 0, steps: 0 }): MarkupScan {
  const find = (needle: string, from: number): number => {
    const at = body.indexOf(needle, from);
    scan.steps += (at === -1 ? body.length : at) - from;
    return at;
  };
  let i = find('<', 0);
  while (i !== -1) {
    const next = body.charCodeAt(i + 1);
    let end: number;
    if (next === 0x21 /* ! */) {
      if (body.startsWith('<!--', i)) end = find('-->', i + 4);
      else if (body.startsWith('<![CDATA[', i)) end = find(']]>', i + 9);
      else {
        DOCTYPE_AT.lastIndex = i;
        if (DOCTYPE_AT.test(body)) {
          DOCTYPE_NAME.lastIndex = i;
          refuseDoctype((DOCTYPE_NAME.exec(body) as RegExpExecArray)[1]);
        }
        end = find('>', i);
      }
    } else if (next === 0x3f /* ? */) {
      end = find('?>', i + 2);
    } else if (next === 0x2f /* / */) {
      end = i + 1;
    } else {
      scan.elements++;
      // To the tag's end: each `=` outside a quoted value is an attribute; a quoted `>` does not end it.
      for (end = i + 1; end < body.length; end++) {
        scan.steps++;
        const c = body.charCodeAt(end);
        if (c === 0x3e /* > */) break;
        if (c === 0x3d /* = */) scan.attributes++;
        else if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
          end = find(c === 0x22 ? '"' : "'", end + 1);
          if (end === -1) break;
        }
      }
      if (scan.elements > MAX_ELEMENTS || scan.attributes > MAX_ATTRIBUTES) {
        const [count, what] = scan.elements > MAX_ELEMENTS ? [MAX_ELEMENTS, 'elements'] : [MAX_ATTRIBUTES, 'attributes'];
        throw new DecodeError('too-large', `more than ${count.toLocaleString('en-US')} ${what}: far more than any list or code of the API holds, so it is not parsed`);
      }
    }
    if (end === -1) {
      // Unterminated: the validator says what is wrong, unless a DOCTYPE follows, which is refused as
      // one wherever it is (one more look at the rest of the body).
      const rest = DOCTYPE_ANYWHERE.exec(body.slice(i));
      scan.steps += body.length - i;
      if (rest) refuseDoctype(rest[1]);
      return scan;
    }
    i = find('<', end + 1);
  }
  return scan;
}

function refuseDoctype(name: string): never {
  if (name.toLowerCase() === 'html') throw new DecodeError('not-xml', HTML_PAGE);
  throw new DecodeError('invalid-xml', 'a <!DOCTYPE> is not accepted (refused so that no declared entity is expanded)');
}

const EMPTY_LIST_ROOT = 'nil-classes';

function rootContent(doc: XmlElement, expected: string): XmlValue {
  let name: string | undefined;
  for (const key in doc) {
    if (key === TEXT) {
      if (!isBlank(doc[key] as string)) throw new DecodeError('invalid-xml', 'malformed XML: text outside the root element');
      continue;
    }
    if (name !== undefined) throw new DecodeError('invalid-xml', `malformed XML: two root elements <${name}> and <${key}>`);
    name = key;
  }
  if (name === undefined) throw new DecodeError('invalid-xml', 'malformed XML: no root element');
  const content = doc[name] as XmlValue;
  if (Array.isArray(content)) throw new DecodeError('invalid-xml', `malformed XML: two root elements <${name}>`);
  if (name.toLowerCase() === 'html') throw new DecodeError('not-xml', HTML_PAGE);
  if (name === expected) return content;
  // Rails renders an empty array as <nil-classes type="array"/>: an empty list, whatever was asked.
  if (name === EMPTY_LIST_ROOT && expected !== 'code' && !(typeof content === 'object' && hasChildElements(content))) {
    return '';
  }
  throw new DecodeError('wrong-root', `expected <${expected}>, got <${name}>`, name);
}

// ---- The typed walk -----------------------------------------------------------------------------

const EMPTY: XmlElement = Object.freeze({});

/** Repeated elements of one name: the first counts. */
function first(v: XmlValue | undefined): XmlValue | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function asElement(v: XmlValue | undefined): XmlElement {
  return v !== undefined && typeof v === 'object' && !Array.isArray(v) ? v : EMPTY;
}

function hasChildElements(el: XmlElement): boolean {
  for (const key in el) if (key !== TEXT && key.charCodeAt(0) !== 0x40 /* @ */) return true;
  return false;
}

/** The items of a type="array" container: none (empty or absent), one, or many. */
function children(container: XmlValue | undefined, itemName: string): XmlValue[] {
  const c = first(container);
  if (c === undefined || typeof c !== 'object') return [];
  const items = (c as XmlElement)[itemName];
  if (items === undefined) return [];
  return Array.isArray(items) ? items : [items];
}

function typeOf(v: XmlValue): string | undefined {
  return typeof v === 'object' ? ((v as XmlElement)[TYPE] as string | undefined) : undefined;
}

function textOf(v: XmlValue, name: string, w: Where): string {
  if (typeof v === 'string') return v;
  const el = v as XmlElement;
  if (hasChildElements(el)) throw mismatch(w, name, typeOf(v), 'has child elements where text was expected');
  const text = el[TEXT];
  return typeof text === 'string' ? text : '';
}
