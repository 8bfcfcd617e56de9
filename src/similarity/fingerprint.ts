// Structural fingerprints: the hashes of every K consecutive token kinds (k-grams), winnowed as MOSS
// and Dolos do (in each window of W consecutive k-grams the least hash is kept), so that two codes
// that share a run of at least K + W - 1 tokens share a fingerprint. Names and literals are already
// kinds of their own (tokens.ts), so renaming changes nothing here. K and W are tuned for the
// catalog's 5-to-40-line snippets on the benchmark (docs/benchmarks.md, "Similar code"); Dolos's 23
// and 17 are for whole files. K is 8, not 12: a line added or changed spoils every k-gram across
// it, which in a snippet of a few dozen tokens is most of them. On the same queries, with as many
// fingerprints, 8 ranked the code a renamed and edited copy was made from first for 93% of them
// against 89%; unrelated code scores higher with it (more of it reaches MIN_SIMILARITY), though
// nineteen functions in twenty still score below the median true match. Short texts keep their
// kinds too: a short query is ranked by aligning them (align.ts).
import { ALIGNED_MAX } from './align';
import type { Token } from './tokens';

export const K = 8;
export const W = 6;

export interface Fingerprints {
  /** Distinct fingerprints, ascending. */
  hashes: Uint32Array;
  /** The hash of each token's kind, in order, for a text of at most ALIGNED_MAX tokens: short code is also compared by aligning them (align.ts). */
  kinds?: Uint32Array;
  /** With kinds: anchorsOf(its tokens), the texts renaming leaves as they were. */
  anchors?: Uint32Array;
}

const kindHashes = new Map<string, number>();

/** textHash of a kind, kept (there are a few hundred kinds in all). */
function kindHash(kind: string): number {
  let h = kindHashes.get(kind);
  if (h === undefined) {
    h = textHash(kind);
    if (kindHashes.size < 10_000) kindHashes.set(kind, h);
  }
  return h;
}

/** The hash of each token's kind, in order. */
export function kindsOf(tokens: readonly Token[]): Uint32Array {
  return Uint32Array.from(tokens, (t) => kindHash(t.kind));
}

/** The hash of every run of `k` kinds (kindsOf), in order. */
function kgrams(kinds: ArrayLike<number>, k: number): Uint32Array {
  const n = Math.max(0, kinds.length - k + 1);
  const grams = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let h = 0x9e3779b9;
    for (let j = 0; j < k; j++) h = Math.imul((h ^ kinds[i + j]) >>> 0, 0x85ebca6b) ^ (h >>> 13);
    grams[i] = (h ^ (h >>> 16)) >>> 0;
  }
  return grams;
}

/** The winnowed fingerprints of a token sequence (none when it is shorter than K tokens), and its kinds and anchors when it is short. */
export function fingerprint(tokens: readonly Token[], k = K, w = W): Fingerprints {
  const printed = fingerprintKinds(kindsOf(tokens), k, w);
  return printed.kinds ? { ...printed, anchors: anchorsOf(tokens) } : printed;
}

/** fingerprint() of tokens of these kinds (kindsOf), without their anchors. */
export function fingerprintKinds(kinds: Uint32Array, k = K, w = W): Fingerprints {
  const hashes = winnowed(kinds, k, w);
  return kinds.length <= ALIGNED_MAX ? { hashes, kinds } : { hashes };
}

/** Tokens after these are a member of something (a field, a method, a namespace's name): not the code's own to rename. */
const MEMBER_OF = new Set(['.', '?.', '->', '::']);

/**
 * The hashes of the texts in `tokens` that renaming leaves as they were, each once, ascending: each
 * literal (its blanks folded, so that reindenting a docstring keeps it) and each member's name (after
 * `.`, `?.`, `->` or `::`: the fields and methods of objects the code did not make, an API's names).
 * A short query's alignment says which codes are alike in shape; these say which of those the user
 * copied (similarIndex.ts).
 */
export function anchorsOf(tokens: readonly Token[]): Uint32Array {
  const found = new Set<number>();
  tokens.forEach((t, i) => {
    if (t.cls === 'literal') found.add(textHash(`L${t.text.replace(/\s+/g, ' ').trim()}`));
    else if (t.cls === 'name' && i > 0 && MEMBER_OF.has(tokens[i - 1].kind)) found.add(textHash(`M${t.text}`));
  });
  return Uint32Array.from(found).sort();
}

/** A 32-bit FNV-1a of a text. */
function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Every k-gram's hash once, ascending, none winnowed away: short texts are picked for aligning by these. */
export function allGrams(kinds: ArrayLike<number>, k: number): Uint32Array {
  return Uint32Array.from(new Set(kgrams(kinds, k))).sort();
}

function winnowed(kinds: Uint32Array, k: number, w: number): Uint32Array {
  const n = kinds.length - k + 1;
  if (n <= 0) return new Uint32Array(0);
  const grams = kgrams(kinds, k);
  // Each window's least hash (the rightmost of equals), kept once however many windows pick it.
  const picked = new Set<number>();
  const take = (at: number): void => void picked.add(grams[at]);
  const windows = Math.max(1, n - w + 1);
  let last = -1;
  for (let s = 0; s < windows; s++) {
    let best = s;
    for (let i = s; i < Math.min(s + w, n); i++) if (grams[i] <= grams[best]) best = i;
    if (best !== last) take(best);
    last = best;
  }
  return new Uint32Array([...picked]).sort();
}

/** How many hashes two ascending arrays share. */
export function shared(a: Uint32Array, b: Uint32Array): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      n++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return n;
}

/**
 * How alike two codes are, 0 to 1: the fingerprints both have, over all of either's (Dolos's
 * similarity, the Dice coefficient of the two sets).
 */
export function similarity(a: Uint32Array, b: Uint32Array): number {
  const total = a.length + b.length;
  return total === 0 ? 0 : (2 * shared(a, b)) / total;
}

/**
 * The first and last of `query`'s tokens inside a run of K tokens that `other` has too, or undefined
 * when they share none: the lines of the user's code that matched a catalog code, for showing. Every
 * k-gram is compared here, not only the winnowed ones, so the ends of a match are where they are.
 */
export function coveredSpan(query: readonly Token[], other: readonly Token[], k = K): [number, number] | undefined {
  const theirs = new Set(kgrams(kindsOf(other), k));
  let first = -1;
  let last = -1;
  kgrams(kindsOf(query), k).forEach((h, i) => {
    if (!theirs.has(h)) return;
    if (first < 0) first = i;
    last = i + k - 1;
  });
  return first < 0 ? undefined : [first, last];
}
