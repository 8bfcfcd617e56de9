// Figures 3 (activation) and 4 (tree latency), measured inside VS Code: runs the integration
// launcher (code-server and headless chromium) in the Node extension host with REFACTOR_BROWSER_BENCH
// set, so that only test/integration/bench.test.ts runs, and collects the JSON lines it reports.
// `vscode.tree.cold` happens once per window (the first expansion after activation), so one sample
// swings with whatever else the machine does: it is the median of TREE_WINDOWS fresh windows.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { median, type Figure } from './measure';

const REPO = path.resolve(__dirname, '../..');
const LIMIT_S = 600;
/** Fresh windows `vscode.tree.cold` is the median of. */
export const TREE_WINDOWS = 5;
const TREE_COLD = 'vscode.tree.cold';
/** Mocha's grep for bench.test.ts's first test alone: activation and the tree, without the search figures. */
const TREE_TEST = 'activate\\(\\), and tree latency';

/** Every figure, with `vscode.tree.cold` the median of its first window and TREE_WINDOWS - 1 more. */
export async function vscodeFigures(): Promise<Figure[]> {
  const figures = await oneWindow();
  const more: Figure[][] = [];
  for (let i = 1; i < TREE_WINDOWS; i++) more.push(await oneWindow(TREE_TEST));
  return withTreeColdMedian(figures, [figures, ...more]);
}

/** `npm run bench -- vscode.tree`: the first test alone in TREE_WINDOWS fresh windows, `vscode.tree.cold` their median. */
export async function vscodeTreeFigures(): Promise<Figure[]> {
  const windows: Figure[][] = [];
  for (let i = 0; i < TREE_WINDOWS; i++) windows.push(await oneWindow(TREE_TEST));
  return withTreeColdMedian(windows[0], windows);
}

/**
 * `figures` with `vscode.tree.cold` replaced by the median over `windows` (its value, its baseline
 * and so its ratio), passing when the median is within the goal; the note lists every sample.
 */
export function withTreeColdMedian(figures: readonly Figure[], windows: ReadonlyArray<readonly Figure[]>): Figure[] {
  const samples = windows.map((w) => w.find((f) => f.name === TREE_COLD));
  if (samples.some((s) => s === undefined)) throw new Error(`a window reported no ${TREE_COLD}`);
  const cold = samples as Figure[];
  const first = cold[0];
  const value = median(cold.map((f) => f.value));
  const baseline = median(cold.map((f) => f.baseline));
  const round = (x: number): number => Number(x.toPrecision(4));
  const merged: Figure = {
    ...first,
    value: round(value),
    baseline: round(baseline),
    ratio: round(value / baseline),
    pass: first.goal === null || value <= first.goal,
    note: `${first.note ?? ''}; the median of ${cold.length} fresh windows (${cold.map((f) => f.value).join(', ')} ${first.unit})`,
  };
  return figures.map((f) => (f.name === TREE_COLD ? merged : f));
}

/** One fresh window running bench.test.ts (only the tests `grep` names, when given). */
function oneWindow(grep?: string): Promise<Figure[]> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, REFACTOR_BROWSER_BENCH: '1', REFACTOR_BROWSER_TEST_HOSTS: 'node', REFACTOR_BROWSER_TEST_TIMEOUT: String(LIMIT_S) };
    if (grep === undefined) delete env.REFACTOR_BROWSER_TEST_GREP;
    else env.REFACTOR_BROWSER_TEST_GREP = grep;
    const child = spawn(process.execPath, [path.join(REPO, 'out/test/runners/codeServer.js')], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    const figures: Figure[] = [];
    const tail: string[] = [];
    let rest = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const json = line.trim().startsWith('{"name"') ? tryParse(line.trim()) : undefined;
        if (json) figures.push(json);
        else tail.push(line);
      }
      tail.splice(0, Math.max(0, tail.length - 30));
    });
    child.stderr.on('data', (chunk: Buffer) => tail.push(chunk.toString('utf8')));
    // The launcher stops itself at LIMIT_S; this is the bound should it not. SIGTERM lets it stop
    // code-server and chromium, which it started, by their own pids.
    const timer = setTimeout(() => child.kill('SIGTERM'), (LIMIT_S + 30) * 1000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && figures.length > 0) resolve(figures);
      else reject(new Error(`the VS Code benchmark failed (exit ${code}):\n${tail.join('\n')}`));
    });
  });
}

function tryParse(line: string): Figure | undefined {
  try {
    return JSON.parse(line) as Figure;
  } catch {
    return undefined;
  }
}
