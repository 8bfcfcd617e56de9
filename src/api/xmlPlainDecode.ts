// One pass over the plain bodies the service sends, straight to Code and Refactor objects. On
// loopback a list arrives in a fraction of the time fast-xml-parser takes to parse it (it collects
// text one character at a time and keeps a path matcher per element), so the bodies the service
// really sends are read here and everything else the full way (xmlDecode.ts).
//
// The subset: an optional declaration, the expected root, items whose fields are leaf elements
// (text, at most a `type="word"` attribute) with the names xmlFields.ts reads, each at most once, a
// nested `user` (and `refactors` in a single code); no CR (the parser turns CRLF into LF), no
// comments, CDATA or PIs, and `&` only in references xmlWellFormed.ts accepts: bodies that the full
// way finds well-formed and reads field by field as this does. Anything else, and any field whose
// value would be an error, answers undefined: the full way then reads the body, decides and words
// the error. Values come from xmlFields.ts, as the full way's do; test/unit/xmlPlainDecode.test.ts
// holds both ways equal on service bodies, near misses and fast-check's generated ones.

import { DecodeError } from './errors';
import type { Code, Refactor, User } from './model';
import {
  codeFrom, datetimeValue, decodeReferences, fieldNames, numberValue, refactorFrom, requiredIntValue, userFrom,
  type ItemFields, type Where,
} from './xmlFields';
import { hasPlainReferences } from './xmlWellFormed';

// Attributes with double-quoted values only (the parser skips quoted text when it looks for `?>`).
const DECLARATION = /<\?xml(?:[ \t\n]+[A-Za-z]+="[^"<>?&]*")+[ \t\n]*\?>/y;
// A field: `<name>text</name>` or `<name type="word">text</name>`, or either one self-closed.
const LEAF = /[ \t\n]*<([a-z][a-z-]*)(?: type="([a-z]+)")?(?:\/>|>([^<]*)<\/\1>)/y;

/** What an item holds: its fields by name (numbered), and whether a user or refactorings nest in it. */
interface ItemKind {
  readonly open: string;
  readonly close: string;
  readonly slots: ReadonlyMap<string, number>;
  /** LEAF for one field name each, by number, for text without `&`: no name to cut out of the body and look up. */
  readonly leaves: readonly RegExp[];
  readonly user: boolean;
  readonly refactors: boolean;
}

function itemKind(name: string, from: (f: ItemFields) => unknown, nests: { user: boolean; refactors: boolean }): ItemKind {
  const fields = fieldNames(from);
  for (const field of fields) if (!/^[a-z][a-z-]*$/.test(field)) throw new Error(`LEAF cannot read <${field}>`);
  const slots = new Map(fields.map((field, i) => [field, i]));
  const own = (field: string) => LEAF.source.replace('([a-z][a-z-]*)', field).replace('\\1', field).replace('([^<]*)', '([^<&]*)');
  const leaves = fields.map((field) => new RegExp(own(field), 'y'));
  return { open: `<${name}>`, close: `</${name}>`, slots, leaves, ...nests };
}

const USER = itemKind('user', userFrom, { user: false, refactors: false });
const LIST_CODE = itemKind('code', codeFrom, { user: true, refactors: false });
const SINGLE_CODE = itemKind('code', codeFrom, { user: true, refactors: true });
const REFACTOR = itemKind('refactor', refactorFrom, { user: true, refactors: false });

/** A list of codes (root `<codes>`), or undefined when the body is not plain. */
export function plainCodes(body: string): Code[] | undefined {
  return read(body, (s) => {
    const items = s.take('<codes type="array">') || s.take('<codes>') ? s.list(LIST_CODE, '</codes>') : undefined;
    return items && s.atEnd() ? items.map((f) => codeFrom(f)) : undefined;
  });
}

/** A list of refactorings (root `<refactors>`), or undefined when the body is not plain. */
export function plainRefactors(body: string): Refactor[] | undefined {
  return read(body, (s) => {
    const items = s.take('<refactors type="array">') || s.take('<refactors>') ? s.list(REFACTOR, '</refactors>') : undefined;
    return items && s.atEnd() ? items.map((f) => refactorFrom(f)) : undefined;
  });
}

/** One code with its refactorings (root `<code>`), or undefined when the body is not plain. */
export function plainCode(body: string): Code | undefined {
  return read(body, (s) => {
    const f = s.take('<code>') ? s.item(SINGLE_CODE) : undefined;
    if (!f || !s.atEnd()) return undefined;
    const code = codeFrom(f);
    code.refactors = (f.refactors ?? []).map((r) => refactorFrom(r));
    return code;
  });
}

/** `body` starts at its first `<`. */
function read<T>(body: string, how: (s: Scanner) => T | undefined): T | undefined {
  if (body.indexOf('\r') !== -1) return undefined;
  try {
    return how(new Scanner(body));
  } catch (e) {
    if (e instanceof DecodeError) return undefined;
    throw e;
  }
}

class Scanner {
  private pos = 0;
  private readonly orders = new Map<ItemKind, (number | undefined)[]>();

  constructor(private readonly xml: string) {
    DECLARATION.lastIndex = 0;
    if (DECLARATION.test(xml)) this.pos = DECLARATION.lastIndex;
  }

  /** Takes `token` if only blanks come before it. */
  take(token: string): boolean {
    const at = this.skipBlanks();
    if (!this.xml.startsWith(token, at)) return false;
    this.pos = at + token.length;
    return true;
  }

  /** Nothing but blanks left. */
  atEnd(): boolean {
    return this.skipBlanks() === this.xml.length;
  }

  /** Items of one kind up to `close`. */
  list(kind: ItemKind, close: string): ScanFields[] | undefined {
    const items: ScanFields[] = [];
    for (;;) {
      if (this.take(kind.open)) {
        const f = this.item(kind);
        if (!f) return undefined;
        items.push(f);
      } else {
        return this.take(close) ? items : undefined;
      }
    }
  }

  /** The fields of an item whose start tag was just taken, up to its end tag. */
  item(kind: ItemKind): ScanFields | undefined {
    const f = new ScanFields(kind);
    // Items of a kind list their fields in one order: the field the item before had at this place
    // is tried first, by its own expression.
    let order = this.orders.get(kind);
    if (order === undefined) this.orders.set(kind, order = []);
    for (let k = 0; ; ) {
      let slot = order[k];
      let name: string | undefined;
      let m: RegExpExecArray | null = null;
      let withoutReferences = false;
      if (slot !== undefined) {
        const leaf = kind.leaves[slot];
        leaf.lastIndex = this.pos;
        m = leaf.exec(this.xml);
        if (m !== null) {
          this.pos = leaf.lastIndex;
          withoutReferences = true;
        }
      }
      if (m === null) {
        LEAF.lastIndex = this.pos;
        m = LEAF.exec(this.xml);
        if (m !== null) {
          this.pos = LEAF.lastIndex;
          name = m[1];
          slot = kind.slots.get(name);
          m = m.slice(1) as RegExpExecArray; // [name, type, text] -> [, type, text], as a field's own expression gives
        }
      }
      if (m !== null) {
        let text = m[2] ?? '';
        if (!withoutReferences && text.indexOf('&') !== -1) {
          if (!hasPlainReferences(text)) return undefined;
          text = decodeReferences(text);
        }
        if (slot !== undefined && f.texts[slot] === undefined) {
          f.texts[slot] = text;
          f.types[slot] = m[1];
          order[k++] = slot;
        } else if (kind.refactors && name === 'refactors' && f.refactors === undefined) {
          f.refactors = []; // an empty list, however it is written
        } else {
          return undefined; // a repeated or unknown field
        }
      } else if (this.take(kind.close)) {
        return f;
      } else if (kind.user && f.userFields === undefined && this.take('<user>')) {
        f.userFields = this.item(USER);
        if (!f.userFields) return undefined;
      } else if (kind.refactors && f.refactors === undefined && this.take('<refactors type="array">')) {
        f.refactors = this.list(REFACTOR, '</refactors>');
        if (!f.refactors) return undefined;
      } else {
        return undefined;
      }
    }
  }

  private skipBlanks(): number {
    let i = this.pos;
    for (;;) {
      const c = this.xml.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x09) i++;
      else return i;
    }
  }
}

// Errors are the full way's to word, so a field that fails here only sends the body there.
const NOWHERE: Where = { path: '', item: '', index: -1 };

/** An item's fields as the scan found them: text and type attribute by field number. */
class ScanFields implements ItemFields {
  readonly texts: (string | undefined)[];
  readonly types: (string | undefined)[];
  userFields: ScanFields | undefined;
  refactors: ScanFields[] | undefined;

  constructor(private readonly kind: ItemKind) {
    this.texts = new Array<string | undefined>(kind.slots.size);
    this.types = new Array<string | undefined>(kind.slots.size);
  }

  str(name: string): string {
    return this.texts[this.slot(name)] ?? '';
  }

  num(name: string): number | null {
    const i = this.slot(name);
    const text = this.texts[i];
    return text === undefined ? null : numberValue(text, this.types[i], name, NOWHERE);
  }

  requiredInt(name: string): number {
    const i = this.slot(name);
    return requiredIntValue(this.texts[i], this.types[i], name, NOWHERE);
  }

  datetime(name: string): Date | null {
    const i = this.slot(name);
    const text = this.texts[i];
    return text === undefined ? null : datetimeValue(text, this.types[i], name, NOWHERE);
  }

  user(): User | undefined {
    return this.userFields && userFrom(this.userFields);
  }

  private slot(name: string): number {
    return this.kind.slots.get(name) as number;
  }
}
