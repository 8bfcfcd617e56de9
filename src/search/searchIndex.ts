// The search index: every code search knows (entries.ts), indexed by MiniSearch (ranked, prefix and
// typo-tolerant, and it runs in the browser) as one document per code holding its refactorings too,
// saved and read back in a compact form (compactIndex.ts). No `vscode` import: the extension and
// `refactor-browser search` share it, ranking included.
import type { Options, SearchResult } from 'minisearch';
import { lacksAuthorName } from '../client/author';
import type { Code, Refactor } from '../core/model';
import { CompactFormError, CompactMiniSearch } from './compactIndex';
import { decodeText, Lines } from './lines';
import { asciiJson, Entries, entryOf, rowOf, rowsCheck, type CodeEntry, type EntryLimits, type RefactorEntry, type RowSummary } from './entries';
import { indexTerm, queryTerm, tokenize } from './terms';
import { fnv1a64 } from '../core/hash';

/** Results a search returns unless asked for another number. */
export const DEFAULT_LIMIT = 50;
/** How long a shown line of code may be before it is cut around what matched. */
const MAX_LINE_CHARS = 120;
/** The format of toJSON's text; an index saved in another is not read. */
const FORMAT = 4;

/** One result, as a quick pick row or a line of `refactor-browser search` shows it. */
export interface SearchHit {
  /** `refactor` when what matched best is one of the code's refactorings. */
  kind: 'code' | 'refactor';
  codeId: number;
  refactorId?: number;
  /** As the service gave it: '' when untitled (titleOf names it). */
  title: string;
  /** For a refactoring: its code's title ('' when untitled or not seen). */
  codeTitle?: string;
  language: string;
  /** '' when no answer seen named the author (authorOf's words apply). */
  author: string;
  /** The line of code that matched best (the first line when only a title or comment did), trimmed. */
  line: string;
  score: number;
}

export interface SearchOptions {
  /** Only this language (the service's name, any case); '' or undefined for all. */
  language?: string;
  limit?: number;
}

/**
 * Where a later Index the Catalog run stops a list: the newest item (its time, then its id: the
 * recent lists' order) the list held when a run last read it to its end.
 */
export interface ListProgress {
  /** Milliseconds since the epoch. */
  at: number;
  id: number;
}

export class SearchIndexError extends Error {}

/**
 * The name (without extension) of the file a service's index is saved in, by the extension and the
 * CLI alike: a hash of the service's name, never the URL itself, which may be long or odd.
 */
export function savedIndexName(service: string): string {
  return `search-${fnv1a64(new TextEncoder().encode(service))}`;
}

/** A MiniSearch document: a code with its refactorings' words. */
interface IndexDoc {
  id: number;
  title: string;
  language: string;
  about: string;
  text: string;
}

/** Titles above language, author and tags, above comments and code. */
const BOOST = { title: 4, language: 2, about: 2, text: 1 };

function options(): Options<IndexDoc> {
  return {
    fields: ['title', 'language', 'about', 'text'],
    tokenize,
    processTerm: indexTerm,
    searchOptions: {
      tokenize: (text: string) => tokenize(text),
      processTerm: queryTerm,
      boost: BOOST,
      // The word being typed is a prefix (from two letters: one matches a tenth of all words); a word
      // of four letters may have one typo, of seven two.
      prefix: (term: string, i: number, terms: string[]) => i === terms.length - 1 && term.length >= 2,
      fuzzy: (term: string) => (term.length >= 7 ? 2 : term.length >= 4 ? 1 : false),
    },
  };
}

function docOf(e: CodeEntry): IndexDoc {
  const titles = [e.title];
  const about = [e.author, ...e.tags];
  const text = [e.comment, e.code];
  for (const r of e.refactors) {
    titles.push(r.title);
    about.push(r.author);
    text.push(r.comment, r.code);
  }
  return { id: e.id, title: titles.join('\n'), language: e.language, about: about.join('\n'), text: text.join('\n') };
}

export class CodeSearch {
  private readonly entries: Entries;
  private mini: CompactMiniSearch<IndexDoc>;
  /** Entries changed since they were last indexed. */
  private readonly dirty = new Set<number>();
  /**
   * While an Index the Catalog run reads (holdIncompleteCodes): each code whose refactorings the
   * service counts and the run has not read all of yet, with that count. Such a code is indexed once,
   * when its last refactoring comes (or the run ends), instead of again after every page that brings
   * one: the crawl reads codes first, and indexing a code again is most of what indexing costs.
   */
  private awaited: Map<number, number> | undefined;
  /** Changed entries held back until their code is read whole (awaited). */
  private readonly waiting = new Set<number>();
  private readonly lists = new Map<string, ListProgress>();
  /** When anything was last added (ms since the epoch); 0 for an empty index. */
  updatedAt = 0;
  /** When a run of Index the Catalog last paged every list to its end (ms since the epoch); 0 if none did. */
  indexedAt = 0;

  private constructor(entries: Entries, mini: CompactMiniSearch<IndexDoc>) {
    this.entries = entries;
    this.mini = mini;
  }

  static empty(limits?: EntryLimits): CodeSearch {
    return new CodeSearch(new Entries(limits), new CompactMiniSearch<IndexDoc>(options()));
  }

  /**
   * An index toJSON saved, as the file's bytes (or its text). A file that is not one (another format,
   * a cut file, hostile content) is a SearchIndexError; a saved index whose MiniSearch part does not
   * match its entries is indexed again from them (`rebuilt`). Only the head is decoded and parsed:
   * postings and rows stay where they lie in the bytes until something first needs them (entries.ts,
   * compactIndex.ts).
   */
  static fromJSON(file: Uint8Array | string, limits?: EntryLimits): { index: CodeSearch; rebuilt: boolean } {
    // A plain Uint8Array, even over a Node Buffer: its indexOf is the typed array's, several times quicker than Buffer's.
    const bytes = typeof file === 'string' ? new TextEncoder().encode(file) : new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
    const end = bytes.indexOf(10);
    let saved: unknown;
    try {
      saved = JSON.parse(decodeText(bytes, 0, end < 0 ? bytes.length : end));
    } catch (e) {
      throw new SearchIndexError(`the saved search index is not JSON (${(e as Error).message})`);
    }
    if (!isSaved(saved)) throw new SearchIndexError('the saved search index is not in a form this version reads');
    // After the head: a line per term's postings, then a line per entry's row.
    const lines = Lines.of(bytes, end < 0 ? bytes.length + 1 : end + 1);
    const entries = new Entries(limits);
    if (lines.count !== saved.postings + saved.rows.length || !entries.takeSaved(saved.rows, lines.slice(saved.postings, saved.rows.length), saved.check)) {
      throw new SearchIndexError('the saved search index is cut short, or holds a row its head does not describe');
    }
    let mini: CompactMiniSearch<IndexDoc> | undefined;
    try {
      mini = CompactMiniSearch.fromCompact(saved.index, options(), lines.slice(0, saved.postings));
    } catch (e) {
      if (!(e instanceof CompactFormError)) throw e;
    }
    const matches = mini !== undefined && mini.documentCount === entries.size && [...entries.ids()].every((id) => mini.has(id));
    const index = new CodeSearch(entries, matches ? mini! : new CompactMiniSearch<IndexDoc>(options()));
    if (!matches) for (const id of entries.ids()) index.dirty.add(id);
    for (const [key, progress] of Object.entries(saved.lists)) {
      const { at, id } = progress as ListProgress;
      index.lists.set(key, { at, id });
    }
    index.updatedAt = saved.updatedAt;
    index.indexedAt = saved.indexedAt;
    index.flush();
    return { index, rebuilt: !matches };
  }

  /**
   * The saved form, JSON Lines in ASCII only: a head holding all but the postings and the entries
   * (the MiniSearch part without its postings, their number, the lists' marks, each entry's
   * summary and the rows' check), then each term's postings on a line of its own in the order of the MiniSearch part's
   * terms (base-36 numbers and commas), then each entry's row on a line of its own, in the order of
   * the summaries.
   */
  toJSON(): string {
    this.releaseHeldEntries();
    this.flush();
    const summaries: RowSummary[] = [];
    const rows: string[] = [];
    const { postings, ...compact } = this.mini.toCompact();
    for (const [summary, row] of this.entries.saved()) {
      summaries.push(summary);
      rows.push(row);
    }
    const rowLines = rows.join('\n');
    const head = asciiJson({
      format: FORMAT, updatedAt: this.updatedAt, indexedAt: this.indexedAt, lists: Object.fromEntries(this.lists),
      index: compact, postings: postings.length, rows: summaries, check: rowsCheck(summaries, rowLines),
    });
    return [head, ...postings, ...(rows.length ? [rowLines] : [])].join('\n');
  }

  /** How many codes (the service's own, not those known only by a refactoring) and refactorings search knows. */
  counts(): { codes: number; refactors: number } {
    return { codes: this.entries.codeCount(), refactors: this.entries.refactorCount() };
  }

  isFull(): boolean {
    return this.entries.isFull();
  }

  /**
   * Each code's id and language, and a stamp that changes when its texts do (its refactorings'
   * number and its characters), without reading a saved row: what similarity's fingerprints are
   * kept against.
   */
  *stamps(): IterableIterator<{ id: number; language: string; stamp: string }> {
    for (const [id, , refactors, chars, language] of this.entries.summaries()) yield { id, language, stamp: `${refactors}:${chars}` };
  }

  /** What search knows of code `id`. */
  entry(id: number): CodeEntry | undefined {
    return this.entries.get(id);
  }

  /**
   * `code` with its author named as a list named them, when the service's single-code answer left
   * the name out (it gives `user-id` alone; lists nest the `<user>`): one of the sources
   * src/client/author.ts's withAuthor asks. As it came when the name is there, or search never saw one.
   */
  withListedAuthor(code: Code): Code {
    const name = lacksAuthorName(code) && code.userId !== null ? this.entries.get(code.id)?.author : undefined;
    if (!name || code.userId === null) return code;
    return { ...code, user: { id: code.userId, name, identityUrl: '', rating: null, refactorsCount: null, website: '' } };
  }

  /**
   * Every tag search knows a code of `language` (a language's name, any lettercase; every language
   * when undefined) to have, lower-cased, with how many such codes have it: most first, then by name.
   */
  tagCounts(language?: string): { tag: string; count: number }[] {
    const wanted = language?.toLowerCase();
    const counts = new Map<string, number>();
    for (const id of this.entries.ids()) {
      if (wanted !== undefined && this.entries.languageOf(id)?.toLowerCase() !== wanted) continue;
      const entry = this.entries.get(id);
      if (!entry?.seen) continue;
      for (const tag of entry.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    }
    return [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  }

  hasCode(id: number): boolean {
    return this.entries.get(id)?.seen === true;
  }

  hasRefactor(id: number, codeId: number): boolean {
    return this.entries.get(codeId)?.refactors.some((r) => r.id === id) === true;
  }

  /** Takes codes (with their refactorings, from the single-code answer), seen under `tag` if given; `full` when some were left out. */
  addCodes(codes: readonly Code[], tag?: string): { full: boolean } {
    if (this.awaited) {
      for (const c of codes) if (c.refactorsCount !== null && c.refactorsCount > 0) this.awaited.set(c.id, c.refactorsCount);
    }
    return this.changed(this.entries.addCodes(codes, tag));
  }

  /**
   * From now until releaseIncompleteCodes, a code whose refactorings are not all known yet (by the
   * service's count) is not indexed, nor found, until they are: Index the Catalog reads every code
   * first, then every refactoring.
   */
  holdIncompleteCodes(): void {
    this.awaited ??= new Map();
  }

  /** Ends holdIncompleteCodes: every code held back is indexed with the next flush. */
  releaseIncompleteCodes(): void {
    this.awaited = undefined;
    this.releaseHeldEntries();
  }

  /** Makes every entry held back for its refactorings due for the next flush. */
  private releaseHeldEntries(): void {
    for (const id of this.waiting) this.dirty.add(id);
    this.waiting.clear();
  }

  addRefactors(refactors: readonly Refactor[]): { full: boolean } {
    return this.changed(this.entries.addRefactors(refactors));
  }

  /** Takes what another index knows (entries from a file of recent fetches); `full` when some were left out. */
  addEntries(rows: readonly unknown[]): { full: boolean } {
    const changed: number[] = [];
    let full = false;
    for (const row of rows) {
      const entry = entryOf(row);
      if (!entry) continue;
      const result = this.entries.merge(entry);
      if (result === 'full') full = true;
      else if (result === 'changed') changed.push(entry.id);
    }
    return this.changed({ changed, full });
  }

  /** The saved form of the entries `ids` names (for a file of recent fetches). */
  rowsOf(ids: Iterable<number>): unknown[] {
    const rows: unknown[] = [];
    for (const id of ids) {
      const e = this.entries.get(id);
      if (e) rows.push(rowOf(e));
    }
    return rows;
  }

  listProgress(key: string): ListProgress | undefined {
    const p = this.lists.get(key);
    return p && { ...p };
  }

  setListProgress(key: string, progress: ListProgress): void {
    this.lists.set(key, { ...progress });
  }

  /** How many entries wait to be indexed (those held back for their refactorings included). */
  pending(): number {
    return this.dirty.size + this.waiting.size;
  }

  /** Indexes what changed, all of it now. */
  flush(): void {
    this.flushUntil(Infinity);
  }

  /**
   * Indexes what changed until `deadline` (performance.now() time), so that a caller can give the
   * extension host back between slices; returns how many entries still wait.
   */
  flushUntil(deadline: number): number {
    let n = 0;
    for (const id of this.dirty) {
      // performance.now() costs about as much as indexing a small code: look every 16.
      if ((++n & 15) === 0 && performance.now() > deadline) break;
      this.dirty.delete(id);
      const entry = this.entries.get(id);
      if (!entry) continue;
      if (this.mini.has(id)) this.mini.replace(docOf(entry));
      else this.mini.add(docOf(entry));
    }
    return this.dirty.size;
  }

  /** The best matches for `query`, best first: every word required where any code has them all, else any. */
  search(query: string, opts: SearchOptions = {}): SearchHit[] {
    this.flush();
    if (query.trim() === '') return [];
    const language = opts.language?.toLowerCase() || undefined;
    const filter = language ? (r: SearchResult) => this.entries.languageOf(r.id as number)?.toLowerCase() === language : undefined;
    let results = this.mini.search(query, { combineWith: 'AND', filter });
    if (results.length === 0) results = this.mini.search(query, { combineWith: 'OR', filter });
    const limit = opts.limit ?? DEFAULT_LIMIT;
    const hits: SearchHit[] = [];
    for (const r of results) {
      if (hits.length >= limit) break;
      const entry = this.entries.get(r.id as number);
      if (entry) hits.push(hitOf(entry, r));
    }
    return hits;
  }

  private changed(result: { changed: number[]; full: boolean }): { full: boolean } {
    for (const id of result.changed) {
      const count = this.awaited?.get(id);
      if (count !== undefined && (this.entries.get(id)?.refactors.length ?? 0) < count) {
        this.waiting.add(id);
        continue;
      }
      this.awaited?.delete(id);
      this.waiting.delete(id);
      this.dirty.add(id);
    }
    if (result.changed.length) this.updatedAt = Date.now();
    return { full: result.full };
  }
}

/**
 * How much each matched word of the index counts when telling which part of a code matched: a word
 * as typed 3, one the typed word begins 2, one found despite a typo 1 (so that `inject` finds the
 * refactoring that uses inject before the line that prints with inspect).
 */
function weighWords(r: SearchResult): Map<string, number> {
  const typed = r.queryTerms.map((t) => t.toLowerCase());
  const weights = new Map<string, number>();
  for (const term of r.terms) {
    const t = term.toLowerCase();
    weights.set(t, typed.includes(t) ? 3 : typed.some((q) => t.startsWith(q)) ? 2 : 1);
  }
  return weights;
}

/** The result as shown: the code, or the refactoring of it whose words matched most. */
function hitOf(e: CodeEntry, r: SearchResult): SearchHit {
  const words = weighWords(r);
  const found = (...texts: string[]): number => {
    const lower = texts.join('\n').toLowerCase();
    let n = 0;
    for (const [w, weight] of words) if (lower.includes(w)) n += weight;
    return n;
  };
  let best: RefactorEntry | undefined;
  let bestCount = e.seen ? found(e.title, e.comment, e.code, e.author) : -1;
  for (const ref of e.refactors) {
    const n = found(ref.title, ref.comment, ref.code, ref.author);
    if (n > bestCount) {
      best = ref;
      bestCount = n;
    }
  }
  if (!best) {
    return { kind: 'code', codeId: e.id, title: e.title, language: e.language, author: e.author, line: bestLine(e.code, words), score: r.score };
  }
  return {
    kind: 'refactor', codeId: e.id, refactorId: best.id, title: best.title, codeTitle: e.title, language: e.language,
    author: best.author, line: bestLine(best.code, words), score: r.score,
  };
}

/**
 * The line of `code` holding the most of `words` (by weight; the first such), trimmed and cut to
 * MAX_LINE_CHARS around the first of them; the first non-blank line when none holds any.
 */
export function bestLine(code: string, words: ReadonlyMap<string, number>): string {
  const lines = code.split(/\r?\n/);
  let best = -1;
  let bestCount = 0;
  for (let i = 0; i < lines.length; i++) {
    const lower = lines[i].toLowerCase();
    let count = 0;
    for (const [w, weight] of words) if (lower.includes(w)) count += weight;
    if (count > bestCount) {
      best = i;
      bestCount = count;
    }
  }
  const line = (best >= 0 ? lines[best] : lines.find((l) => l.trim() !== '') ?? '').trim();
  if (line.length <= MAX_LINE_CHARS) return line;
  const lower = line.toLowerCase();
  const positions = [...words.keys()].map((w) => lower.indexOf(w)).filter((i) => i >= 0);
  const at = positions.length ? Math.min(...positions) : 0;
  const from = at < MAX_LINE_CHARS / 2 ? 0 : Math.min(at - 20, line.length - MAX_LINE_CHARS);
  return `${from > 0 ? '…' : ''}${line.slice(from, from + MAX_LINE_CHARS)}${from + MAX_LINE_CHARS < line.length ? '…' : ''}`;
}

/** The head of a saved index. */
interface Saved {
  format: number;
  updatedAt: number;
  indexedAt: number;
  lists: Record<string, unknown>;
  /** The MiniSearch part (compactIndex.ts), its postings left out. */
  index: unknown;
  /** How many postings lines follow the head (one per term of the MiniSearch part). */
  postings: number;
  /** Each entry's summary, in the order of the rows after the head. */
  rows: unknown[];
  /** rowsCheck of the summaries and the rows. */
  check: number;
}

/** The latest time a Date can hold (ms since the epoch): a saved time past it is not one this wrote. */
const MAX_TIME = 8.64e15;

/** A time toJSON wrote: a whole number of milliseconds a Date can hold, 0 for never. */
function isTime(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= MAX_TIME;
}

function isSaved(v: unknown): v is Saved {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  return s.format === FORMAT && isTime(s.updatedAt) && isTime(s.indexedAt)
    && typeof s.lists === 'object' && s.lists !== null && !Array.isArray(s.lists) && Object.values(s.lists).every(isProgress)
    && Number.isSafeInteger(s.postings) && (s.postings as number) >= 0 && Array.isArray(s.rows) && 'index' in s
    && Number.isInteger(s.check) && (s.check as number) >= 0 && (s.check as number) <= 0xffff_ffff;
}

function isProgress(v: unknown): v is ListProgress {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  // A list's newest item may be dated before 1970 by its service.
  return Number.isSafeInteger(p.at) && Math.abs(p.at as number) <= MAX_TIME && Number.isSafeInteger(p.id) && (p.id as number) > 0;
}
