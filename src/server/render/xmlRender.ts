// The service's XML, in the shape docs/api.md describes: Rails-style `to_xml` output with `type` attributes, fields in
// the order of its tables (attributes alphabetically, nested user/refactors last), text escaped
// so that a conforming parser gives back the catalog's text exactly.

import type { DatasetCode, DatasetRefactor, DatasetUser, Timestamp } from '../catalog/dataset';
import type { ListedCode } from '../store';
import { escapeXmlText, FIELD_ATTRIBUTE, type ServiceReason } from '../../core/writeContract';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

type Scalar = { kind: 'string'; value: string } | { kind: 'integer'; value: number | null } | { kind: 'float'; value: number } | { kind: 'datetime'; value: Timestamp };

/** Writes lines with Rails' two-space indentation; the text inside a leaf element is never indented. */
class XmlWriter {
  private readonly lines: string[] = [DECLARATION];

  leaf(depth: number, name: string, v: Scalar): void {
    const pad = '  '.repeat(depth);
    switch (v.kind) {
      case 'string':
        this.lines.push(`${pad}<${name}>${escapeXmlText(v.value)}</${name}>`);
        break;
      case 'integer':
        this.lines.push(`${pad}<${name} type="integer">${v.value === null ? '' : String(v.value)}</${name}>`);
        break;
      case 'float':
        this.lines.push(`${pad}<${name} type="float">${Number.isInteger(v.value) ? v.value.toFixed(1) : String(v.value)}</${name}>`);
        break;
      case 'datetime':
        this.lines.push(`${pad}<${name} type="datetime">${v.value.text}</${name}>`);
        break;
    }
  }

  /** An empty array is one line, so no whitespace-only text sits where items would be. */
  empty(depth: number, name: string): void {
    this.lines.push(`${'  '.repeat(depth)}<${name} type="array"></${name}>`);
  }

  open(depth: number, name: string, array = false): void {
    this.lines.push(`${'  '.repeat(depth)}<${name}${array ? ' type="array"' : ''}>`);
  }

  raw(depth: number, markup: string): void {
    this.lines.push(`${'  '.repeat(depth)}${markup}`);
  }

  close(depth: number, name: string): void {
    this.lines.push(`${'  '.repeat(depth)}</${name}>`);
  }

  toString(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

const str = (value: string): Scalar => ({ kind: 'string', value });
const int = (value: number | null): Scalar => ({ kind: 'integer', value });

function writeUser(w: XmlWriter, depth: number, u: DatasetUser): void {
  w.open(depth, 'user');
  w.leaf(depth + 1, 'id', int(u.id));
  w.leaf(depth + 1, 'identity-url', str(u.identityUrl));
  w.leaf(depth + 1, 'name', str(u.name));
  w.leaf(depth + 1, 'rating', { kind: 'float', value: u.rating });
  w.leaf(depth + 1, 'refactors-count', int(u.refactorsCount));
  w.leaf(depth + 1, 'website', str(u.website));
  w.close(depth, 'user');
}

/**
 * `inList`: the recent list's shape (language as listed, nested user for registered authors); otherwise
 * the shape inside a single-code response, where the service was seen sending the language lower-cased.
 */
function writeRefactor(w: XmlWriter, depth: number, r: DatasetRefactor, inList: boolean): void {
  const d = depth + 1;
  w.open(depth, 'refactor');
  w.leaf(d, 'code', str(r.code));
  w.leaf(d, 'code-id', int(r.codeId));
  w.leaf(d, 'comment', str(r.comment));
  w.leaf(d, 'created-at', { kind: 'datetime', value: r.createdAt });
  w.leaf(d, 'id', int(r.id));
  w.leaf(d, 'language', str(inList ? r.language : r.language.toLowerCase()));
  w.leaf(d, 'rating', int(r.rating));
  w.leaf(d, 'ratings-count', int(r.ratingsCount));
  w.leaf(d, 'title', str(r.title));
  w.leaf(d, 'user-id', int(r.userId));
  w.leaf(d, 'user-name', str(r.userName));
  w.leaf(d, 'user-website', str(r.userWebsite));
  if (inList && r.user) writeUser(w, d, r.user);
  w.close(depth, 'refactor');
}

/** A code as either shape shows it: a list's carries its author, the single code its refactorings instead. */
type WrittenCode = (ListedCode & { single?: false }) | (DatasetCode & { single: true });

function writeCode(w: XmlWriter, depth: number, c: WrittenCode): void {
  const d = depth + 1;
  w.open(depth, 'code');
  w.leaf(d, 'code', str(c.code));
  w.leaf(d, 'comment', str(c.comment));
  w.leaf(d, 'created-at', { kind: 'datetime', value: c.createdAt });
  w.leaf(d, 'id', int(c.id));
  w.leaf(d, 'language', str(c.language));
  w.leaf(d, 'permalink', str(c.permalink));
  w.leaf(d, 'refactors-count', int(c.refactorsCount));
  w.leaf(d, 'title', str(c.title));
  w.leaf(d, 'trackback-url', str(c.trackbackUrl));
  w.leaf(d, 'updated-at', { kind: 'datetime', value: c.updatedAt });
  w.leaf(d, 'user-id', int(c.userId));
  // As the original: a list nests the author, the single code names it by user-id alone (a client
  // asks /users/<id>.xml for the rest).
  if (!c.single) writeUser(w, d, c.user);
  // A code's tags are ours: the original service kept them (its pages list them, `/tags/<tag>` finds
  // them) but its XML did not say them, so a client could not tell a code's tags, nor list any.
  if (c.tags.length === 0) {
    w.empty(d, 'tags');
  } else {
    w.open(d, 'tags', true);
    for (const tag of c.tags) w.leaf(d + 1, 'tag', str(tag));
    w.close(d, 'tags');
  }
  if (c.single && c.refactors.length === 0) {
    w.empty(d, 'refactors');
  } else if (c.single) {
    w.open(d, 'refactors', true);
    for (const r of c.refactors) writeRefactor(w, d + 1, r, false);
    w.close(d, 'refactors');
  }
  w.close(depth, 'code');
}

/** A list element holding one child per item, or one empty element when there are none. */
function renderListXml<T>(name: string, items: readonly T[], write: (w: XmlWriter, item: T) => void): string {
  const w = new XmlWriter();
  if (items.length === 0) {
    w.empty(0, name);
    return w.toString();
  }
  w.open(0, name, true);
  for (const item of items) write(w, item);
  w.close(0, name);
  return w.toString();
}

export function renderCodeListXml(codes: readonly ListedCode[]): string {
  return renderListXml('codes', codes, (w, c) => writeCode(w, 1, c));
}

export function renderRefactorListXml(refactors: readonly DatasetRefactor[]): string {
  return renderListXml('refactors', refactors, (w, r) => writeRefactor(w, 1, r, true));
}

/** One code with its refactorings; its author by user-id only. */
export function renderCodeXml(code: DatasetCode): string {
  const w = new XmlWriter();
  writeCode(w, 0, { ...code, single: true });
  return w.toString();
}

/** One refactoring in the recent list's shape: what the write API answers for one. */
export function renderRefactorXml(refactor: DatasetRefactor): string {
  const w = new XmlWriter();
  writeRefactor(w, 0, refactor, true);
  return w.toString();
}

/** A person as lists nest them: what `/users/<id>.xml` and `/account.xml` answer. */
export function renderUserXml(user: DatasetUser): string {
  const w = new XmlWriter();
  writeUser(w, 0, user);
  return w.toString();
}

/**
 * The body of an error response to an `.xml` path, in the Rails style of `<errors>`: one `<error>` a
 * reason, with the field it is about as an attribute (our extension: docs/api.md).
 */
export function renderErrorXml(reasons: readonly ServiceReason[]): string {
  const w = new XmlWriter();
  w.open(0, 'errors');
  for (const { text, field } of reasons) {
    const named = field === undefined ? '' : ` ${FIELD_ATTRIBUTE}="${escapeXmlText(field).replace(/"/g, '&quot;')}"`;
    w.raw(1, `<error${named}>${escapeXmlText(text)}</error>`);
  }
  w.close(0, 'errors');
  return w.toString();
}
