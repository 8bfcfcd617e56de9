// Entry point VS Code calls inside the Node extension host (extensionTestsPath): runs every
// out/test/integration/**/*.test.js, the Node-only tests here and the ones in shared/ that the browser's
// web worker host runs too (test/web/index.ts), with mocha's spec reporter. Under the code-server
// launcher the report lines and the result also go to the launcher's bridge (see test/ui/protocol.ts)
// as they happen; under @vscode/test-electron they go to the extension host's stdout as usual. The
// loopback servers the tests ask for (services.ts) are started in this process.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import Mocha from 'mocha';
import { TestServices } from '../services/registry';
import { runSettings } from './bridgeClient';
import { forwardReport } from './reportForwarding';
import { useServices } from './services';

/**
 * Activation is observable only once per window: whichever test shows the view or runs a command
 * first activates the extension. So the activation test runs first; the rest in name order.
 */
const FIRST = 'activation.test.js';

/** The tests of a window started in another display language (launcher's German pass): locale/ alone; else all but those. */
const LOCALE_DIR = `locale${path.sep}`;

function testFiles(dir: string, locale: string | undefined): string[] {
  // `npm run bench` times activation in a fresh window: its file then runs alone.
  const bench = Boolean(process.env.REFACTOR_BROWSER_BENCH);
  const files = (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.js') && (!bench || path.basename(f) === 'bench.test.js'))
    .filter((f) => f.startsWith(LOCALE_DIR) === (locale !== undefined))
    .sort((a, b) => Number(path.basename(b) === FIRST) - Number(path.basename(a) === FIRST) || a.localeCompare(b));
  return files.map((f) => path.join(dir, f));
}

export async function run(): Promise<void> {
  const settings = runSettings();
  // REFACTOR_BROWSER_TEST_GREP runs only the tests whose full title matches (while working on a few);
  // the code-server launcher passes it in the settings, @vscode/test-electron in the environment.
  const grep = settings.grep ?? (process.env.REFACTOR_BROWSER_TEST_GREP || undefined);
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: 30_000, grep });
  for (const file of testFiles(__dirname, settings.locale)) mocha.addFile(file);
  const services = new TestServices();
  useServices((request) => services.handle(request));
  const forwarding = settings.bridge ? forwardReport(Mocha.reporters.Base, settings.bridge, util.format) : undefined;

  let stats: { passes: number; failures: number; pending: number };
  try {
    await mocha.loadFilesAsync();
    stats = await new Promise((resolve) => {
      const runner = mocha.run(() => resolve(runner.stats ?? { passes: 0, failures: 1, pending: 0 }));
    });
  } catch (err) {
    // A test file that does not load is a failure the launcher must hear about, not a silent hang.
    Mocha.reporters.Base.consoleLog(`integration suite could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    stats = { passes: 0, failures: 1, pending: 0 };
  } finally {
    await services.stopAll();
  }
  await forwarding?.done(stats);
  if (stats.failures > 0) throw new Error(`${stats.failures} integration test(s) failed`);
}
