// Figure 3 (size): each extension bundle as packaging builds it, for the Node extension host
// (dist/extension.js) and the browser's (dist/web/extension.js), against the 250 KB budget. It runs
// the build itself (esbuild.config.mjs --minify) into a folder of its own, so the figure is the
// packaged bundle's size and the bench never rewrites dist/ under a test run that may be using it.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { figure, type Figure } from './measure';

const REPO = path.resolve(__dirname, '../..');
const BUDGET_BYTES = 250 * 1000;

const BUNDLES = [
  { name: 'bundle.node', outfile: 'extension.js' },
  { name: 'bundle.web', outfile: 'web/extension.js' },
];

export async function bundleFigures(): Promise<Figure[]> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-bundle-'));
  try {
    execFileSync(process.execPath, ['esbuild.config.mjs', '--minify', '--out', out], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 });
    return BUNDLES.map((bundle) => figure(
      { name: bundle.name, goal: 1, unit: 'bytes', note: `dist/${bundle.outfile} minified; baseline the 250 KB budget (the sample catalog ships beside it as dist/sample-catalog.json)` },
      fs.statSync(path.join(out, bundle.outfile)).size,
      BUDGET_BYTES,
    ));
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}
