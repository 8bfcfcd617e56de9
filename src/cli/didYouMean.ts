// "Did you mean …?": the name a mistyped command, option, help topic or language was most likely
// meant to be.

/** Edits (a letter added, removed, changed, or two side by side swapped) from `a` to `b`. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The one of `names` nearest to `typed` (lettercase aside) when it is near enough to be a slip: at
 * most two edits, and fewer than half of its letters; undefined when none is, or two are as near.
 */
export function nearest(typed: string, names: readonly string[]): string | undefined {
  const t = typed.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  let tie = false;
  for (const name of new Set(names)) {
    const n = distance(t, name.toLowerCase());
    if (n < bestDistance) {
      best = name;
      bestDistance = n;
      tie = false;
    } else if (n === bestDistance) tie = true;
  }
  const limit = Math.min(2, Math.ceil(t.replace(/^-+/, '').length / 2) - 1);
  return best !== undefined && !tie && bestDistance > 0 && bestDistance <= limit ? best : undefined;
}

/** ` (did you mean "X"?)` for the nearest of `names`, or nothing. */
export function didYouMean(typed: string, names: readonly string[]): string {
  const name = nearest(typed, names);
  return name === undefined ? '' : ` (did you mean "${name}"?)`;
}
