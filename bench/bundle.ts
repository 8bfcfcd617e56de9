// Figure 3 (size): each extension bundle as packaging builds it (esbuild.config.mjs --minify), for
// the Node extension host (dist/extension.js) and the browser's (dist/web/extension.js), against the
// 250 KB budget. Built in memory with the same options, so the bench never rewrites dist/ under a
// test run that may be using it.
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { figure, type Figure } from './measure';

const REPO = path.resolve(__dirname, '../..');
const BUDGET_BYTES = 250 * 1000;

// Keep in step with the extension entries of esbuild.config.mjs.
const BUNDLES: Array<{ name: string; outfile: string; options: esbuild.BuildOptions }> = [
  { name: 'bundle.node', outfile: 'dist/extension.js', options: { platform: 'node', target: 'node20', define: { WEB_BUILD: 'false' } } },
  { name: 'bundle.web', outfile: 'dist/web/extension.js', options: { platform: 'browser', target: 'es2022', define: { WEB_BUILD: 'true' } } },
];

export async function bundleFigures(): Promise<Figure[]> {
  const out: Figure[] = [];
  for (const bundle of BUNDLES) {
    const result = await esbuild.build({
      entryPoints: [path.join(REPO, 'src/extension.ts')],
      outfile: path.join(REPO, bundle.outfile),
      ...bundle.options,
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
    if (!js) throw new Error(`esbuild wrote no ${bundle.outfile}`);
    out.push(figure({ name: bundle.name, goal: 1, unit: 'bytes', note: `${bundle.outfile} minified; baseline the 250 KB budget (the sample catalog ships beside it as dist/sample-catalog.json)` }, js.contents.length, BUDGET_BYTES));
  }
  return out;
}
