// Entry point VS Code calls inside the browser's web worker extension host (extensionTestsPath of the
// launcher's web run): the tests in test/integration/shared/, the ones both extension hosts run, under
// mocha's browser build. test/runners/webSuite.ts bundles this file with them (platform browser,
// `vscode` external, node:assert as the npm package `assert`) behind a generated entry that hands run()
// the function loading the test files, to be called once mocha's setup made `describe` and `it`
// global. The worker has no process.env: the bridge URL and the grep come from the user settings.
import { postToBridge, runSettings } from '../integration/bridgeClient';
import { forwardReport } from '../integration/reportForwarding';
import { useServices } from '../integration/services';

// mocha's browser build defines the globals `mocha` and `Mocha`.
import 'mocha/mocha';

/** util.format's conversions that mocha's reporters use (the worker has no `util`). */
function format(...data: unknown[]): string {
  if (typeof data[0] !== 'string') return data.map(String).join(' ');
  let next = 1;
  const text = data[0].replace(/%[sdifjoO%]/g, (spec) => {
    if (spec === '%%') return '%';
    if (next >= data.length) return spec;
    const value = data[next++];
    switch (spec) {
      case '%d':
      case '%f':
        return String(Number(value));
      case '%i':
        return String(parseInt(String(value), 10));
      case '%j':
      case '%o':
      case '%O':
        return JSON.stringify(value);
      default:
        return String(value);
    }
  });
  return [text, ...data.slice(next).map(String)].join(' ');
}

export async function run(loadTests: () => void): Promise<void> {
  const { bridge, grep } = runSettings();
  // Without the bridge this host could neither start the servers its tests need nor report.
  if (!bridge) throw new Error('no bridge URL in the user settings: the web host\'s suite runs under test/runners/codeServer.ts only');
  useServices((request) => postToBridge(bridge, { type: 'service', request }));
  mocha.setup({ ui: 'bdd', reporter: 'spec', color: false, timeout: 30_000, grep });
  const forwarding = forwardReport(Mocha.reporters.Base, bridge, format);

  let stats: { passes: number; failures: number; pending: number };
  try {
    loadTests();
    stats = await new Promise((resolve) => {
      const runner = mocha.run(() => resolve(runner.stats ?? { passes: 0, failures: 1, pending: 0 }));
    });
  } catch (err) {
    Mocha.reporters.Base.consoleLog(`integration suite could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    stats = { passes: 0, failures: 1, pending: 0 };
  }
  await forwarding.done(stats);
  if (stats.failures > 0) throw new Error(`${stats.failures} integration test(s) failed`);
}
