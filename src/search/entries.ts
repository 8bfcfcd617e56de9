// What search knows of each code: the code as the service gave it, the tags it was seen under, and
// every refactoring of it seen, however it was seen (a list, a tag, the single-code answer, recent
// refactorings). One entry per code, so that the index holds a code's words once however many of
// its refactorings repeat them; a refactoring seen before its code makes an entry that knows only
// it. Bounded: MAX_CODES entries, MAX_STORED_CHARS of text, the first MAX_TEXT_CHARS of each text.
import type { Code, Refactor } from '../api/model';

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

export class Entries {
  private readonly byId = new Map<number, CodeEntry>();
  private chars = 0;

  constructor(private readonly limits: EntryLimits = DEFAULT_ENTRY_LIMITS) {}

  get size(): number {
    return this.byId.size;
  }

  get(id: number): CodeEntry | undefined {
    return this.byId.get(id);
  }

  values(): IterableIterator<CodeEntry> {
    return this.byId.values();
  }

  refactorCount(): number {
    let n = 0;
    for (const e of this.byId.values()) n += e.refactors.length;
    return n;
  }

  /** How many of the codes the service gave (not only their refactorings). */
  codeCount(): number {
    let n = 0;
    for (const e of this.byId.values()) if (e.seen) n++;
    return n;
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
      const old = this.byId.get(code.id);
      const next: CodeEntry = {
        id: code.id, title: code.title, language: code.language,
        // The single-code answer names no registered author: what a list said is kept.
        author: code.user?.name || old?.author || '',
        comment: cut(code.comment), code: cut(code.code),
        tags: union(old?.tags ?? [], tag ? [tag.toLowerCase()] : []),
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
      const old = this.byId.get(r.codeId);
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
    const old = this.byId.get(entry.id);
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
    const old = this.byId.get(next.id);
    if (old && sameEntry(old, next)) return 'same';
    const grows = charsOf(next) - (old ? charsOf(old) : 0);
    if ((!old && this.byId.size >= this.limits.maxCodes) || (grows > 0 && this.chars + grows > this.limits.maxStoredChars)) return 'full';
    this.byId.set(next.id, next);
    this.chars += grows;
    return 'changed';
  }
}

function refactorEntry(r: Refactor): RefactorEntry {
  return {
    id: r.id, title: r.title, author: r.userName || r.user?.name || '', comment: cut(r.comment), code: cut(r.code),
    createdAt: r.createdAt?.getTime() ?? 0,
  };
}

/** The refactorings of both, by id, the newer answer winning; at most MAX_REFACTORS_PER_CODE (the newest ids). */
function mergeRefactors(old: readonly RefactorEntry[], got: readonly RefactorEntry[]): RefactorEntry[] {
  if (got.length === 0) return [...old];
  const byId = new Map(old.map((r) => [r.id, r]));
  for (const r of got) byId.set(r.id, { ...r, author: r.author || byId.get(r.id)?.author || '' });
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
function cut(text: string): string {
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

/** A saved text, already kept as cut() keeps it: only held to the bound. */
function bound(text: string): string {
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
  return a.id === b.id && a.title === b.title && a.author === b.author && a.comment === b.comment && a.code === b.code && a.createdAt === b.createdAt;
}

// The saved form: arrays, not objects (a third of the bytes, and quicker to read).
type RefactorRow = [number, string, string, string, string, number];
export type EntryRow = [number, string, string, string, string, string, string[], number, 0 | 1, RefactorRow[]];

export function rowOf(e: CodeEntry): EntryRow {
  return [e.id, e.title, e.language, e.author, e.comment, e.code, e.tags, e.createdAt, e.seen ? 1 : 0,
    e.refactors.map((r) => [r.id, r.title, r.author, r.comment, r.code, r.createdAt])];
}

/** The entry a row holds, or undefined when the row is not one rowOf wrote (a file cut short, or edited). */
export function entryOf(row: unknown): CodeEntry | undefined {
  if (!Array.isArray(row) || row.length !== 10) return undefined;
  const [id, title, language, author, comment, code, tags, createdAt, seen, refactors] = row as unknown[];
  if (!isId(id) || !allStrings([title, language, author, comment, code]) || typeof createdAt !== 'number') return undefined;
  if (!Array.isArray(tags) || !allStrings(tags) || (seen !== 0 && seen !== 1) || !Array.isArray(refactors)) return undefined;
  const rs: RefactorEntry[] = [];
  for (const r of refactors as unknown[]) {
    if (!Array.isArray(r) || r.length !== 6) return undefined;
    const [rid, rtitle, rauthor, rcomment, rcode, rcreated] = r as unknown[];
    if (!isId(rid) || !allStrings([rtitle, rauthor, rcomment, rcode]) || typeof rcreated !== 'number') return undefined;
    rs.push({ id: rid, title: rtitle as string, author: rauthor as string, comment: bound(rcomment as string), code: bound(rcode as string), createdAt: rcreated });
  }
  return {
    id, title: title as string, language: language as string, author: author as string, comment: bound(comment as string),
    code: bound(code as string), tags: tags as string[], createdAt, seen: seen === 1, refactors: rs.slice(-MAX_REFACTORS_PER_CODE),
  };
}

function isId(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
}

function allStrings(vs: readonly unknown[]): boolean {
  return vs.every((v) => typeof v === 'string');
}
