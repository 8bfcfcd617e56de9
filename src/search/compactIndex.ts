// MiniSearch with a compact saved form. MiniSearch's own (toJSON, loadJSON) writes every posting as
// an object key and makes every Map at once, which read a large index back too slowly for the
// issue's load budget (docs/benchmarks.md). This form writes each term's postings as one short
// string and reads it into the Maps MiniSearch searches only when a search first reaches the term:
// most of loading was building those Maps (and collecting the garbage they made), for terms that a
// window's searches mostly never touch. It reaches MiniSearch's index through the members it keeps
// `protected` for subclasses. Postings of documents discarded but not yet vacuumed are left out, so
// a saved index carries no dirt.
import MiniSearch, { type Options } from 'minisearch';
import { Lines } from './lines';

/**
 * The saved form (version 2). Each `postings[i]`: for term `terms[i]`, runs of fieldId, n, then n
 * pairs of shortId and frequency, in MiniSearch's order, as base-36 numbers joined by commas.
 */
export interface CompactForm {
  v: 2;
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  /** [shortId, id, shortId, id, …] */
  ids: Array<number | string>;
  /** [shortId, length of field 0, length of field 1, …, shortId, …] */
  lengths: number[];
  terms: string[];
  postings: string[];
}

export class CompactFormError extends Error {}

type DocFreqs = Map<number, number>;

/**
 * One term's postings (field id to short id to frequency), kept as their saved text until anything
 * reads them; then a plain Map, the same MiniSearch would have built. Not a Map itself: an empty Map
 * per term cost more, in allocation and the garbage collector's copying, than the text it stands
 * for. A text that turns out malformed (a file edited by hand) holds no postings: the term finds
 * nothing, and nothing throws.
 */
class Postings implements Map<number, DocFreqs> {
  /** The saved file's bytes, where bytes[from, to) is the term's postings line; undefined once read. */
  private saved: Uint8Array | undefined;
  private map: Map<number, DocFreqs> | undefined;

  constructor(saved: Uint8Array, private readonly from: number, private readonly to: number, private readonly fieldCount: number) {
    this.saved = saved;
  }

  private open(): Map<number, DocFreqs> {
    if (this.map) return this.map;
    const map = new Map<number, DocFreqs>();
    const row = this.saved ? numbersOf(this.saved, this.from, this.to) : undefined;
    if (row && wellFormed(row, this.fieldCount)) {
      let i = 0;
      while (i < row.length) {
        const end = i + 2 + 2 * row[i + 1];
        const freqs: DocFreqs = new Map();
        for (let k = i + 2; k < end; k += 2) freqs.set(row[k], row[k + 1]);
        map.set(row[i], freqs);
        i = end;
      }
    }
    this.saved = undefined;
    this.map = map;
    return map;
  }

  get size(): number {
    return this.open().size;
  }

  get [Symbol.toStringTag](): string {
    return 'Map';
  }

  get(key: number): DocFreqs | undefined {
    return this.open().get(key);
  }

  has(key: number): boolean {
    return this.open().has(key);
  }

  set(key: number, value: DocFreqs): this {
    this.open().set(key, value);
    return this;
  }

  delete(key: number): boolean {
    return this.open().delete(key);
  }

  clear(): void {
    this.open().clear();
  }

  forEach(fn: (value: DocFreqs, key: number, map: Map<number, DocFreqs>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.open()) fn.call(thisArg, value, key, this);
  }

  keys(): MapIterator<number> {
    return this.open().keys();
  }

  values(): MapIterator<DocFreqs> {
    return this.open().values();
  }

  entries(): MapIterator<[number, DocFreqs]> {
    return this.open().entries();
  }

  [Symbol.iterator](): MapIterator<[number, DocFreqs]> {
    return this.open().entries();
  }
}

/** The numbers of a saved posting text (bytes[from, to)), or undefined when it is not one (only 0-9, a-z and commas, no empty number). */
function numbersOf(bytes: Uint8Array, from: number, to: number): number[] | undefined {
  const out: number[] = [];
  let n = 0;
  let digits = 0;
  for (let i = from; i < to; i++) {
    const c = bytes[i];
    if (c === 44) {
      if (digits === 0) return undefined;
      out.push(n);
      n = 0;
      digits = 0;
      continue;
    }
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 122 ? c - 87 : -1;
    // Ten base-36 digits stay below 2^53 (and short ids below MAX_SHORT_ID, which checked() holds).
    if (d < 0 || digits === 10) return undefined;
    n = n * 36 + d;
    digits++;
  }
  if (digits === 0) return undefined;
  out.push(n);
  return out;
}

function wellFormed(row: readonly number[], fieldCount: number): boolean {
  let i = 0;
  while (i < row.length) {
    const n = row[i + 1];
    if (!(row[i] < fieldCount) || !(n > 0) || i + 2 + 2 * n > row.length) return false;
    i += 2 + 2 * n;
  }
  return true;
}

export class CompactMiniSearch<T> extends MiniSearch<T> {
  toCompact(): CompactForm {
    const live = this._documentIds;
    const ids: Array<number | string> = [];
    for (const [shortId, id] of live) ids.push(shortId, id as number | string);
    const lengths: number[] = [];
    for (const [shortId, fieldLengths] of this._fieldLength) {
      if (live.has(shortId)) lengths.push(shortId, ...fieldLengths);
    }
    const terms: string[] = [];
    const postings: string[] = [];
    for (const [term, fields] of this._index) {
      const row: number[] = [];
      for (const [fieldId, freqs] of fields) {
        const at = row.length;
        row.push(fieldId, 0);
        for (const [shortId, freq] of freqs) if (live.has(shortId)) row.push(shortId, freq);
        const n = (row.length - at - 2) / 2;
        if (n === 0) row.length = at;
        else row[at + 1] = n;
      }
      if (row.length > 0) {
        terms.push(term);
        postings.push(row.map((x) => x.toString(36)).join(','));
      }
    }
    return {
      v: 2, documentCount: this._documentCount, nextId: this._nextId, fieldIds: { ...this._fieldIds },
      averageFieldLength: [...this._avgFieldLength], ids, lengths, terms, postings,
    };
  }

  /**
   * The index `form` holds, searched with `options`; a CompactFormError when the form is not one
   * toCompact wrote. A term's postings are read when a search first reaches the term (Postings).
   * With `postings`, the form holds none and term i's postings are line i of them (a saved file's
   * lines, kept as its bytes).
   */
  static fromCompact<T>(form: unknown, options: Options<T>, postings?: Lines): CompactMiniSearch<T> {
    const c = checked(form, postings);
    const lines = postings ?? Lines.ofTexts(c.postings);
    const index = new CompactMiniSearch<T>(options);
    const fieldCount = Object.keys(index._fieldIds).length;
    // An index nothing was ever added to has no average lengths yet.
    const averages = c.averageFieldLength.length === fieldCount || (c.averageFieldLength.length === 0 && c.documentCount === 0);
    // The same fields under the same ids: a field renamed or renumbered would find nothing, and a save would throw.
    const sameFields = Object.keys(c.fieldIds).length === fieldCount
      && Object.entries(index._fieldIds).every(([name, id]) => Object.prototype.hasOwnProperty.call(c.fieldIds, name) && c.fieldIds[name] === id);
    if (!sameFields || !averages) {
      throw new CompactFormError('the saved index has other fields');
    }
    index._documentCount = c.documentCount;
    index._nextId = c.nextId;
    index._fieldIds = { ...c.fieldIds };
    index._avgFieldLength = [...c.averageFieldLength];
    for (let i = 0; i < c.ids.length; i += 2) {
      const shortId = c.ids[i] as number;
      index._documentIds.set(shortId, c.ids[i + 1]);
      index._idToShortId.set(c.ids[i + 1], shortId);
    }
    if (index._documentIds.size !== c.documentCount || index._idToShortId.size !== c.documentCount) {
      throw new CompactFormError('the saved index counts its documents wrong');
    }
    // A short id at or past nextId would be given again to the next document added.
    for (const shortId of index._documentIds.keys()) {
      if (shortId >= c.nextId) throw new CompactFormError('the saved index gives a document a short id past its next one');
    }
    if (c.lengths.length % (fieldCount + 1) !== 0) throw new CompactFormError('the saved index has malformed field lengths');
    for (let i = 0; i < c.lengths.length; i += fieldCount + 1) {
      index._fieldLength.set(c.lengths[i], c.lengths.slice(i + 1, i + 1 + fieldCount));
    }
    // Scoring reads every matched document's field lengths.
    for (const shortId of index._documentIds.keys()) {
      if (!index._fieldLength.has(shortId)) throw new CompactFormError('the saved index lacks the field lengths of a document');
    }
    // SearchableMap lists a node's branches last added first: added in reverse, they list as saved.
    for (let t = c.terms.length - 1; t >= 0; t--) index._index.set(c.terms[t], new Postings(lines.bytes, lines.start(t), lines.end(t), fieldCount));
    return index;
  }
}

/**
 * The most a saved short id may be: a posting's number has at most ten base-36 digits, so a document
 * numbered past it would be saved where no search reads it. No index comes near it honestly.
 */
const MAX_SHORT_ID = 36 ** 10 - 1;

function checked(form: unknown, postings: Lines | undefined): CompactForm {
  if (typeof form !== 'object' || form === null) throw new CompactFormError('the saved index is not an object');
  const f = form as Record<string, unknown>;
  // A NaN or an infinity would spoil every score.
  const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x));
  const counts = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => Number.isSafeInteger(x) && (x as number) >= 0);
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  const ok = f.v === 2 && Number.isSafeInteger(f.documentCount) && (f.documentCount as number) >= 0 && Number.isSafeInteger(f.nextId)
    && (f.nextId as number) <= MAX_SHORT_ID
    && typeof f.fieldIds === 'object' && f.fieldIds !== null && Object.values(f.fieldIds).every((x) => Number.isInteger(x))
    && numbers(f.averageFieldLength) && Array.isArray(f.ids) && f.ids.length % 2 === 0
    && f.ids.every((x, i) => (i % 2 === 0 ? Number.isSafeInteger(x) && (x as number) >= 0 : typeof x === 'number' || typeof x === 'string'))
    && counts(f.lengths) && strings(f.terms)
    && (postings ? !('postings' in f) && postings.count === f.terms.length : strings(f.postings) && f.postings.length === f.terms.length);
  if (!ok) throw new CompactFormError('the saved index is not in the compact form');
  return form as CompactForm;
}
