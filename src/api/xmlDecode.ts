// The service's XML bodies turned into typed Code and Refactor objects (read-only-xml-api.md).
// The plain bodies the service sends are read in one pass (xmlPlainDecode.ts); any other body is
// read the full way: body checks first (not XML at all, DOCTYPE, malformed, wrong root), then one
// parse, then a walk that reads each element by its `type` attribute and never guesses from the
// text. Both ways share the fields' rules (xmlFields.ts).
import { EntityDecoderOptions, X2jOptions, XMLParser, XMLValidator } from 'fast-xml-parser';
import { DecodeError } from './errors';
import type { Code, Refactor, User } from './model';
import {
  codeFrom, datetimeValue, decodeReferences, isBlank, mismatch, numberValue, refactorFrom, requiredIntValue, userFrom,
  type ItemFields, type Where,
} from './xmlFields';
import { plainCode, plainCodes, plainRefactors } from './xmlPlainDecode';
import { isPlainWellFormed } from './xmlWellFormed';
import { malformedXmlError } from './xmlErrors';

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

/** A list of codes: root `<codes type="array">`. */
export function decodeCodes(xml: string): Code[] {
  const body = markupStart(xml);
  return plainCodes(body) ?? fullCodes(body);
}

/** A list of refactorings: root `<refactors type="array">`. */
export function decodeRefactors(xml: string): Refactor[] {
  const body = markupStart(xml);
  return plainRefactors(body) ?? fullRefactors(body);
}

/** One code with its refactorings: root `<code>`; `refactors` is [] when the XML has none. */
export function decodeCode(xml: string): Code {
  const body = markupStart(xml);
  return plainCode(body) ?? fullCode(body);
}

/** The three decoders without the one-pass way, for tests that hold that way to these. */
export const fullDecoders = {
  decodeCodes: (xml: string): Code[] => fullCodes(markupStart(xml)),
  decodeRefactors: (xml: string): Refactor[] => fullRefactors(markupStart(xml)),
  decodeCode: (xml: string): Code => fullCode(markupStart(xml)),
};

function fullCodes(body: string): Code[] {
  const root = parseRoot(body, 'codes');
  return children(root, 'code').map((v, index) => codeFrom(new TreeFields(asElement(v), { path: 'codes/code', item: 'code', index })));
}

function fullRefactors(body: string): Refactor[] {
  return decodeRefactorList(parseRoot(body, 'refactors'), 'refactors/refactor', undefined);
}

function fullCode(body: string): Code {
  const root = asElement(parseRoot(body, 'code'));
  const where: Where = { path: 'code', item: 'code', index: -1 };
  const code = codeFrom(new TreeFields(root, where));
  code.refactors = decodeRefactorList(first(root.refactors), 'code/refactors/refactor', where);
  return code;
}

function decodeRefactorList(container: XmlValue | undefined, path: string, parent: Where | undefined): Refactor[] {
  return children(container, 'refactor')
    .map((v, index) => refactorFrom(new TreeFields(asElement(v), { path, item: 'refactor', index, parent })));
}

/** An item's fields read from its element in the parsed tree. */
class TreeFields implements ItemFields {
  constructor(private readonly el: XmlElement, private readonly w: Where) {}

  str(name: string): string {
    const v = first(this.el[name]);
    return v === undefined ? '' : textOf(v, name, this.w);
  }

  num(name: string): number | null {
    const v = first(this.el[name]);
    return v === undefined ? null : numberValue(textOf(v, name, this.w), typeOf(v), name, this.w);
  }

  requiredInt(name: string): number {
    const v = first(this.el[name]);
    return v === undefined
      ? requiredIntValue(undefined, undefined, name, this.w)
      : requiredIntValue(textOf(v, name, this.w), typeOf(v), name, this.w);
  }

  datetime(name: string): Date | null {
    const v = first(this.el[name]);
    return v === undefined ? null : datetimeValue(textOf(v, name, this.w), typeOf(v), name, this.w);
  }

  /** Undefined when the element is absent or has no fields (`<user/>`). */
  user(): User | undefined {
    const v = first(this.el.user);
    if (v === undefined || typeof v === 'string' || !hasChildElements(v as XmlElement)) return undefined;
    const pw = this.w;
    return userFrom(new TreeFields(v as XmlElement, { path: `${pw.path}/user`, item: 'user', index: -1, parent: pw }));
  }
}

// ---- Body checks and the root -------------------------------------------------------------------

const XML_START = /^<(?:\?xml|!--|!DOCTYPE|[A-Za-z_:\u00C0-\uFFFF])/i;
const HTML_START = /^<(?:!DOCTYPE\s+html|html[\s>/])/i;
const DOCTYPE = /<!DOCTYPE/i;
const CDATA_OR_COMMENT = /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->/g;
const DOCTYPE_NAME = /<!DOCTYPE\s*([^\s>[]*)/i;
const HTML_PAGE = 'expected XML, got an HTML page';

function isXmlSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

/** Checks the body (from markupStart), parses it once, and returns the content of the expected root element. */
function parseRoot(body: string, expected: string): XmlValue {
  refuseDoctype(body);
  // The full validator only for bodies outside the plain subset; it also words the error.
  const valid = isPlainWellFormed(body) || XMLValidator.validate(body);
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

// Refusing any DOCTYPE means no entity declared by the body is ever expanded (no entity bombs, no
// shadowing of &lt;). `<!DOCTYPE` written inside CDATA or a comment is code text, not a declaration.
function refuseDoctype(body: string): void {
  if (!DOCTYPE.test(body)) return;
  const m = DOCTYPE_NAME.exec(body.replace(CDATA_OR_COMMENT, ''));
  if (!m) return;
  if (m[1].toLowerCase() === 'html') throw new DecodeError('not-xml', HTML_PAGE);
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
  if (name === EMPTY_LIST_ROOT && expected !== 'code' && !(typeof content === 'object' && hasChildElements(content as XmlElement))) {
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
