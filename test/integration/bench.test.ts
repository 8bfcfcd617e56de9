// Benchmarks inside VS Code (issue 8, figures 3 and 4), run only by `npm run bench`, which sets
// REFACTOR_BROWSER_BENCH; index.ts then runs this file alone, in a window where nothing has
// activated the extension yet. Each figure is one JSON line in the report, which the launcher prints
// and bench/vscode.ts collects. The baseline is what VS Code itself costs in the same window: the
// round trip of a command that does nothing.
import * as assert from 'node:assert';
import * as path from 'node:path';
import Mocha from 'mocha';
import * as vscode from 'vscode';
import { extension, useSettings } from './helpers';
import { startService } from './services';

const EMPTY_COMMAND = 'refactorBrowser.bench.noop';

/** `goalMs` null: shown to explain the others (a single sample of VS Code's own work), with no goal. */
function print(name: string, value: number, baseline: number, goalMs: number | null, note: string): void {
  const round = (x: number): number => Number(x.toPrecision(4));
  // The goals are in milliseconds on the value (the budgets); the ratio shows how many
  // VS Code round trips that is, so a slow machine can be told from a slow extension.
  const line = { name, value: round(value), baseline: round(baseline), ratio: round(value / baseline), goal: goalMs, unit: 'ms', goalOn: 'value', pass: goalMs === null || value < goalMs, note };
  Mocha.reporters.Base.consoleLog(JSON.stringify(line));
}

async function timed(fn: () => Thenable<unknown> | Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function medianOf(n: number, fn: () => Thenable<unknown> | Promise<unknown>): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await timed(fn));
  xs.sort((a, b) => a - b);
  return xs[n >> 1];
}

(process.env.REFACTOR_BROWSER_BENCH ? describe : describe.skip)('Benchmarks inside VS Code', function () {
  this.timeout(120_000);
  let noop: vscode.Disposable | undefined;
  after(() => noop?.dispose());

  it('activate(), and tree latency for Recent Codes cold and warm', async () => {
    noop = vscode.commands.registerCommand(EMPTY_COMMAND, () => undefined);
    const roundTrip = () => medianOf(51, () => vscode.commands.executeCommand(EMPTY_COMMAND));
    const before = await roundTrip();

    const ext = extension();
    assert.strictEqual(ext.isActive, false, 'the extension was active before the benchmark could time it');
    // Loading the bundle first, on its own, splits module loading from activate() itself: the
    // extension host loads extensions with Node's require, so activate() then finds it cached.
    const bundle = path.join(ext.extensionPath, 'dist', 'extension.js');
    const loadMs = await timed(async () => require(bundle));
    // The host then takes the module from require's cache: what it finds there times activate()
    // itself, apart from VS Code's own work around it (its context, storage, the call across).
    const entry = require.cache[bundle];
    assert.ok(entry, 'the bundle is not in require.cache');
    const real = entry.exports as { activate(context: vscode.ExtensionContext): unknown; deactivate(): void };
    let insideMs = Number.NaN;
    entry.exports = {
      activate(context: vscode.ExtensionContext): unknown {
        const t0 = performance.now();
        try {
          return real.activate(context);
        } finally {
          insideMs = performance.now() - t0;
        }
      },
      deactivate: () => real.deactivate(),
    };
    const activateMs = await timed(() => ext.activate());
    assert.ok(!Number.isNaN(insideMs), 'VS Code did not activate the extension through require.cache');
    const api = ext.exports;
    // Nothing may go to the network until the tree asks: no request, not even the sample service.
    const early = api.recentLog().filter((l) => /\bGET\b/.test(l));
    assert.deepStrictEqual(early, [], 'activate() reached for the network');

    const coldMs = await timed(() => api.treeRows(['Recent Codes']));
    const rows = await api.treeRows(['Recent Codes']);
    assert.ok(rows.length >= 25, `Recent Codes listed ${rows.length} rows`);
    const warmMs = await medianOf(21, () => api.treeRows(['Recent Codes']));

    // The same first expansion against a configured service on loopback (the same sample catalog).
    const service = await startService();
    let loopbackMs: number;
    try {
      await useSettings({ baseUrl: service.url });
      loopbackMs = await timed(() => api.treeRows(['Recent Codes']));
      assert.ok((await api.treeRows(['Recent Codes'])).length >= 25);
    } finally {
      await useSettings({ baseUrl: undefined });
      await service.close();
    }
    const baseline = (before + (await roundTrip())) / 2;

    print('vscode.activate', insideMs, baseline, 30, 'the extension\'s activate() itself, in a fresh window, with no network before the tree asks; baseline an empty command round trip');
    print('vscode.activation', activateMs, baseline, null, 'ext.activate(): VS Code\'s activation around activate(), once dist/extension.js is loaded (no goal: VS Code\'s work)');
    print('vscode.load', loadMs, baseline, null, 'require() of dist/extension.js (the unminified dev build) in the extension host (no goal in the issue)');
    print('vscode.tree.cold', coldMs, baseline, 60, 'Recent Codes children through the test API, first time, on the built-in catalog: reads the catalog, answers in process, decodes');
    print('vscode.tree.cold.loopback', loopbackMs, baseline, null, 'the same first expansion against a configured reference service on loopback, in the same window (shown beside tree.cold, no goal)');
    print('vscode.tree.warm', warmMs, baseline, 20, 'Recent Codes children again (median of 21)');
  });
});
