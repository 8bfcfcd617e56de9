// Short code, compared token by token. Winnowed fingerprints (fingerprint.ts) keep about a third of
// a text's k-grams, and a line added or changed spoils every k-gram across it: in a code of a few
// dozen tokens little is left, and what is left is as near to many other short codes. So a short
// query is ranked by aligning its token kinds with those of the short catalog texts most like it,
// the way a person reads a one-line difference: a run of tokens added, removed or replaced costs
// little more than one token (a gap is opened once, then grows cheaply), other differences a token
// each. On the benchmark (docs/benchmarks.md, "Similar code") this ranks a short code first for
// 92% of its edited copies, against 75% by fingerprints alone. Where the changed line is most of the
// code, what is left of its shape is as near to many others: the texts renaming leaves (its strings
// and the members it uses, fingerprint.ts's anchorsOf) then say which of them it was copied from.

/** Queries of fewer tokens than this are ranked by alignment. */
export const SHORT_QUERY = 48;
/**
 * Texts of at most this many tokens keep their kinds for aligning: twice a short query, since a
 * text more than twice as long as the query could not score half against it.
 */
export const ALIGNED_MAX = 2 * SHORT_QUERY;
/** The k of the k-grams that pick which short texts are aligned (all of them, not winnowed). */
export const CANDIDATE_K = 4;
/** How many codes, most alike by those k-grams, are aligned with a short query. */
export const ALIGNED_CANDIDATES = 50;
/**
 * How many codes more are aligned with a short query: those that share most of its anchors (the
 * strings and members renaming leaves, fingerprint.ts's anchorsOf), the rarer the more.
 */
export const ANCHOR_CANDIDATES = 10;
/**
 * How far a short text's score goes from its alignment towards 1 when its code holds every anchor of
 * a short query, and they are rare: half way. A copy whose one changed line is most of it is no
 * longer shaped like its code, but keeps its docstring, its strings and the members it uses.
 */
export const ANCHOR_WEIGHT = 0.5;

/**
 * What two unrelated short codes of one language score by alignment, about: the median over pairs of
 * short functions drawn at random from the benchmark's catalog was 0.44 (the 99th percentile 0.66),
 * where an edited copy scores 0.88 (the 5th percentile 0.73). Shown and compared with MIN_SIMILARITY
 * as how far above that a pair is, so that 0 is as alike as chance, as for fingerprints.
 */
export const ALIGNED_CHANCE = 0.45;

/** alignment() rescaled so that ALIGNED_CHANCE is 0 (and below it too) and the same kinds 1. */
export function alignedSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return Math.max(0, (alignment(a, b) - ALIGNED_CHANCE) / (1 - ALIGNED_CHANCE));
}

/** What opening a gap costs, what each token in it costs, and what a token replaced by another costs. */
const GAP_OPEN = 2;
const GAP_EXTEND = 0.5;
const REPLACED = 1;

/**
 * How alike two sequences of kinds are, 0 to 1: 1 less the cheapest alignment's cost over the longer
 * one's length (Gotoh's alignment with affine gaps, in two rows).
 */
export function alignment(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  const n = b.length;
  const FAR = Number.MAX_SAFE_INTEGER;
  // Per column j: the best cost of a[0..i) against b[0..j) ending in a pair (m), a gap in b (x) or a gap in a (y).
  let m = new Float64Array(n + 1);
  let x = new Float64Array(n + 1);
  let y = new Float64Array(n + 1);
  let m2 = new Float64Array(n + 1);
  let x2 = new Float64Array(n + 1);
  let y2 = new Float64Array(n + 1);
  m[0] = 0;
  x[0] = FAR;
  y[0] = FAR;
  for (let j = 1; j <= n; j++) {
    m[j] = FAR;
    x[j] = FAR;
    y[j] = GAP_OPEN + (j - 1) * GAP_EXTEND;
  }
  for (let i = 1; i <= a.length; i++) {
    m2[0] = FAR;
    y2[0] = FAR;
    x2[0] = GAP_OPEN + (i - 1) * GAP_EXTEND;
    const ai = a[i - 1];
    for (let j = 1; j <= n; j++) {
      m2[j] = Math.min(m[j - 1], x[j - 1], y[j - 1]) + (ai === b[j - 1] ? 0 : REPLACED);
      x2[j] = Math.min(Math.min(m[j], y[j]) + GAP_OPEN, x[j] + GAP_EXTEND);
      y2[j] = Math.min(Math.min(m2[j - 1], x2[j - 1]) + GAP_OPEN, y2[j - 1] + GAP_EXTEND);
    }
    [m, m2] = [m2, m];
    [x, x2] = [x2, x];
    [y, y2] = [y2, y];
  }
  const cost = Math.min(m[n], x[n], y[n]);
  return Math.max(0, 1 - cost / longer);
}
