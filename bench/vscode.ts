// Figures 3 (activation) and 4 (tree latency), measured inside VS Code: runs the integration
// launcher (code-server and headless chromium) in the Node extension host with REFACTOR_BROWSER_BENCH
// set, so that only test/integration/bench.test.ts runs, and collects the JSON lines it reports.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import type { Figure } from './measure';

const REPO = path.resolve(__dirname, '../..');
const LIMIT_S = 600;

export function vscodeFigures(): Promise<Figure[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO, 'out/test/runners/codeServer.js')], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REFACTOR_BROWSER_BENCH: '1', REFACTOR_BROWSER_TEST_HOSTS: 'node', REFACTOR_BROWSER_TEST_TIMEOUT: String(LIMIT_S) },
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
