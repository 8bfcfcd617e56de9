// The Catalog tree's content, read through the extension's test API: the four roots, the built-in
// sample catalog when no address is set, another service when one is, and an error row when the
// service cannot be reached.
import * as assert from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PAGE_SIZE } from '../../src/core/model';
import { type DatasetCode } from '../../src/server/catalog/dataset';
import { SAMPLE_BASE_URL } from '../../src/server/http/fetchHandler';
import { loadSampleDataset } from '../../src/server/catalog/sampleDataset';
import sampleJson from '../../src/server/catalog/sample-catalog.json';
import { api, resetState, ROOT_LABELS, useSettings } from './helpers';
import { startService, type RunningService } from './services';

function description(code: Pick<DatasetCode, 'language' | 'user' | 'refactorsCount'>): string {
  const n = code.refactorsCount;
  return `${code.language} · ${code.user.name} · ${n} refactoring${n === 1 ? '' : 's'}`;
}

describe('Catalog tree', () => {
  beforeEach(resetState);
  after(resetState);

  it('shows the four roots, collapsed', async () => {
    const rows = await (await api()).treeRows();
    assert.deepStrictEqual(rows.map((r) => r.label), ROOT_LABELS);
    assert.ok(rows.every((r) => r.collapsible));
  });

  it('browses the built-in sample catalog when refactorBrowser.baseUrl is empty', async () => {
    const browser = await api();
    assert.strictEqual(browser.settings().baseUrl, '');
    assert.strictEqual(await browser.serviceUrl(), SAMPLE_BASE_URL, 'answered in process, on no network');

    const rows = (await browser.treeRows(['Recent Codes'])).filter((r) => r.contextValue !== 'refactorBrowser.loadMore');
    const recent = loadSampleDataset().recentCodes.all.slice(0, PAGE_SIZE);
    assert.ok(recent.length > 1);
    assert.deepStrictEqual(rows.map((r) => r.label), recent.map((c) => c.title));
    assert.deepStrictEqual(rows.map((r) => r.description), recent.map(description));
    assert.ok(rows.every((r) => r.contextValue === 'refactorBrowser.code'));
  });

  describe('with refactorBrowser.baseUrl set', () => {
    let service: RunningService | undefined;
    afterEach(async () => {
      await resetState();
      await service?.close();
      service = undefined;
    });

    it('lists the codes of that service', async () => {
      // The sample's users and first codes under new titles, so they cannot come from the sample.
      const codes = sampleJson.codes.slice(0, 3).map((c, i) => ({ ...c, title: `Integration code ${i + 1}` }));
      service = await startService({ users: sampleJson.users, codes, refactors: [] });
      await useSettings({ baseUrl: service.url });

      const browser = await api();
      assert.strictEqual(await browser.serviceUrl(), service.url);
      const rows = await browser.treeRows(['Recent Codes']);
      assert.deepStrictEqual(rows.map((r) => r.label).sort(), codes.map((c) => c.title).sort());
      assert.ok(rows.every((r) => r.description.endsWith('· 0 refactorings')), JSON.stringify(rows));
    });

    it('shows an error row, not a popup, when nothing answers there', async () => {
      // A port that was free a moment ago: connections to it are refused.
      const probe = http.createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const { port } = probe.address() as AddressInfo;
      await new Promise((resolve) => probe.close(resolve));
      await useSettings({ baseUrl: `http://127.0.0.1:${port}`, requestTimeout: 5 });

      const rows = await (await api()).treeRows(['Recent Codes']);
      assert.strictEqual(rows.length, 1, JSON.stringify(rows));
      assert.strictEqual(rows[0].contextValue, 'refactorBrowser.error');
      assert.match(rows[0].label, /^Could not load/);
    });
  });
});
