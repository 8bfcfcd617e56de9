// `npm run test:smoke`: the extension as a person gets it, in three ways.
// 1. The .vsix: packages the extension with vsce as `npm run package` does (its vscode:prepublish
//    script builds the minified bundles) into a temp folder, installs it into a fresh code-server
//    profile (no extensionDevelopmentPath: only what the .vsix holds is loaded), sees the built-in
//    sample catalog in the Catalog, and checks that another extension gets no test API from it (it
//    runs in production mode there).
// 2. Restricted Mode: the installed .vsix in a folder that is not trusted, whose own settings name a
//    service, still browses (the sample catalog); trusted, the folder's setting applies.
// 3. `npm start`: runs it as the README says, typed into a shell (npm, its build, then VS Code for the
//    Web) by someone who never ran it: HOME a new empty folder, no cache named in the environment, so
//    VS Code's server is installed from the npm registry with an empty npm cache. Checks the progress
//    lines of the build, each install step and the server's start, opens the URL it prints, sees the
//    same, then presses Ctrl-C (SIGINT to the process group, as a terminal does) and checks that it
//    exits, that nothing answers at that URL any more and that no process with that HOME is left
//    (Linux: /proc; code-server has a process group of its own); then removes that HOME.
// `npm run start:desktop` is not checked: it needs desktop VS Code (downloaded, or `code` on PATH) and
// a display, which a CI machine without downloads lacks; the check prints one line saying so.
// Each check drives headless Chromium: the Refactor Browser item in the activity bar, Recent Codes
// expanded, the sample's most recent code listed; each within its time-out (600 s for `npm start`,
// 300 s for the others; REFACTOR_BROWSER_SMOKE_TIMEOUT, in seconds, sets every one). Prints `N passed, N failed`; stops code-server and
// Chromium by pid whatever happens.
import { type ChildProcess } from 'node:child_process';
import { promises as fs, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { loadSampleDataset } from '../../src/server/catalog/sampleDataset';
import { waitFor } from '../helpers/poll';
import { launchChromium, VIEWPORT } from './codeServer';
import { CODE_SERVER_VERSION, ensureCodeServer } from './codeServerInstall';
import { expectedFirstStartLines, firstMissingLine, freshHomeEnv, processesWithHome } from './freshHome';
import { startCodeServer, type CodeServer } from './codeServerProcess';
import { run, spawnTracked, stopTree } from './processes';

const REPO = path.resolve(__dirname, '..', '..', '..');
const ROWS = '.part.sidebar .monaco-list-row[role=treeitem]';

type Stops = Array<() => Promise<void>>;

/** Opens the workbench at `url` and waits for the sample catalog's newest code under Recent Codes. */
async function seeSampleCatalog(browser: Browser, url: string): Promise<string> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    await page.goto(url);
    return await sampleCatalogOn(page);
  } finally {
    await page.close();
  }
}

/** On a workbench already open: the Catalog shows the built-in sample catalog; its newest code's title. */
async function sampleCatalogOn(page: Page): Promise<string> {
  await page.getByRole('tab', { name: 'Refactor Browser' }).click({ timeout: 60_000 });
  await page.locator(ROWS).filter({ hasText: 'Popular Codes' }).waitFor({ timeout: 30_000 });
  await page.locator('.part.sidebar').filter({ hasText: 'Browsing the built-in sample catalog' }).waitFor({ timeout: 10_000 });
  await page.locator(`${ROWS}[aria-level="1"]`).filter({ hasText: 'Recent Codes' }).click();
  const newest = loadSampleDataset().recentCodes.all[0].title;
  await page.locator(`${ROWS}[aria-level="2"]`).filter({ hasText: newest }).first().waitFor({ timeout: 30_000 });
  return newest;
}

let packaged: Promise<string> | undefined;

/**
 * The .vsix as `npm run package` makes it (vsce runs the vscode:prepublish build first), built once per
 * run into a temp folder removed at exit.
 */
function packageVsix(): Promise<string> {
  packaged ??= (async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'refactor-browser-vsix-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const vsix = path.join(dir, 'refactor-browser.vsix');
    await run(process.execPath, [
      path.join(REPO, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '--no-gitHubIssueLinking', '--out', vsix,
    ], { cwd: REPO, label: 'vsce package' });
    return vsix;
  })();
  return packaged;
}

async function installedVsix(browser: Browser, stops: Stops): Promise<string> {
  const vsix = await packageVsix();
  const dir = path.dirname(vsix);
  const size = `${((await fs.stat(vsix)).size / 1024).toFixed(0)} KiB`;
  const server = await startCodeServer({ entry: await ensureCodeServer(), installVsix: vsix });
  stops.push(() => server.stop());
  const newest = await seeSampleCatalog(browser, server.workbenchUrl({ skipWelcome: 'true' }));
  const exports = await exportsSeenByAnotherExtension(browser, server, dir);
  if (exports !== 'none') throw new Error(`another extension reached the installed extension's test API: ${exports}`);
  return `the installed .vsix (${size}) shows the sample catalog: Recent Codes starts with "${newest}", and offers other extensions no test API`;
}

/**
 * What another extension gets from activating the installed one: a probe extension, loaded beside
 * it, activates it and shows the keys of its exports in a notification ('none' when it exports
 * nothing, as it must outside tests).
 */
async function exportsSeenByAnotherExtension(browser: Browser, server: CodeServer, dir: string): Promise<string> {
  const probe = path.join(dir, 'probe');
  await fs.mkdir(probe);
  await fs.writeFile(path.join(probe, 'package.json'), JSON.stringify({
    name: 'probe', publisher: 'smoke', version: '0.0.1', engines: { vscode: '^1.96.0' },
    activationEvents: ['onStartupFinished'], main: './probe.js',
  }));
  await fs.writeFile(path.join(probe, 'probe.js'), `const vscode = require('vscode');
exports.activate = async () => {
  const ext = vscode.extensions.getExtension('refactor-browser.refactor-browser');
  const api = ext && await ext.activate();
  const keys = api === undefined || api === null ? 'none' : Object.keys(api).join(',') || 'an empty object';
  void vscode.window.showInformationMessage('probe: refactor-browser exports ' + (ext ? keys : 'nothing: not installed'));
};
`);
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    await page.goto(server.workbenchUrl({ extensionDevelopmentPath: server.remoteUri(probe), skipWelcome: 'true' }));
    const toast = page.locator('.notifications-toasts').filter({ hasText: 'probe: refactor-browser exports' });
    await toast.waitFor({ timeout: 60_000 });
    return /exports (.*)$/m.exec((await toast.innerText()).split('\n').find((l) => l.includes('probe:')) ?? '')?.[1]?.trim() ?? '';
  } finally {
    await page.close();
  }
}

/**
 * Restricted Mode: the installed extension in a folder whose own settings point refactorBrowser.baseUrl
 * at an address nothing answers. Not trusted, the folder's value is left out (restrictedConfigurations)
 * and the Catalog browses the sample catalog; once the person trusts the folder, its value applies.
 */
async function restrictedMode(browser: Browser, stops: Stops): Promise<string> {
  const server = await startCodeServer({
    entry: await ensureCodeServer(),
    installVsix: await packageVsix(),
    workspaceTrust: true,
    workspaceFiles: { '.vscode/settings.json': JSON.stringify({ 'refactorBrowser.baseUrl': 'http://127.0.0.1:9/' }) },
  });
  stops.push(() => server.stop());
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    await page.goto(server.workbenchUrl({ skipWelcome: 'true' }));
    await page.getByRole('button', { name: "No, I don't trust the authors" }).click({ timeout: 60_000 });
    await page.locator('.statusbar').filter({ hasText: 'Restricted Mode' }).waitFor({ timeout: 30_000 });
    const newest = await sampleCatalogOn(page);

    await page.locator('.statusbar-item').filter({ hasText: 'Restricted Mode' }).first().click();
    await page.getByRole('button', { name: 'Trust', exact: true }).click({ timeout: 30_000 });
    // The folder's address answers nothing and nothing of it is kept: the view says it cannot be reached.
    await page.locator('.part.sidebar').filter({ hasText: "The Catalog's service cannot be reached" }).waitFor({ timeout: 30_000 });
    return `in Restricted Mode the installed extension browses the sample catalog ("${newest}") and leaves out the folder's refactorBrowser.baseUrl, which applies once the folder is trusted`;
  } finally {
    await page.close();
  }
}

/** Whether the process group `pgid` has emptied within `ms`. */
async function groupGone(pgid: number, ms: number): Promise<boolean> {
  const gone = (): boolean => {
    try {
      process.kill(-pgid, 0);
      return false;
    } catch {
      return true;
    }
  };
  return waitFor(gone, `process group ${pgid} to empty`, ms, 200).then(() => true, () => false);
}

/** Per check, install and start-up included: `npm start` installs VS Code's server from the registry. */
const CHECK_TIMEOUT_S = { 'the .vsix': 300, 'Restricted Mode': 300, 'npm start': 600 } as const;

/**
 * `npm start` as typed (through the shell and the npm on PATH) by a newcomer: HOME is a new empty
 * folder, nothing in the environment names a cache (freshHomeEnv), so npm's cache starts empty and VS
 * Code's server is installed from the npm registry into that HOME. Checks the progress lines of the
 * build, the install and the server's start, the Catalog at the URL it prints, that Ctrl-C ends it,
 * and (Linux) that no process with that HOME is left: code-server runs in a process group of its own.
 */
async function npmStart(browser: Browser, stops: Stops): Promise<string> {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'refactor-browser-home-'));
  // Last: removed once everything below has been stopped (stops run in reverse).
  stops.push(() => fs.rm(home, { recursive: true, force: true }));
  stops.push(async () => {
    if (process.platform !== 'linux') return;
    for (const left of processesWithHome(home)) {
      try {
        process.kill(left.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  });
  const child: ChildProcess = spawnTracked('npm start', [], {
    cwd: REPO, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: freshHomeEnv(process.env, home),
  });
  stops.push(() => stopTree(child));
  const exited = new Promise<string>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? String(code))));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer): void => {
      output += d.toString('utf8');
      const m = /VS Code for the Web: (http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(output);
      if (m) resolve(m[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`npm start exited (${code}) before printing its URL:\n${output.slice(-2000)}`)));
  });
  const installDir = path.join(home, '.cache', 'refactor-browser', `code-server-${CODE_SERVER_VERSION}`);
  const missing = firstMissingLine(output, expectedFirstStartLines(installDir, CODE_SERVER_VERSION));
  if (missing) throw new Error(`npm start did not print a line matching ${String(missing)} (in this order); it printed:\n${output.slice(-3000)}`);
  const installed = /VS Code's server installed in (\d+) s/.exec(output)?.[1];
  const newest = await seeSampleCatalog(browser, url);
  process.kill(-child.pid!, 'SIGINT');
  // npm ends on the signal as it does in a terminal (or 0), and everything it started stops with it.
  const ended = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running 15 s after Ctrl-C'), 15_000))]);
  if (ended !== '0' && ended !== 'SIGINT') throw new Error(`npm start after Ctrl-C: ${ended}`);
  if (!(await groupGone(child.pid!, 15_000))) throw new Error('processes npm start began still run 15 s after Ctrl-C');
  const gone = await fetch(new URL(url).origin).then(() => false, () => true);
  if (!gone) throw new Error(`${new URL(url).origin} still answers after Ctrl-C`);
  if (process.platform === 'linux') {
    // code-server's process group is not npm's: look for anything at all still running with that HOME.
    const left = await waitFor(() => processesWithHome(home).length === 0, 'the processes npm start began to end', 10_000, 200)
      .then(() => [], () => processesWithHome(home));
    if (left.length > 0) throw new Error(`still running 10 s after Ctrl-C, HOME ${home}: ${left.map((p) => `${p.pid} ${p.command}`).join('; ')}`);
  }
  return `npm start in an empty HOME built, installed VS Code's server from the registry (${installed} s), printed each step, served ${new URL(url).origin} with the sample catalog ("${newest}") and stopped on Ctrl-C, leaving nothing running`;
}

async function main(): Promise<number> {
  let passed = 0;
  let failed = 0;
  const chromium = await launchChromium();
  try {
    for (const [name, check] of [['the .vsix', installedVsix], ['Restricted Mode', restrictedMode], ['npm start', npmStart]] as const) {
      const stops: Stops = [];
      let timer: NodeJS.Timeout | undefined;
      const timeoutMs = Number(process.env.REFACTOR_BROWSER_SMOKE_TIMEOUT || CHECK_TIMEOUT_S[name]) * 1000;
      const started = Date.now();
      const took = (): string => `${Math.round((Date.now() - started) / 1000)} s`;
      try {
        const said = await Promise.race([
          check(chromium.browser, stops),
          new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs / 1000} s`)), timeoutMs))),
        ]);
        console.log(`  ✔ ${said} (${took()})`);
        passed++;
      } catch (err) {
        console.log(`  ✘ ${name} (${took()}): ${err instanceof Error ? err.message : String(err)}`);
        failed++;
      } finally {
        clearTimeout(timer);
        for (const stop of stops.reverse()) await stop().catch((e) => console.error(`cleanup: ${String(e)}`));
      }
    }
    console.log('  - npm run start:desktop: not checked: it needs desktop VS Code downloaded (or `code` on PATH) and a display');
  } finally {
    await chromium.stop();
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130)); // the exit hook kills children
void main().then((status) => process.exit(status), (err: unknown) => {
  console.error(`smoke checks could not run: ${err instanceof Error ? err.message : String(err)}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
