// `npm run test:vsix`: the .vsix as a person gets it. Packages the extension with vsce (minified
// bundles, as `npm run package` does) into a temp folder, installs it into a fresh code-server profile
// (no extensionDevelopmentPath: only what the .vsix holds is loaded), opens the workbench in headless
// Chromium, clicks the Refactor Browser item in the activity bar, expands Recent Codes and waits for
// the built-in sample catalog's most recent code. Prints `1 passed, 0 failed` (or the failure) and
// stops code-server and Chromium by pid whatever happens.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSampleCatalog } from '../../src/server/catalog';
import { launchChromium, VIEWPORT } from './codeServer';
import { ensureCodeServer } from './codeServerInstall';
import { startCodeServer } from './codeServerProcess';
import { run } from './processes';

const REPO = path.resolve(__dirname, '..', '..', '..');
const TIMEOUT_MS = Number(process.env.REFACTOR_BROWSER_VSIX_TIMEOUT || 300) * 1000;
const ROWS = '.part.sidebar .monaco-list-row[role=treeitem]';

async function check(stops: Array<() => Promise<void>>): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'refactor-browser-vsix-'));
  stops.push(() => fs.rm(dir, { recursive: true, force: true }));
  const vsix = path.join(dir, 'refactor-browser.vsix');
  await run(process.execPath, [path.join(REPO, 'esbuild.config.mjs'), '--minify'], { cwd: REPO, label: 'build' });
  await run(process.execPath, [
    path.join(REPO, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '--no-rewrite-relative-links',
    '--allow-missing-repository', '--out', vsix,
  ], { cwd: REPO, label: 'vsce package' });
  console.log(`packaged ${path.basename(vsix)}: ${((await fs.stat(vsix)).size / 1024).toFixed(0)} KiB`);

  const server = await startCodeServer({ entry: await ensureCodeServer(), installVsix: vsix });
  stops.push(() => server.stop());
  const chromium = await launchChromium();
  stops.push(() => chromium.stop());
  const page = await chromium.browser.newPage({ viewport: VIEWPORT });
  await page.goto(server.workbenchUrl({ skipWelcome: 'true' }));

  await page.getByRole('tab', { name: 'Refactor Browser' }).click({ timeout: 60_000 });
  await page.locator(ROWS).filter({ hasText: 'Popular Codes' }).waitFor({ timeout: 30_000 });
  await page.locator('.part.sidebar').filter({ hasText: 'Browsing the built-in sample catalog' }).waitFor({ timeout: 10_000 });
  await page.locator(`${ROWS}[aria-level="1"]`).filter({ hasText: 'Recent Codes' }).click();
  const newest = loadSampleCatalog().recentCodes.all[0].title;
  await page.locator(`${ROWS}[aria-level="2"]`).filter({ hasText: newest }).first().waitFor({ timeout: 30_000 });
  console.log(`the installed .vsix shows the sample catalog: Recent Codes starts with "${newest}"`);
}

async function main(): Promise<number> {
  const stops: Array<() => Promise<void>> = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(stops),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS))),
    ]);
    console.log('1 passed, 0 failed');
    return 0;
  } catch (err) {
    console.error(`vsix check failed: ${err instanceof Error ? err.message : String(err)}`);
    console.log('0 passed, 1 failed');
    return 1;
  } finally {
    clearTimeout(timer);
    for (const stop of stops.reverse()) await stop().catch((e) => console.error(`cleanup: ${String(e)}`));
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130)); // the exit hook kills children
void main().then((status) => process.exit(status));
