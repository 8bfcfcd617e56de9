// MiniSearch with a compact saved form. MiniSearch's own (toJSON, loadJSON) writes every posting as
// an object key, and reading 10,000 codes back that way took 330 ms here, most of it turning
// objects into Maps again; the budget for loading the persisted index is 200 ms. This form
// writes each term's postings as one flat array of numbers and reads them straight into the Maps
// MiniSearch searches, through the members it keeps `protected` for subclasses. Postings of
// documents discarded but not yet vacuumed are left out, so a saved index carries no dirt.
import MiniSearch, { type Options } from 'minisearch';

/** The saved form (version 1). Each `postings[i]`: for term `terms[i]`, runs of [fieldId, n, n × (shortId, frequency)]. */
export interface CompactForm {
  v: 1;
  documentCount: number;
  nextId: number;
  fieldIds: Record<string, number>;
  averageFieldLength: number[];
  /** [shortId, id, shortId, id, …] */
  ids: Array<number | string>;
  /** [shortId, length of field 0, length of field 1, …, shortId, …] */
  lengths: number[];
  terms: string[];
  postings: number[][];
}

export class CompactFormError extends Error {}

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
    const postings: number[][] = [];
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
        postings.push(row);
      }
    }
    return {
      v: 1, documentCount: this._documentCount, nextId: this._nextId, fieldIds: { ...this._fieldIds },
      averageFieldLength: [...this._avgFieldLength], ids, lengths, terms, postings,
    };
  }

  /** The index `form` holds, searched with `options`; a CompactFormError when the form is not one toCompact wrote. */
  static fromCompact<T>(form: unknown, options: Options<T>): CompactMiniSearch<T> {
    const c = checked(form);
    const index = new CompactMiniSearch<T>(options);
    const fieldCount = Object.keys(index._fieldIds).length;
    if (Object.keys(c.fieldIds).length !== fieldCount || c.averageFieldLength.length !== fieldCount) {
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
    if (index._documentIds.size !== c.documentCount) throw new CompactFormError('the saved index counts its documents wrong');
    if (c.lengths.length % (fieldCount + 1) !== 0) throw new CompactFormError('the saved index has malformed field lengths');
    for (let i = 0; i < c.lengths.length; i += fieldCount + 1) {
      index._fieldLength.set(c.lengths[i], c.lengths.slice(i + 1, i + 1 + fieldCount));
    }
    // Scoring reads every matched document's field lengths.
    for (const shortId of index._documentIds.keys()) {
      if (!index._fieldLength.has(shortId)) throw new CompactFormError('the saved index lacks the field lengths of a document');
    }
    for (let t = 0; t < c.terms.length; t++) {
      const row = c.postings[t];
      const fields = new Map<number, Map<number, number>>();
      let i = 0;
      while (i < row.length) {
        const fieldId = row[i];
        const n = row[i + 1];
        const end = i + 2 + 2 * n;
        if (!(n > 0) || end > row.length || fieldId < 0 || fieldId >= fieldCount) throw new CompactFormError('the saved index has a malformed posting');
        const freqs = new Map<number, number>();
        for (let k = i + 2; k < end; k += 2) freqs.set(row[k], row[k + 1]);
        fields.set(fieldId, freqs);
        i = end;
      }
      index._index.set(c.terms[t], fields);
    }
    return index;
  }
}

function checked(form: unknown): CompactForm {
  if (typeof form !== 'object' || form === null) throw new CompactFormError('the saved index is not an object');
  const f = form as Record<string, unknown>;
  const numbers = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x));
  const ok = f.v === 1 && Number.isSafeInteger(f.documentCount) && Number.isSafeInteger(f.nextId)
    && typeof f.fieldIds === 'object' && f.fieldIds !== null && Object.values(f.fieldIds).every((x) => Number.isInteger(x))
    && numbers(f.averageFieldLength) && Array.isArray(f.ids) && f.ids.length % 2 === 0
    && f.ids.every((x, i) => (i % 2 === 0 ? Number.isSafeInteger(x) : typeof x === 'number' || typeof x === 'string'))
    && numbers(f.lengths) && Array.isArray(f.terms) && f.terms.every((t) => typeof t === 'string')
    && Array.isArray(f.postings) && f.postings.length === f.terms.length && f.postings.every(numbers);
  if (!ok) throw new CompactFormError('the saved index is not in the compact form');
  return form as CompactForm;
}
