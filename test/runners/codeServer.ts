// `npm run test:integration`: runs the integration suite (test/integration/) inside real VS Code on a
// machine that cannot download desktop VS Code. VS Code's server and web workbench come from the npm
// registry's code-server (installed into a cache folder on first use, codeServerInstall.ts); Debian's
// chromium, driven headless by playwright-core, opens the workbench with this repository as the
// extension under development and the suite as its tests. The suite reports through a loopback
// bridge (bridge.ts, protocol in test/ui/protocol.ts), which also lets its UI tests act on the page.
//
// Prints mocha's spec report and a last line `N passed, N failed`; exits 0 only if the suite ran to
// its end with no failure. Whatever happens (failure, timeout, Ctrl-C), chromium and code-server
// with its children are stopped by pid.
//
// Environment: REFACTOR_BROWSER_CODE_SERVER_DIR (cache folder), CHROMIUM_PATH (default
// /usr/bin/chromium), REFACTOR_BROWSER_TEST_TIMEOUT (seconds, default 600),
// REFACTOR_BROWSER_TEST_VERBOSE=1 (echo code-server's output and the browser console).
import * as path from 'node:path';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { startBridge, type Bridge, type SuiteResult } from './bridge';
import { ensureCodeServer } from './codeServerInstall';
import { startCodeServer, type CodeServer } from './codeServerProcess';
import { BRIDGE_ENV } from '../ui/protocol';

const REPO = path.resolve(__dirname, '..', '..', '..');
/** Flags from the recipe: no sandbox (root in a container), no GPU, nothing that phones home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const VIEWPORT = { width: 1280, height: 800 };

type Outcome = { kind: 'result'; result: SuiteResult } | { kind: 'error'; message: string };

/** Chromium headless as a Playwright browser server: unlike launch(), it tells us chromium's pid. */
export async function launchChromium(): Promise<{ browser: Browser; stop(): Promise<void> }> {
  const server: BrowserServer = await chromium.launchServer({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const pid = server.process().pid;
  const stop = async (): Promise<void> => {
    await Promise.race([server.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
    if (pid === undefined) return;
    // Playwright starts chromium in its own process group; whatever close() left behind goes now.
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone: the usual case
      }
    }
  };
  try {
    return { browser: await chromium.connect(server.wsEndpoint()), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function main(): Promise<number> {
  const verbose = process.env.REFACTOR_BROWSER_TEST_VERBOSE === '1';
  const timeoutS = Number(process.env.REFACTOR_BROWSER_TEST_TIMEOUT || 600);
  // Everything started is owned here and stopped in reverse order. Something that finishes starting
  // after cleanup began (a timeout in the middle of startup) is stopped at once.
  const owned: Array<() => Promise<void>> = [];
  let cleaning: Promise<void> | undefined;
  const own = async (stop: () => Promise<void>): Promise<void> => {
    if (cleaning) await stop();
    else owned.push(stop);
  };
  const cleanup = (): Promise<void> =>
    (cleaning ??= (async () => {
      for (const stop of owned.reverse()) await stop().catch((e) => console.error(`cleanup: ${String(e)}`));
    })());
  const onSignal = (signal: NodeJS.Signals): void => {
    console.error(`\n${signal}: stopping chromium and code-server`);
    void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'error', message: `timed out after ${timeoutS} s` }), timeoutS * 1000);
  });
  try {
    const outcome = await Promise.race([timedOut, (async (): Promise<Outcome> => {
      const entry = await ensureCodeServer();
      const bridge: Bridge = await startBridge({
        onLines: (lines) => lines.forEach((l) => console.log(l)),
        screenshotDir: path.join(REPO, 'media', 'screenshots'),
      });
      await own(() => bridge.close());
      let hostExited: (o: Outcome) => void = () => {};
      const hostDied = new Promise<Outcome>((resolve) => (hostExited = resolve));
      const server: CodeServer = await startCodeServer({
        entry,
        env: { [BRIDGE_ENV]: bridge.url },
        log: (line) => {
          if (verbose) console.log(`[code-server] ${line}`);
          const m = /Extension Host Process exited with code: (\S+), signal: (\S+)\./.exec(line);
          // A last report may still be in flight when the host exits: give it a moment.
          if (m) setTimeout(() => hostExited({ kind: 'error', message: `the extension host exited (code ${m[1]}, signal ${m[2]})` }), 2000);
        },
      });
      await own(() => server.stop());
      const { browser, stop: stopChromium } = await launchChromium();
      await own(stopChromium);
      if (cleaning) throw new Error('stopped');
      const page = await browser.newPage({ viewport: VIEWPORT });
      if (verbose) page.on('console', (m) => console.log(`[browser] ${m.type()}: ${m.text()}`));
      bridge.setPage(page);
      const crashed = new Promise<Outcome>((resolve) => page.on('crash', () => resolve({ kind: 'error', message: 'the page crashed' })));
      const serverExited = server.exited.then((s): Outcome => ({ kind: 'error', message: `code-server exited (${s})` }));
      await page.goto(
        server.workbenchUrl({
          extensionDevelopmentPath: server.remoteUri(REPO),
          extensionTestsPath: server.remoteUri(path.join(REPO, 'out', 'test', 'integration', 'index.js')),
          skipWelcome: 'true',
        }),
      );
      return Promise.race([bridge.done.then((result): Outcome => ({ kind: 'result', result })), crashed, serverExited, hostDied]);
    })()]);

    if (outcome.kind === 'error') {
      console.error(`integration suite did not finish: ${outcome.message}`);
      console.log('0 passed, 1 failed');
      return 1;
    }
    const { passed, failed } = outcome.result;
    console.log(`${passed} passed, ${failed} failed`);
    return failed === 0 && passed > 0 ? 0 : 1;
  } catch (err) {
    console.error(`integration suite could not run: ${err instanceof Error ? err.message : String(err)}`);
    console.log('0 passed, 1 failed');
    return 1;
  } finally {
    clearTimeout(timer);
    await cleanup();
  }
}

if (require.main === module) {
  void main().then((status) => process.exit(status));
}
