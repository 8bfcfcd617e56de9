// The one rule for the ids of codes, refactorings and users, wherever one is read: the decoder, the
// search index on disk, document paths, the code view's messages. The service numbers rows from 1;
// 0, a negative or a fraction names no row, and letting one through only fails later, far away.

/** A whole number from 1 to the largest safe integer. */
export function isId(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
}
