// Figure 3 (size): dist/extension.js as packaging builds it (esbuild.config.mjs --minify), against the
// 800 KB budget. Built in memory with the same options, so the bench never rewrites dist/ under a
// test run that may be using it.
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { figure, type Figure } from './measure';

const REPO = path.resolve(__dirname, '../..');
const BUDGET_BYTES = 800 * 1000;

export async function bundleFigures(): Promise<Figure[]> {
  const result = await esbuild.build({
    // Keep in step with the extension entry of esbuild.config.mjs.
    entryPoints: [path.join(REPO, 'src/extension.ts')],
    outfile: path.join(REPO, 'dist/extension.js'),
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    bundle: true,
    external: ['vscode'],
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
    absWorkingDir: REPO,
  });
  const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
  if (!js) throw new Error('esbuild wrote no extension.js');
  const size = js.contents.length;
  return [figure({ name: 'bundle.size', goal: 1, unit: 'bytes', note: 'dist/extension.js minified; baseline the 800 KB budget' }, size, BUDGET_BYTES)];
}
