// `npm run test:integration`: runs the integration suite inside real VS Code on a machine that cannot
// download desktop VS Code, in both of its extension hosts: the Node one (test/integration/, every
// test) and the browser's web worker one, VS Code for the Web's (the tests in test/integration/shared/,
// bundled by webSuite.ts). VS Code's server and web workbench come from the npm registry's code-server
// (installed into a cache folder on first use, codeServerInstall.ts); Debian's chromium, driven
// headless by playwright-core, opens the workbench with this repository as the extension under
// development and the suite as its tests, once per host, each in a fresh code-server profile. The
// suite reports through a loopback bridge (bridge.ts, protocol in test/ui/protocol.ts), which also
// lets its UI tests act on the page and starts the loopback servers the web worker cannot.
//
// Prints mocha's spec report per host, a line `<host> host: N passed, N failed` after each, and a last
// line `N passed, N failed` over both; exits 0 only if every host's suite ran to its end with no
// failure. Whatever happens (failure, timeout, Ctrl-C), chromium, code-server with its children and
// the test servers are stopped by pid or handle.
//
// Environment: REFACTOR_BROWSER_TEST_HOSTS (`node`, `web`, or both, the default: `node,web`),
// REFACTOR_BROWSER_TEST_GREP (only the tests whose full title matches), REFACTOR_BROWSER_CODE_SERVER_DIR
// (cache folder), CHROMIUM_PATH (default /usr/bin/chromium), REFACTOR_BROWSER_TEST_TIMEOUT (seconds per
// host, default 900), REFACTOR_BROWSER_TEST_VERBOSE=1 (echo code-server's output and the browser console).
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { startBridge, type Bridge, type SuiteResult } from './bridge';
import { ensureCodeServer } from './codeServerInstall';
import { startCodeServer } from './codeServerProcess';
import { buildWebSuite } from './webSuite';
import { RUN_SETTINGS, type Host, type RunSettings } from '../ui/protocol';

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

const HOSTS: readonly Host[] = ['node', 'web'];
/** The display language of the localized pass (package.nls.de.json, l10n/bundle.l10n.de.json). */
const GERMAN = 'de';
const MANIFEST = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { publisher: string; name: string };
/** The extension's id, as VS Code's settings for extensions name it. */
const EXTENSION_ID = `${MANIFEST.publisher}.${MANIFEST.name}`;
const HOST_NAMES: Record<Host, string> = { node: 'the Node extension host', web: "the browser's web worker extension host" };

/** Chromium headless as a Playwright browser server: unlike launch(), it tells us chromium's pid. */
export async function launchChromium(): Promise<{ browser: Browser; stop: () => Promise<void> }> {
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

/**
 * What VS Code's server needs to take `--locale de`: a language pack offering German, named in the
 * user data folder's languagepacks.json (what installing a language pack writes). None can be
 * downloaded here, so it points at test/fixtures/language-pack-de, which translates nothing of
 * VS Code itself: German becomes the display language, and the extension loads its own German bundles.
 */
function germanLanguagePack(): Record<string, string> {
  const translations = path.join(REPO, 'test', 'fixtures', 'language-pack-de', 'main.i18n.json');
  const pack = {
    hash: 'refactor-browser-tests-de-1',
    extensions: [{ extensionIdentifier: { id: 'refactor-browser-tests.language-pack-de' }, version: '1.0.0' }],
    translations: { vscode: translations },
    label: 'Deutsch',
  };
  return { 'languagepacks.json': JSON.stringify({ [GERMAN]: pack }) };
}

/** The hosts REFACTOR_BROWSER_TEST_HOSTS names, in the order of HOSTS. */
function hostsToRun(): Host[] {
  const asked = (process.env.REFACTOR_BROWSER_TEST_HOSTS || HOSTS.join(',')).split(',').map((h) => h.trim()).filter(Boolean);
  const unknown = asked.filter((h) => !(HOSTS as readonly string[]).includes(h));
  if (unknown.length > 0 || asked.length === 0) throw new Error(`REFACTOR_BROWSER_TEST_HOSTS: expected node, web or both, got ${JSON.stringify(asked.join(','))}`);
  return HOSTS.filter((h) => asked.includes(h));
}

/**
 * Everything started is owned here until stopped: on its own (a run's code-server after the run) or
 * by cleanup(), in reverse order. Something that finishes starting after cleanup began (a timeout or
 * a signal in the middle of startup) is stopped at once.
 */
class Owner {
  private readonly owned = new Set<() => Promise<void>>();
  private cleaning: Promise<void> | undefined;

  /** Owns `stop`; returns the function that stops it now (once). */
  async own(stop: () => Promise<void>): Promise<() => Promise<void>> {
    if (this.cleaning) {
      await stop();
      throw new Error('stopped');
    }
    let stopping: Promise<void> | undefined;
    const once = (): Promise<void> => {
      this.owned.delete(once);
      return (stopping ??= stop());
    };
    this.owned.add(once);
    return once;
  }

  cleanup(): Promise<void> {
    return (this.cleaning ??= (async () => {
      for (const stop of [...this.owned].reverse()) await stop().catch((e) => console.error(`cleanup: ${String(e)}`));
    })());
  }
}

/** `work`, unless `seconds` pass first: then it rejects (and `work` is left to its owner's cleanup). */
async function within<T>(seconds: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${seconds} s`)), seconds * 1000);
  });
  try {
    return await Promise.race([work, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

interface RunContext {
  entry: string;
  bridge: Bridge;
  browser: Browser;
  owner: Owner;
  verbose: boolean;
  timeoutS: number;
  /** The web worker host's tests module (webSuite.ts), when that host runs. */
  webSuite?: string;
}

/**
 * One run of the suite in `host`, bounded in time: a fresh code-server profile and page, both stopped
 * after it, and so are the servers its tests asked for.
 */
async function runIn(host: Host, { entry, bridge, browser, owner, verbose, timeoutS, webSuite }: RunContext, locale?: string): Promise<Outcome> {
  const run: RunSettings = { bridge: bridge.url, host, grep: process.env.REFACTOR_BROWSER_TEST_GREP || undefined, locale };
  let hostExited: (o: Outcome) => void = () => {};
  const hostDied = new Promise<Outcome>((resolve) => (hostExited = resolve));
  const settings: Record<string, unknown> = Object.fromEntries(
    Object.entries(run).filter(([, v]) => v !== undefined).map(([k, v]) => [`${RUN_SETTINGS}.${k}`, v]),
  );
  // The payload's extensionDevelopmentKind is not enough: VS Code 1.100's web workbench reads it under
  // another name and places the extension by its manifest, whose extensionKind prefers the workspace
  // (the remote Node host). The user setting that overrides an extension's kind places it: `web` is
  // the kind whose host is the web worker (`ui` would still pick the remote host for an extension
  // that, like this one under development, lives on the remote).
  if (host === 'web') settings['remote.extensionKind'] = { [EXTENSION_ID]: ['web'] };
  const server = await startCodeServer({
    entry,
    settings,
    locale,
    userDataFiles: locale === GERMAN ? germanLanguagePack() : {},
    log: (line) => {
      if (verbose) console.log(`[code-server] ${line}`);
      const m = /Extension Host Process exited with code: (\S+), signal: (\S+)\./.exec(line);
      // A last report may still be in flight when the host exits: give it a moment.
      if (m) setTimeout(() => hostExited({ kind: 'error', message: `the extension host exited (code ${m[1]}, signal ${m[2]})` }), 2000);
    },
  });
  const stopServer = await owner.own(() => server.stop());
  const page = await browser.newPage({ viewport: VIEWPORT });
  const closePage = await owner.own(() => page.close().catch(() => undefined));
  try {
    if (verbose) page.on('console', (m) => console.log(`[browser] ${m.type()}: ${m.text()}`));
    // The workbench calls these when the tests module's run() has ended (0: resolved), and with the
    // extension host's console: a web worker host that fails before reporting is seen at once.
    const automationExit = new Promise<Outcome>((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code: unknown) => {
        setTimeout(() => resolve({ kind: 'error', message: `the tests ended (exit code ${String(code)}) without reporting a result` }), 2000);
      });
    });
    await page.exposeFunction('codeAutomationLog', (type: unknown, args: unknown) => {
      if (verbose) console.log(`[extension host] ${String(type)}: ${JSON.stringify(args)}`);
    });
    const result = bridge.beginRun(page);
    const crashed = new Promise<Outcome>((resolve) => page.on('crash', () => resolve({ kind: 'error', message: 'the page crashed' })));
    const serverExited = server.exited.then((s): Outcome => ({ kind: 'error', message: `code-server exited (${s})` }));
    const payload: Record<string, string> = host === 'web'
      ? { extensionDevelopmentPath: server.remoteUri(REPO), extensionDevelopmentKind: 'web', extensionTestsPath: server.remoteUri(webSuite!), skipWelcome: 'true' }
      : { extensionDevelopmentPath: server.remoteUri(REPO), extensionTestsPath: server.remoteUri(path.join(REPO, 'out', 'test', 'integration', 'index.js')), skipWelcome: 'true' };
    const ended = Promise.race([result.then((r): Outcome => ({ kind: 'result', result: r })), automationExit, crashed, serverExited, hostDied]);
    return await within(timeoutS, (async () => {
      await page.goto(server.workbenchUrl(payload));
      return ended;
    })());
  } finally {
    await closePage();
    await stopServer();
    await bridge.stopServices();
  }
}

async function main(): Promise<number> {
  const verbose = process.env.REFACTOR_BROWSER_TEST_VERBOSE === '1';
  const timeoutS = Number(process.env.REFACTOR_BROWSER_TEST_TIMEOUT || 900);
  const owner = new Owner();
  const onSignal = (signal: NodeJS.Signals): void => {
    console.error(`\n${signal}: stopping chromium, code-server and the test servers`);
    void owner.cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const totals = { passed: 0, failed: 0 };
  let ok = true;
  try {
    const hosts = hostsToRun();
    const ctx = await within(timeoutS, (async (): Promise<RunContext> => {
      // The web bundle first: a Node module reaching the shared tests fails here, before anything starts.
      const webSuite = hosts.includes('web') ? await buildWebSuite(REPO) : undefined;
      const entry = await ensureCodeServer();
      const bridge = await startBridge({
        onLines: (lines) => lines.forEach((l) => console.log(l)),
        screenshotDir: path.join(REPO, 'media', 'screenshots'),
      });
      await owner.own(() => bridge.close());
      const { browser, stop: stopChromium } = await launchChromium();
      await owner.own(() => stopChromium());
      return { entry, bridge, browser, owner, verbose, timeoutS, webSuite };
    })());
    // After the hosts, a window in German (the Node host): test/integration/locale/ sees the
    // extension's translations. Left out of a grep run unless the grep asks for it.
    const grep = process.env.REFACTOR_BROWSER_TEST_GREP;
    const passes: Array<{ host: Host; locale?: string; name: string }> = hosts.map((host) => ({ host, name: host }));
    if (hosts.includes('node') && !process.env.REFACTOR_BROWSER_BENCH && (!grep || /german|locale/i.test(grep))) {
      passes.push({ host: 'node', locale: GERMAN, name: 'node host, de' });
    }
    for (const pass of passes) {
      console.log(`\nThe suite in ${HOST_NAMES[pass.host]}${pass.locale ? `, VS Code in ${pass.locale}` : ''}:`);
      const outcome = await runIn(pass.host, ctx, pass.locale)
        .catch((err: unknown): Outcome => ({ kind: 'error', message: err instanceof Error ? err.message : String(err) }));
      const label = pass.locale ? `${pass.host} host (${pass.locale})` : `${pass.host} host`;
      if (outcome.kind === 'error') {
        console.error(`integration suite in ${HOST_NAMES[pass.host]} did not finish: ${outcome.message}`);
        console.log(`${label}: 0 passed, 1 failed`);
        totals.failed += 1;
        ok = false;
        continue;
      }
      const { passed, failed } = outcome.result;
      console.log(`${label}: ${passed} passed, ${failed} failed`);
      totals.passed += passed;
      totals.failed += failed;
      // A pass that ran nothing is a suite that did not load, unless a grep left it nothing to run.
      if (failed > 0 || (passed === 0 && !grep)) ok = false;
    }
    console.log(`${totals.passed} passed, ${totals.failed} failed`);
    return ok && totals.passed > 0 ? 0 : 1;
  } catch (err) {
    console.error(`integration suite could not run: ${err instanceof Error ? err.message : String(err)}`);
    console.log(`${totals.passed} passed, ${totals.failed + 1} failed`);
    return 1;
  } finally {
    await owner.cleanup();
  }
}

if (require.main === module) {
  void main().then((status) => process.exit(status));
}
