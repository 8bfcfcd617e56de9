// How every figure is measured on a shared, noisy machine: baseline and subject interleaved in
// the same run (the order flipped every round, so drift and warm-up hit both alike), each summarised
// by its median, and the figure's ratio the median of the per-round ratios.

export interface Figure {
  readonly name: string;
  /** The subject's median. */
  readonly value: number;
  /** The baseline's median (or a fixed budget, for the bundle). */
  readonly baseline: number;
  readonly ratio: number;
  /** The ratio's goal: `ratio <= goal`, or `ratio >= goal` when `higherIsBetter`. */
  readonly goal: number | null;
  readonly unit: string;
  readonly pass: boolean;
  readonly higherIsBetter?: boolean;
  readonly note?: string;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('median of nothing');
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export interface FigureSpec {
  name: string;
  /** null: a figure shown to explain the others, with no goal of its own (it always passes). */
  goal: number | null;
  unit: string;
  higherIsBetter?: boolean;
  note?: string;
}

/** A figure from the medians; `ratios` (per round) gives the ratio when there is a pairing. */
export function figure(spec: FigureSpec, value: number, baseline: number, ratios?: readonly number[]): Figure {
  const ratio = ratios && ratios.length > 0 ? median(ratios) : value / baseline;
  const pass = spec.goal === null || (spec.higherIsBetter ? ratio >= spec.goal : ratio <= spec.goal);
  return {
    name: spec.name,
    value: round(value),
    baseline: round(baseline),
    ratio: round(ratio),
    goal: spec.goal,
    unit: spec.unit,
    pass,
    ...(spec.higherIsBetter ? { higherIsBetter: true } : {}),
    ...(spec.note ? { note: spec.note } : {}),
  };
}

function round(x: number): number {
  return Number(x.toPrecision(4));
}

export interface PairOptions {
  /** Rounds of (baseline, subject) or (subject, baseline). */
  rounds: number;
  /** Calls per sample: enough that one sample lasts well above the timer's resolution. */
  inner: number;
  /** Untimed calls of each before the first round. */
  warmup?: number;
  /** Stops adding rounds after this long (at least 3 rounds always run). */
  maxMs?: number;
}

export type Task = () => unknown;

/** Milliseconds per call for each side, one sample per round, and the per-round ratios. */
export async function interleave(baseline: Task, subject: Task, o: PairOptions): Promise<{ base: number[]; subj: number[]; ratios: number[] }> {
  await timePerCall(baseline, o.warmup ?? 0);
  await timePerCall(subject, o.warmup ?? 0);
  const base: number[] = [];
  const subj: number[] = [];
  const ratios: number[] = [];
  const started = performance.now();
  for (let r = 0; r < o.rounds; r++) {
    if (r >= 3 && o.maxMs !== undefined && performance.now() - started > o.maxMs) break;
    const first = r % 2 === 0 ? baseline : subject;
    const second = r % 2 === 0 ? subject : baseline;
    const a = await timePerCall(first, o.inner);
    const b = await timePerCall(second, o.inner);
    const [tb, ts] = r % 2 === 0 ? [a, b] : [b, a];
    base.push(tb);
    subj.push(ts);
    ratios.push(ts / tb);
  }
  return { base, subj, ratios };
}

async function timePerCall(task: Task, n: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    // Synchronous tasks are not awaited: a microtask per call would blur the fastest figures.
    const r = task();
    if (r instanceof Promise) await r;
  }
  return (performance.now() - t0) / n;
}

/** One JSON line per figure on stdout: the output `npm run bench` promises. */
export function report(f: Figure): void {
  process.stdout.write(`${JSON.stringify(f)}\n`);
}
