// The fingerprints of every code search knows and of each of its refactorings, kept beside the
// search index (saved in a file of their own next to it, by the extension and the CLI alike), so
// that finding similar code works offline over the whole catalog once it is indexed. Each code's
// fingerprints are kept against a stamp of its texts (CodeSearch.stamps): `update` fingerprints only
// what is new or changed since, and drops what search no longer holds.
import type { CodeSearch } from '../search/searchIndex';
import { ALIGNED_CANDIDATES, ALIGNED_MAX, alignedSimilarity, ANCHOR_CANDIDATES, ANCHOR_WEIGHT, CANDIDATE_K, SHORT_QUERY } from './align';
import { allGrams, fingerprint, fingerprintKinds, K, similarity, W, type Fingerprints } from './fingerprint';
import type { Tokenizers } from './tokenize';
import { TooLongError, type TokenizerKind } from './tokens';

/** The format of toJSON's text; fingerprints saved in another (or with other K, W or tokens) are made again. */
const FORMAT = 3;
/** A table of at most this many kinds has each place saved in one byte; a larger one, two. */
const ONE_BYTE_KINDS = 256;
/** Bumped whenever what a token's kind is changes, so that saved fingerprints are made again. */
export const TOKENS_VERSION = 1;

interface Part {
  /** 0 for the code itself, else a refactoring's id. */
  refactorId: number;
  hashes: Uint32Array;
  /** A short text's kinds (Fingerprints.kinds), aligned with short queries. */
  kinds?: Uint32Array;
  /** All of its k-grams of CANDIDATE_K kinds, made when a short query first needs them. */
  grams?: Uint32Array;
}

interface Printed {
  language: string;
  stamp: string;
  by: TokenizerKind;
  parts: Part[];
  /** The anchors of its short texts (Fingerprints.anchors), each once, ascending: its refactorings mostly keep the code's. */
  anchors: Uint32Array;
}

export interface SimilarMatch {
  codeId: number;
  /** 0 to 1: the best of the code's own similarity and its refactorings'. */
  similarity: number;
  /** `lexical` when the language has no grammar: shown as less certain. */
  by: TokenizerKind;
  /** Which text of the code was most alike: 0 for the code itself, else a refactoring's id. */
  refactorId: number;
}

/** Below this similarity a code is not shown as like the query. */
export const MIN_SIMILARITY = 0.3;
export const DEFAULT_SIMILAR_LIMIT = 10;
export const MAX_SIMILAR_LIMIT = 50;

export class SimilarityIndexError extends Error {}

/** Which codes of a language hold each anchor of their short texts, made when a short query first needs them. */
interface Anchors {
  /** How many codes of the language have a short text. */
  codes: number;
  holders: Map<number, number[]>;
}

const NO_ANCHORS = new Uint32Array(0);

export class SimilarityIndex {
  private readonly codes = new Map<number, Printed>();
  /** By language (lower case); dropped whenever a code changes. */
  private anchors = new Map<string, Anchors>();

  get size(): number {
    return this.codes.size;
  }

  /** How many codes of `language` (the service's name, any lettercase) have fingerprints: what a query in it compares. */
  codesIn(language: string): number {
    const wanted = language.toLowerCase();
    let n = 0;
    for (const printed of this.codes.values()) if (printed.language.toLowerCase() === wanted) n++;
    return n;
  }

  /**
   * Brings the fingerprints up to date with `search`: fingerprints each code whose texts are new or
   * changed, and drops those search no longer holds. Returns how many codes were fingerprinted.
   * A text too long to compare (a service takes longer ones) is left out, as an empty one is: the
   * code's other texts are still found. `onProgress` is awaited after each code: the extension gives
   * its host back there.
   */
  async update(search: CodeSearch, tokenizers: Tokenizers, onProgress?: (done: number, of: number) => void | Promise<void>): Promise<number> {
    const current = new Set<number>();
    const stale: Array<{ id: number; stamp: string }> = [];
    for (const { id, stamp } of search.stamps()) {
      current.add(id);
      if (this.codes.get(id)?.stamp !== stamp) stale.push({ id, stamp });
    }
    for (const id of this.codes.keys()) if (!current.has(id)) this.codes.delete(id);
    if (stale.length > 0 || this.codes.size !== current.size) this.anchors = new Map();
    let done = 0;
    for (const { id, stamp } of stale) {
      const entry = search.entry(id);
      if (!entry) continue;
      const texts: Array<[number, string]> = [[0, entry.seen ? entry.code : ''], ...entry.refactors.map((r): [number, string] => [r.id, r.code])];
      const parts: Part[] = [];
      const anchors = new Set<number>();
      let by: TokenizerKind = 'lexical';
      for (const [refactorId, text] of texts) {
        if (text.trim() === '') continue;
        const tokenized = await tokenizers.tokenize(text, entry.language).catch((e: unknown) => {
          if (e instanceof TooLongError) return undefined;
          throw e;
        });
        if (!tokenized) continue;
        by = tokenized.by;
        const printed = fingerprint(tokenized.tokens);
        if (printed.hashes.length === 0) continue;
        parts.push({ refactorId, hashes: printed.hashes, kinds: printed.kinds });
        for (const anchor of printed.anchors ?? []) anchors.add(anchor);
      }
      this.codes.set(id, { language: entry.language, stamp, by, parts, anchors: Uint32Array.from(anchors).sort() });
      done++;
      await onProgress?.(done, stale.length);
    }
    return done;
  }

  /**
   * The codes most like `query`, in `language` (the service's name), best first. A short query (under
   * SHORT_QUERY tokens) is aligned with the short texts that share most k-grams with it (align.ts),
   * and scored by that; longer texts, and every text for a longer query, by their fingerprints.
   */
  query(query: Fingerprints, language: string, limit = DEFAULT_SIMILAR_LIMIT): SimilarMatch[] {
    if (query.hashes.length === 0) return [];
    const wanted = language.toLowerCase();
    const aligned = query.kinds !== undefined && query.kinds.length < SHORT_QUERY ? this.alignedWith(query.kinds, query.anchors ?? NO_ANCHORS, wanted) : undefined;
    const found: Array<{ codeId: number; similarity: number; printed: Printed; best: Part }> = [];
    for (const [codeId, printed] of this.codes) {
      if (printed.language.toLowerCase() !== wanted) continue;
      let best: Part | undefined;
      let score = 0;
      for (const part of printed.parts) {
        const s = aligned && part.kinds ? (aligned.get(part) ?? 0) : similarity(query.hashes, part.hashes);
        // The code itself wins a tie: its refactoring is what the user is offered.
        if (s > score) {
          score = s;
          best = part;
        }
      }
      if (best && score >= MIN_SIMILARITY) found.push({ codeId, similarity: score, printed, best });
    }
    found.sort((a, b) => b.similarity - a.similarity || a.codeId - b.codeId);
    return found.slice(0, Math.max(0, limit)).map(({ codeId, similarity: s, printed, best }) => ({
      codeId, similarity: s, by: printed.by, refactorId: best.refactorId,
    }));
  }

  /**
   * The score of short query `kinds` against each short text of the codes in `language` (lower case)
   * worth aligning with it: the ALIGNED_CANDIDATES codes whose short texts share most k-grams of
   * CANDIDATE_K kinds with it, and the ANCHOR_CANDIDATES that share most of its `anchors`, weighed by
   * how rare they are. A text's score is its alignment (alignedSimilarity), raised towards 1 by the
   * anchors it shares (anchorsShared) times ANCHOR_WEIGHT: a copy with most of its lines changed
   * keeps its strings and the members it uses when its shape is no longer its own. The short texts of
   * other codes are not alike enough to show.
   */
  private alignedWith(kinds: Uint32Array, anchors: Uint32Array, language: string): Map<Part, number> {
    const grams = allGrams(kinds, CANDIDATE_K);
    const ranked: Array<{ score: number; codeId: number }> = [];
    for (const [codeId, printed] of this.codes) {
      if (printed.language.toLowerCase() !== language) continue;
      let score = 0;
      for (const part of printed.parts) if (part.kinds) score = Math.max(score, similarity(grams, (part.grams ??= allGrams(part.kinds, CANDIDATE_K))));
      if (score > 0) ranked.push({ score, codeId });
    }
    ranked.sort((a, b) => b.score - a.score || a.codeId - b.codeId);
    const candidates = new Set(ranked.slice(0, ALIGNED_CANDIDATES).map((r) => r.codeId));
    const known = this.anchorsIn(language);
    const weights = new Map<number, number>();
    const byAnchors = new Map<number, number>();
    for (const anchor of anchors) {
      const holders = known.holders.get(anchor);
      if (!holders) continue;
      const weight = rarity(holders.length, known.codes);
      weights.set(anchor, weight);
      for (const codeId of holders) byAnchors.set(codeId, (byAnchors.get(codeId) ?? 0) + weight);
    }
    const anchored = [...byAnchors].filter(([, w]) => w > 0).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    for (const [codeId] of anchored.slice(0, ANCHOR_CANDIDATES)) candidates.add(codeId);
    const scores = new Map<Part, number>();
    for (const codeId of candidates) {
      const printed = this.codes.get(codeId)!;
      const shared = weights.size > 0 ? anchorsShared(anchors, printed.anchors, weights) : 0;
      for (const part of printed.parts) {
        if (!part.kinds) continue;
        const aligned = alignedSimilarity(kinds, part.kinds);
        scores.set(part, aligned + (1 - aligned) * ANCHOR_WEIGHT * shared);
      }
    }
    return scores;
  }

  /** Which codes of `language` (lower case) hold each anchor of their short texts. */
  private anchorsIn(language: string): Anchors {
    let found = this.anchors.get(language);
    if (found) return found;
    found = { codes: 0, holders: new Map() };
    for (const [codeId, printed] of this.codes) {
      if (printed.language.toLowerCase() !== language) continue;
      if (printed.parts.some((part) => part.kinds)) found.codes++;
      for (const anchor of printed.anchors) {
        const holders = found.holders.get(anchor);
        if (holders) holders.push(codeId);
        else found.holders.set(anchor, [codeId]);
      }
    }
    this.anchors.set(language, found);
    return found;
  }

  /**
   * The fingerprints as text: each text's winnowed hashes, or for a short text its kinds instead (its
   * hashes are made from them when read), each kind as its place in a table of the kinds used, most
   * used first: one byte each while there are at most 256 kinds, else two.
   */
  toJSON(): string {
    const uses = new Map<number, number>();
    for (const p of this.codes.values()) for (const part of p.parts) for (const kind of part.kinds ?? []) uses.set(kind, (uses.get(kind) ?? 0) + 1);
    const kinds = [...uses].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([kind]) => kind);
    const places = new Map(kinds.map((kind, i) => [kind, i]));
    const wide = kinds.length > ONE_BYTE_KINDS;
    const codes = [...this.codes].map(([id, p]) => [id, p.language, p.stamp, p.by === 'tree' ? 1 : 0, p.parts.map((part) => part.kinds
      ? [part.refactorId, placesBase64(Array.from(part.kinds, (kind) => places.get(kind)!), wide), 1]
      : [part.refactorId, base64Of(part.hashes)]), ...(p.anchors.length > 0 ? [base64Of(p.anchors)] : [])]);
    return JSON.stringify({ format: FORMAT, k: K, w: W, tokens: TOKENS_VERSION, kinds, codes });
  }

  /**
   * Fingerprints toJSON saved; an empty index when they were made another way (another format, K, W
   * or tokens: they are made again). A text that is not one (a cut file, hostile content) is a
   * SimilarityIndexError.
   */
  static fromJSON(text: string): SimilarityIndex {
    const index = new SimilarityIndex();
    let saved: unknown;
    try {
      saved = JSON.parse(text);
    } catch (e) {
      throw new SimilarityIndexError(`not saved fingerprints (${(e as Error).message})`);
    }
    if (!isObject(saved)) throw new SimilarityIndexError('not saved fingerprints');
    if (saved.format !== FORMAT || saved.k !== K || saved.w !== W || saved.tokens !== TOKENS_VERSION) return index;
    const kinds = saved.kinds;
    if (!Array.isArray(saved.codes) || !Array.isArray(kinds) || !kinds.every((k) => Number.isInteger(k) && k >= 0 && k <= 0xffffffff)) {
      throw new SimilarityIndexError('not saved fingerprints');
    }
    for (const row of saved.codes) {
      const printed = printedOf(row, kinds as number[]);
      if (!printed) throw new SimilarityIndexError('saved fingerprints are damaged');
      index.codes.set(printed[0], printed[1]);
    }
    return index;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function printedOf(row: unknown, kinds: readonly number[]): [number, Printed] | undefined {
  if (!Array.isArray(row) || row.length < 5 || row.length > 6) return undefined;
  const [id, language, stamp, tree, parts, anchorText] = row as unknown[];
  if (!Number.isSafeInteger(id) || typeof language !== 'string' || typeof stamp !== 'string' || (tree !== 0 && tree !== 1) || !Array.isArray(parts)) return undefined;
  const anchors = anchorText === undefined ? NO_ANCHORS : typeof anchorText === 'string' && anchorText !== '' ? hashesOf(anchorText) : undefined;
  if (!anchors) return undefined;
  const read: Part[] = [];
  for (const part of parts as unknown[]) {
    if (!Array.isArray(part) || part.length < 2 || part.length > 3) return undefined;
    const [refactorId, text, short] = part as unknown[];
    if (!Number.isSafeInteger(refactorId) || typeof text !== 'string') return undefined;
    if (short === undefined) {
      const hashes = hashesOf(text);
      if (!hashes) return undefined;
      read.push({ refactorId: refactorId as number, hashes });
      continue;
    }
    const places = short === 1 ? placesOf(text, kinds.length > ONE_BYTE_KINDS) : undefined;
    if (!places || places.length > ALIGNED_MAX || places.some((at) => at >= kinds.length)) return undefined;
    const printed = fingerprintKinds(Uint32Array.from(places, (at) => kinds[at]));
    if (printed.hashes.length === 0) return undefined;
    read.push({ refactorId: refactorId as number, hashes: printed.hashes, kinds: printed.kinds });
  }
  return [id as number, { language, stamp, by: tree === 1 ? 'tree' : 'lexical', parts: read, anchors }];
}

/**
 * How much of a rare text two short texts share, 0 to 1: the Dice coefficient of their anchors, each
 * shared anchor counting its `weights` (rarity: 1 when one code holds it, towards 0 as most do).
 */
function anchorsShared(query: Uint32Array, theirs: Uint32Array, weights: ReadonlyMap<number, number>): number {
  if (query.length + theirs.length === 0) return 0;
  let sum = 0;
  let i = 0;
  let j = 0;
  while (i < query.length && j < theirs.length) {
    if (query[i] === theirs[j]) {
      sum += weights.get(query[i]) ?? 0;
      i++;
      j++;
    } else if (query[i] < theirs[j]) i++;
    else j++;
  }
  return (2 * sum) / (query.length + theirs.length);
}

/** 1 for an anchor one of `codes` holds, 0 for one they all hold: its inverse frequency over the most it can be. */
function rarity(holders: number, codes: number): number {
  return codes <= 1 ? 1 : Math.max(0, Math.log(codes / holders) / Math.log(codes));
}

/** Places in the table of kinds, one byte each or two (little-endian) when `wide`, in base64. */
function placesBase64(places: readonly number[], wide: boolean): string {
  let binary = '';
  for (const at of places) binary += wide ? String.fromCharCode(at & 0xff, at >>> 8) : String.fromCharCode(at);
  return btoa(binary);
}

/** The places placesBase64 wrote, or undefined when the text is not that. */
function placesOf(text: string, wide: boolean): number[] | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  if (wide && binary.length % 2 !== 0) return undefined;
  const places: number[] = [];
  for (let i = 0; i < binary.length; i += wide ? 2 : 1) places.push(wide ? binary.charCodeAt(i) | (binary.charCodeAt(i + 1) << 8) : binary.charCodeAt(i));
  return places;
}

/** Little-endian bytes of the hashes, in base64 (btoa: both extension hosts and Node have it). */
function base64Of(hashes: Uint32Array): string {
  let binary = '';
  for (const h of hashes) binary += String.fromCharCode(h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff, h >>> 24);
  return btoa(binary);
}

/** The hashes base64Of wrote, or undefined when the text is not that (ascending order checked too). */
function hashesOf(text: string): Uint32Array | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  if (binary.length % 4 !== 0) return undefined;
  const hashes = new Uint32Array(binary.length / 4);
  for (let i = 0; i < hashes.length; i++) {
    const at = 4 * i;
    hashes[i] = (binary.charCodeAt(at) | (binary.charCodeAt(at + 1) << 8) | (binary.charCodeAt(at + 2) << 16) | (binary.charCodeAt(at + 3) << 24)) >>> 0;
    if (i > 0 && hashes[i] <= hashes[i - 1]) return undefined;
  }
  return hashes;
}
