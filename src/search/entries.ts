// What search knows of each code: the code as the service gave it, the tags it was seen under, and
// every refactoring of it seen, however it was seen (a list, a tag, the single-code answer, recent
// refactorings). One entry per code, so that the index holds a code's words once however many of
// its refactorings repeat them; a refactoring seen before its code makes an entry that knows only
// it. Bounded: MAX_CODES entries, MAX_STORED_CHARS of text, the first MAX_TEXT_CHARS of each text.
// Entries read from a saved index stay the text of the rows they were saved as until something reads
// them (a search shows 50 at most): parsing every row was most of loading a 10,000-code index. What
// counting, the bounds and the language filter need of a row not read yet is saved beside it (its
// summary); a check of every summary and row, written when they are saved, holds them together when
// read back (rowsCheck), and each row is checked in full when it is first read.
import { isId } from '../core/ids';
import type { Code, Refactor } from '../core/model';
import { decodeText, type Lines } from './lines';

/** The most codes search keeps. */
export const MAX_CODES = 100_000;
/** The most refactorings kept of one code. */
export const MAX_REFACTORS_PER_CODE = 500;
/** The most characters of text (titles, comments, code, names) kept in all: about 64 MiB of it. */
export const MAX_STORED_CHARS = 64 * 1024 * 1024;
/** Search reads the first this many characters of a code's or refactoring's text. */
export const MAX_TEXT_CHARS = 16 * 1024;

export interface RefactorEntry {
  id: number;
  /** '' when untitled. */
  title: string;
  /** '' when no answer named the author. */
  author: string;
  comment: string;
  code: string;
  /** Milliseconds since the epoch; 0 when unknown. */
  createdAt: number;
  /** As the service last said it (lists and the single-code answer carry it); null when unknown. */
  rating: number | null;
  ratingsCount: number | null;
}

export interface CodeEntry {
  id: number;
  /** '' when untitled, or when only refactorings of the code were seen. */
  title: string;
  language: string;
  author: string;
  comment: string;
  code: string;
  /** Lower case. */
  tags: string[];
  createdAt: number;
  /** False while only refactorings of the code were seen. */
  seen: boolean;
  /** By id, ascending. */
  refactors: RefactorEntry[];
}

/** How much search keeps (tests make them small). */
export interface EntryLimits {
  maxCodes: number;
  maxStoredChars: number;
}

export const DEFAULT_ENTRY_LIMITS: EntryLimits = { maxCodes: MAX_CODES, maxStoredChars: MAX_STORED_CHARS };

/** What is saved of an entry beside its row: [id, seen (1 or 0), refactorings, characters (charsOf), language]. */
export type RowSummary = [number, 0 | 1, number, number, string];

/** A saved row not read yet: where the JSON text of its row lies in the saved file's bytes, and its summary. */
class SavedRow {
  constructor(private readonly bytes: Uint8Array, private readonly from: number, private readonly to: number, readonly summary: RowSummary) {}

  get text(): string {
    return decodeText(this.bytes, this.from, this.to);
  }
}

function summaryOf(e: CodeEntry): RowSummary {
  return [e.id, e.seen ? 1 : 0, e.refactors.length, charsOf(e), e.language];
}

function isSummary(v: unknown): v is RowSummary {
  return Array.isArray(v) && v.length === 5 && isId(v[0]) && (v[1] === 0 || v[1] === 1)
    && Number.isSafeInteger(v[2]) && v[2] >= 0 && v[2] <= MAX_REFACTORS_PER_CODE
    && Number.isSafeInteger(v[3]) && v[3] >= 0 && typeof v[4] === 'string';
}

/** JSON in printable ASCII: every other character escaped, so that a saved row reads back as one line of one-byte text. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export class Entries {
  /** An entry, or the saved row it is made from when first read. */
  private readonly byId = new Map<number, CodeEntry | SavedRow>();
  private chars = 0;
  /** Kept as entries come and go: Index the Catalog reports them after every page. */
  private codes = 0;
  private refactors = 0;

  constructor(private readonly limits: EntryLimits = DEFAULT_ENTRY_LIMITS) {}

  get size(): number {
    return this.byId.size;
  }

  /** The entry of code `id`; a saved row that turns out not to be one rowOf wrote (an edited file) is dropped. */
  get(id: number): CodeEntry | undefined {
    const kept = this.byId.get(id);
    if (!(kept instanceof SavedRow)) return kept;
    const row = tryParse(kept.text);
    this.count(kept.summary, -1);
    if (!isRow(row) || row[0] !== id) {
      this.byId.delete(id);
      return undefined;
    }
    const entry = fromRow(row);
    this.count(summaryOf(entry), 1);
    this.byId.set(id, entry);
    return entry;
  }

  /** The language of code `id`, without reading a saved row. */
  languageOf(id: number): string | undefined {
    const kept = this.byId.get(id);
    return kept instanceof SavedRow ? kept.summary[4] : kept?.language;
  }

  private count(s: RowSummary, sign: 1 | -1): void {
    this.codes += sign * s[1];
    this.refactors += sign * s[2];
    this.chars += sign * s[3];
  }

  ids(): IterableIterator<number> {
    return this.byId.keys();
  }

  *values(): IterableIterator<CodeEntry> {
    for (const id of [...this.byId.keys()]) {
      const entry = this.get(id);
      if (entry) yield entry;
    }
  }

  /**
   * The saved form of every entry: its summary, and its row as one line of ASCII JSON (asciiJson of
   * rowOf); a saved row not read yet as it was read.
   */
  *saved(): IterableIterator<[RowSummary, string]> {
    for (const kept of this.byId.values()) yield kept instanceof SavedRow ? [kept.summary, kept.text] : [summaryOf(kept), asciiJson(rowOf(kept))];
  }

  /** Every entry's summary, without reading a saved row. */
  *summaries(): IterableIterator<RowSummary> {
    for (const kept of this.byId.values()) yield kept instanceof SavedRow ? kept.summary : summaryOf(kept);
  }

  refactorCount(): number {
    return this.refactors;
  }

  /** How many of the codes the service gave (not only their refactorings). */
  codeCount(): number {
    return this.codes;
  }

  /**
   * Takes the rows of a saved index, each a line of the file's bytes with its summary, kept as bytes
   * until read; false, taking none, when the summaries are not ones this wrote, do not match the
   * rows in number, or `check` is not their rowsCheck (a file cut short, or edited). Into empty
   * entries only.
   */
  takeSaved(summaries: readonly unknown[], rows: Lines, check: number): boolean {
    if (this.byId.size > 0) throw new Error('takeSaved: the entries are not empty');
    if (summaries.length !== rows.count || !summaries.every(isSummary)) return false;
    // The bounds and counts trust each summary until its row is read: the check says they were saved together.
    if (rowsCheck(summaries, rows) !== check) return false;
    const bytes = rows.bytes;
    for (let i = 0; i < rows.count; i++) {
      const summary = summaries[i];
      const id = summary[0];
      if (this.byId.has(id)) {
        // Two rows of one code: never written so, but merged as another store's entries would be.
        const row = entryOf(tryParse(rows.text(i)));
        if (row && row.id === id) this.merge(row);
        continue;
      }
      if (this.byId.size >= this.limits.maxCodes || this.chars + summary[3] > this.limits.maxStoredChars) continue;
      this.byId.set(id, new SavedRow(bytes, rows.start(i), rows.end(i), summary));
      this.count(summary, 1);
    }
    return true;
  }

  isFull(): boolean {
    return this.byId.size >= this.limits.maxCodes || this.chars >= this.limits.maxStoredChars;
  }

  /**
   * Takes codes (with their refactorings when the single-code answer carries them), seen under
   * `tag` if given. Returns the ids of the entries that changed, and whether any was left out
   * because search is full.
   */
  addCodes(codes: readonly Code[], tag?: string): { changed: number[]; full: boolean } {
    const changed: number[] = [];
    let full = false;
    for (const code of codes) {
      const old = this.get(code.id);
      const next: CodeEntry = {
        id: code.id, title: code.title, language: code.language,
        // The single-code answer names no registered author: what a list said is kept.
        author: code.user?.name || old?.author || '',
        comment: searchableText(code.comment), code: keptCode(code.code),
        // The code's own tags where the service says them (ours does), else those it was seen under.
        tags: union(code.tags ? union([], code.tags.map((t) => t.toLowerCase())) : old?.tags ?? [], tag ? [tag.toLowerCase()] : []),
        createdAt: code.createdAt?.getTime() ?? 0, seen: true,
        refactors: mergeRefactors(old?.refactors ?? [], (code.refactors ?? []).map(refactorEntry)),
      };
      const result = this.put(next);
      if (result === 'full') full = true;
      else if (result === 'changed') changed.push(code.id);
    }
    return { changed, full };
  }

  /** Takes refactorings (recent refactorings list); a code not seen yet gets an entry that knows only them. */
  addRefactors(refactors: readonly Refactor[]): { changed: number[]; full: boolean } {
    const changed = new Set<number>();
    let full = false;
    for (const r of refactors) {
      const old = this.get(r.codeId);
      const next: CodeEntry = old
        ? { ...old, refactors: mergeRefactors(old.refactors, [refactorEntry(r)]) }
        : { id: r.codeId, title: '', language: r.language, author: '', comment: '', code: '', tags: [], createdAt: 0, seen: false, refactors: [refactorEntry(r)] };
      const result = this.put(next);
      if (result === 'full') full = true;
      else if (result === 'changed') changed.add(r.codeId);
    }
    return { changed: [...changed], full };
  }

  /** Takes an entry as another store holds it (merging refactorings and tags). */
  merge(entry: CodeEntry): 'changed' | 'same' | 'full' {
    const old = this.get(entry.id);
    if (!old) return this.put(entry);
    const base = entry.seen ? entry : { ...old, refactors: entry.refactors };
    return this.put({
      ...base,
      author: base.author || old.author,
      tags: union(old.tags, entry.tags),
      refactors: mergeRefactors(old.refactors, entry.refactors),
    });
  }

  private put(next: CodeEntry): 'changed' | 'same' | 'full' {
    const old = this.get(next.id);
    if (old && sameEntry(old, next)) return 'same';
    const grows = charsOf(next) - (old ? charsOf(old) : 0);
    if ((!old && this.byId.size >= this.limits.maxCodes) || (grows > 0 && this.chars + grows > this.limits.maxStoredChars)) return 'full';
    this.byId.set(next.id, next);
    if (old) this.count(summaryOf(old), -1);
    this.count(summaryOf(next), 1);
    return 'changed';
  }
}

function refactorEntry(r: Refactor): RefactorEntry {
  return {
    id: r.id, title: r.title, author: r.userName || r.user?.name || '', comment: searchableText(r.comment), code: keptCode(r.code),
    createdAt: r.createdAt?.getTime() ?? 0, rating: finiteOrNull(r.rating), ratingsCount: finiteOrNull(r.ratingsCount),
  };
}

/** The refactorings of both, by id, the newer answer winning; at most MAX_REFACTORS_PER_CODE (the newest ids). */
function mergeRefactors(old: readonly RefactorEntry[], got: readonly RefactorEntry[]): RefactorEntry[] {
  if (got.length === 0) return [...old];
  const byId = new Map(old.map((r) => [r.id, r]));
  for (const r of got) {
    const had = byId.get(r.id);
    // An answer that does not say the author or the rating leaves what an earlier one said.
    byId.set(r.id, { ...r, author: r.author || had?.author || '', ...(r.rating === null && had ? { rating: had.rating, ratingsCount: had.ratingsCount } : {}) });
  }
  const all = [...byId.values()].sort((a, b) => a.id - b.id);
  return all.length > MAX_REFACTORS_PER_CODE ? all.slice(all.length - MAX_REFACTORS_PER_CODE) : all;
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return b.every((t) => a.includes(t)) ? [...a] : [...new Set([...a, ...b])];
}

/**
 * The text as search keeps it: each line trimmed, blank lines left out (a shown line is trimmed
 * anyway, and indentation is a fifth of a code's characters), and at most MAX_TEXT_CHARS.
 */
function searchableText(text: string): string {
  const lines = text.split(/\r?\n/);
  let kept = '';
  for (const line of lines) {
    const t = line.trim();
    if (t === '') continue;
    kept = kept === '' ? t : `${kept}\n${t}`;
    if (kept.length >= MAX_TEXT_CHARS) return kept.slice(0, MAX_TEXT_CHARS);
  }
  return kept;
}

/**
 * A code's text as search keeps it: as written, each line's indentation with it (what finding similar
 * code adapts a refactoring from, and Python's blocks), its trailing spaces and the blank lines
 * around it left out, line breaks as \n, at most MAX_TEXT_CHARS.
 */
function keptCode(text: string): string {
  const kept = text.split(/\r?\n/).map((line) => line.trimEnd()).join('\n').replace(/^\n+|\n+$/g, '');
  return kept.length > MAX_TEXT_CHARS ? kept.slice(0, MAX_TEXT_CHARS) : kept;
}

/** Whether a text as search keeps it may be the first MAX_TEXT_CHARS characters of a longer one. */
export function mayBeCut(kept: string): boolean {
  return kept.length >= MAX_TEXT_CHARS;
}

function finiteOrNull(n: number | null | undefined): number | null {
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** A saved text, already kept as searchableText() or keptCode() keeps it: only held to the bound. */
function clampText(text: string): string {
  return text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
}

function charsOf(e: CodeEntry): number {
  let n = e.title.length + e.author.length + e.comment.length + e.code.length;
  for (const r of e.refactors) n += r.title.length + r.author.length + r.comment.length + r.code.length;
  return n;
}

function sameEntry(a: CodeEntry, b: CodeEntry): boolean {
  return a.title === b.title && a.language === b.language && a.author === b.author && a.comment === b.comment
    && a.code === b.code && a.createdAt === b.createdAt && a.seen === b.seen
    && a.tags.length === b.tags.length && a.tags.every((t, i) => t === b.tags[i])
    && a.refactors.length === b.refactors.length && a.refactors.every((r, i) => sameRefactor(r, b.refactors[i]));
}

function sameRefactor(a: RefactorEntry, b: RefactorEntry): boolean {
  return a.id === b.id && a.title === b.title && a.author === b.author && a.comment === b.comment && a.code === b.code && a.createdAt === b.createdAt
    && a.rating === b.rating && a.ratingsCount === b.ratingsCount;
}

// The saved form: arrays, not objects (a third of the bytes, and quicker to read). A refactoring's
// rating and votes follow its date when known (a row saved before they were kept has neither).
type RefactorRow = [number, string, string, string, string, number] | [number, string, string, string, string, number, number, number | null];
export type EntryRow = [number, string, string, string, string, string, string[], number, 0 | 1, RefactorRow[]];

export function rowOf(e: CodeEntry): EntryRow {
  return [e.id, e.title, e.language, e.author, e.comment, e.code, e.tags, e.createdAt, e.seen ? 1 : 0,
    e.refactors.map((r): RefactorRow => (r.rating === null
      ? [r.id, r.title, r.author, r.comment, r.code, r.createdAt]
      : [r.id, r.title, r.author, r.comment, r.code, r.createdAt, r.rating, r.ratingsCount]))];
}

/** The entry a row holds, or undefined when the row is not one rowOf wrote (a file cut short, or edited). */
export function entryOf(row: unknown): CodeEntry | undefined {
  return isRow(row) ? fromRow(row) : undefined;
}

/**
 * Whether `row` is one rowOf wrote: checked by index, making nothing, since loading checks 40,000 of
 * them before any code runs warm.
 */
function isRow(row: unknown): row is EntryRow {
  if (!Array.isArray(row) || row.length !== 10 || !isId(row[0]) || typeof row[7] !== 'number' || (row[8] !== 0 && row[8] !== 1)) return false;
  for (let i = 1; i <= 5; i++) if (typeof row[i] !== 'string') return false;
  const tags: unknown = row[6];
  const refactors: unknown = row[9];
  if (!Array.isArray(tags) || !allStrings(tags) || !Array.isArray(refactors)) return false;
  for (const r of refactors as unknown[]) {
    if (!Array.isArray(r) || (r.length !== 6 && r.length !== 8) || !isId(r[0]) || typeof r[5] !== 'number') return false;
    if (r.length === 8 && (typeof r[6] !== 'number' || (r[7] !== null && typeof r[7] !== 'number'))) return false;
    if (typeof r[1] !== 'string' || typeof r[2] !== 'string' || typeof r[3] !== 'string' || typeof r[4] !== 'string') return false;
  }
  return true;
}

/** The entry of a checked row, its texts held to their bounds. */
function fromRow(row: EntryRow): CodeEntry {
  const [id, title, language, author, comment, code, tags, createdAt, seen, refactors] = row;
  return {
    id, title, language, author, comment: clampText(comment), code: clampText(code), tags, createdAt, seen: seen === 1,
    refactors: refactors.slice(-MAX_REFACTORS_PER_CODE).map(([rid, rtitle, rauthor, rcomment, rcode, rcreated, rating, votes]) => ({
      id: rid, title: rtitle, author: rauthor, comment: clampText(rcomment), code: clampText(rcode), createdAt: rcreated,
      rating: rating ?? null, ratingsCount: votes ?? null,
    })),
  };
}

/**
 * A check of saved rows and the summaries beside them, written in the head with them: FNV-1a (32
 * bits) over each summary's fields, then over the rows as saved, one newline between two, four bytes
 * a step (rows as asciiJson writes them are ASCII, a byte a character, so their text and their saved
 * bytes check the same). It stands for reading every row to see that its summary holds, which was
 * most of loading a saved index; it catches a file edited or damaged, not one made to pass it, whose
 * rows are checked in full when read all the same.
 */
export function rowsCheck(summaries: readonly RowSummary[], rows: string | Lines): number {
  let h = FNV_OFFSET;
  for (const [id, seen, refactors, chars, language] of summaries) {
    for (const n of [id, seen, refactors, chars]) {
      h = Math.imul(h ^ (n % 0x1_0000_0000), FNV_PRIME);
      h = Math.imul(h ^ Math.floor(n / 0x1_0000_0000), FNV_PRIME);
    }
    for (let i = 0; i < language.length; i++) h = Math.imul(h ^ language.charCodeAt(i), FNV_PRIME);
    h = Math.imul(h ^ NEWLINE, FNV_PRIME);
  }
  if (typeof rows === 'string') {
    let i = 0;
    for (; i + 4 <= rows.length; i += 4) {
      h = Math.imul(h ^ (rows.charCodeAt(i) | (rows.charCodeAt(i + 1) << 8) | (rows.charCodeAt(i + 2) << 16) | (rows.charCodeAt(i + 3) << 24)), FNV_PRIME);
    }
    for (; i < rows.length; i++) h = Math.imul(h ^ rows.charCodeAt(i), FNV_PRIME);
  } else if (rows.count > 0) {
    const bytes = rows.bytes;
    const to = rows.end(rows.count - 1);
    let i = rows.start(0);
    for (; i + 4 <= to; i += 4) h = Math.imul(h ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24)), FNV_PRIME);
    for (; i < to; i++) h = Math.imul(h ^ bytes[i], FNV_PRIME);
  }
  return h >>> 0;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const NEWLINE = 10;

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function allStrings(vs: readonly unknown[]): boolean {
  return vs.every((v) => typeof v === 'string');
}
