// Starred, in both extension hosts: Star and Unstar on code and refactoring rows, from
// the palette and from the code view; the Starred root at the top of the Catalog once something is
// starred; a starred code kept whole for reading offline (the Catalog and the code view read the copy
// when the service is down); a star that arrives without its copy (Settings Sync) fetched and kept;
// stars belong to their service. (The code view's Star buttons are clicked in stars.ui.test.ts.)
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { Commands } from '../../../src/extension/common/commandIds';
import { items, rowsWhen, useFrontedService } from '../catalogHelpers';
import { closeAllEditors, waitForCodeViewTab } from '../codeViewHelpers';
import { api, resetState, ROOT_LABELS, useSettings, waitFor } from '../helpers';
import { startService } from '../services';

const sample = loadSampleDataset();

/** The code id a row's id ends with (`…/code:42`). */
function idOf(rowId: string): number {
  return Number(/code:(\d+)$/.exec(rowId)![1]);
}

async function rootLabels(): Promise<string[]> {
  return (await (await api()).treeRows()).map((r) => r.label);
}

describe('Starred', function () {
  this.timeout(60_000);
  beforeEach(resetState);
  afterEach(closeAllEditors);
  after(resetState);

  it('stars a code row and a refactoring row: Starred shows first with both, newest first, and the rows say so; Unstar takes them back, and Starred goes with the last', async () => {
    const browser = await api();
    assert.deepStrictEqual(await rootLabels(), ROOT_LABELS, 'no Starred root while nothing is starred');
    const [code, other] = items(await browser.treeRows(['Recent Codes'])).filter((r) => r.collapsible);
    await browser.runOnRow(Commands.star, ['Recent Codes', code.label]);
    assert.deepStrictEqual(await rootLabels(), ['Starred', ...ROOT_LABELS]);
    assert.deepStrictEqual((await browser.treeRows(['Starred'])).map((r) => [r.label, r.contextValue, r.description]),
      [[code.label, 'refactorBrowser.code.starred', code.description]]);
    const listed = (await browser.treeRows(['Recent Codes'])).find((r) => r.id === code.id)!;
    assert.strictEqual(listed.contextValue, 'refactorBrowser.code.starred', 'the row in Recent Codes offers Unstar now');
    assert.strictEqual(listed.accessibilityLabel, `${code.accessibilityLabel}, starred`);

    const [refactor] = await browser.treeRows(['Recent Codes', other.label]);
    await browser.runOnRow(Commands.star, ['Recent Codes', other.label, refactor.label]);
    const starred = await browser.treeRows(['Starred']);
    assert.deepStrictEqual(starred.map((r) => [r.label, r.contextValue]),
      [[refactor.label, 'refactorBrowser.refactor.starred'], [code.label, 'refactorBrowser.code.starred']], 'newest first');
    assert.strictEqual(starred[0].description, refactor.description, 'its rating, author and code, as under its code');
    assert.deepStrictEqual((await browser.stars()).map((s) => [s.kind, s.codeId, Boolean(s.keptAt)]),
      [['refactor', idOf(other.id), true], ['code', idOf(code.id), true]], 'each kept whole on this machine');

    await browser.runOnRow(Commands.unstar, ['Starred', code.label]);
    assert.deepStrictEqual((await browser.treeRows(['Starred'])).map((r) => r.label), [refactor.label]);
    assert.strictEqual((await browser.treeRows(['Recent Codes'])).find((r) => r.id === code.id)!.contextValue, 'refactorBrowser.code');
    await browser.runOnRow(Commands.unstar, ['Starred', refactor.label]);
    assert.deepStrictEqual(await rootLabels(), ROOT_LABELS);
    assert.deepStrictEqual(await browser.stars(), []);
  });

  it('stars from the palette the code of the open code view, and from the code view a refactoring of it', async () => {
    const browser = await api();
    const code = sample.codes.get(1)!;
    await vscode.commands.executeCommand(Commands.openCode, code.id);
    await waitForCodeViewTab(code.title);
    await vscode.commands.executeCommand(Commands.star);
    await browser.codeViewMessage(code.id, { type: 'star', target: { kind: 'refactor', id: 34 }, starred: true });
    assert.deepStrictEqual((await browser.stars()).map((s) => [s.kind, s.codeId, s.refactorId]), [['refactor', 1, 34], ['code', 1, undefined]]);
    await browser.codeViewMessage(code.id, { type: 'star', target: { kind: 'code', id: code.id }, starred: false });
    assert.deepStrictEqual((await browser.stars()).map((s) => [s.kind, s.refactorId]), [['refactor', 34]]);
    // A forged target (a refactoring of another code) stars nothing.
    await browser.codeViewMessage(code.id, { type: 'star', target: { kind: 'refactor', id: 119 }, starred: true });
    assert.strictEqual((await browser.stars()).length, 1);
  });

  it('keeps a starred code whole: with the service down, Starred, its refactorings and the code view read the copy', async () => {
    const service = await startService();
    try {
      await useSettings({ baseUrl: service.url, requestTimeout: 5 });
      const browser = await api();
      const code = items(await browser.treeRows(['Recent Codes'])).find((r) => r.collapsible)!;
      await browser.runOnRow(Commands.star, ['Recent Codes', code.label]);
      const refactors = await browser.treeRows(['Starred', code.label]);
      assert.ok(refactors.length > 0 && refactors.every((r) => r.contextValue === 'refactorBrowser.refactor'));
      await service.close();
      // Nothing but the kept copy can answer now: the lists kept for offline use are forgotten.
      await browser.forgetOffline();
      await vscode.commands.executeCommand(Commands.refresh);

      assert.deepStrictEqual((await browser.treeRows(['Starred'])).map((r) => r.label), [code.label]);
      const offline = await browser.treeRows(['Starred', code.label]);
      assert.deepStrictEqual(offline.slice(0, -1), refactors);
      assert.match(offline.at(-1)!.label, /^cached .+: the service could not be reached$/);
      assert.strictEqual(browser.view().unreachable, false, 'Starred is shown, so no welcome page');

      await vscode.commands.executeCommand(Commands.openCode, idOf(code.id));
      await waitForCodeViewTab(code.label);
    } finally {
      await resetState();
      await service.close();
    }
  });

  it('fetches and keeps a star that came without its copy (Settings Sync); if that fails, Starred says why and Retry fetches it', async () => {
    const served = await useFrontedService({});
    try {
      const browser = await api();
      const code = items(await browser.treeRows(['Recent Codes']))[0];
      const id = idOf(code.id);
      await browser.runOnRow(Commands.star, ['Recent Codes', code.label]);
      await browser.forgetStarredCopy(id);
      assert.strictEqual((await browser.stars())[0].keptAt, '');

      await served.front.fail([`/codes/${id}.xml`]);
      await vscode.commands.executeCommand(Commands.refresh);
      const failed = await browser.treeRows(['Starred']);
      assert.deepStrictEqual(failed.map((r) => r.contextValue), ['refactorBrowser.error']);
      assert.match(failed[0].label, /^Could not load: HTTP 500/);

      await served.front.fail([]);
      await browser.click(['Starred', failed[0].label]);
      await rowsWhen(['Starred'], (rows) => rows.length === 1 && rows[0].label === code.label, 'the starred code after Retry');
      await waitFor(async () => ((await browser.stars())[0].keptAt ? true : undefined), 'the copy to be kept');
    } finally {
      await resetState();
      await served.close();
    }
  });

  it('keeps stars with their service: another service shows none of them, and coming back shows them again', async () => {
    const browser = await api();
    const code = items(await browser.treeRows(['Recent Codes']))[0];
    await browser.runOnRow(Commands.star, ['Recent Codes', code.label]);
    const service = await startService();
    try {
      await useSettings({ baseUrl: service.url });
      assert.deepStrictEqual(await rootLabels(), ROOT_LABELS);
      assert.deepStrictEqual(await browser.stars(), []);
      await useSettings({ baseUrl: undefined });
      assert.deepStrictEqual(await rootLabels(), ['Starred', ...ROOT_LABELS]);
      assert.deepStrictEqual((await browser.treeRows(['Starred'])).map((r) => r.label), [code.label]);
    } finally {
      await service.close();
    }
  });
});
