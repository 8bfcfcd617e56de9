// "Load more…" fetches the next page into its own list only, and goes away after
// a short page, an empty one, or a page identical to the last (a service that ignores ?page).
import * as assert from 'node:assert';
import { PAGE_SIZE } from '../../../src/core/model';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import sampleJson from '../../../src/server/catalog/sample-catalog.json';
import { api, resetState } from '../helpers';
import { hasLoadMore, items, rowsWhen, useFrontedService } from '../catalogHelpers';

const sample = loadSampleDataset();

describe('Paging', function () {
  this.timeout(30_000);
  let close: (() => Promise<void>) | undefined;
  beforeEach(resetState);
  afterEach(async () => {
    await resetState();
    await close?.();
    close = undefined;
  });

  it('loads page after page into Recent Codes only, until a short page', async () => {
    const served = await useFrontedService({});
    close = () => served.close();
    const browser = await api();
    let rows = await browser.treeRows(['Recent Codes']);
    assert.strictEqual(items(rows).length, PAGE_SIZE);
    assert.strictEqual(rows.at(-1)?.label, 'Load more…');
    await browser.treeRows(['Popular Codes']);
    const before = (await served.front.paths()).length;

    await browser.click(['Recent Codes', 'Load more…']);
    rows = await rowsWhen(['Recent Codes'], (r) => items(r).length > PAGE_SIZE, 'page 2');
    assert.strictEqual(items(rows).length, 2 * PAGE_SIZE);
    assert.ok(hasLoadMore(rows));
    assert.deepStrictEqual((await served.front.paths()).slice(before), ['/codes/recent.xml?page=2'], 'only that list fetched');

    await browser.click(['Recent Codes', 'Load more…']);
    rows = await rowsWhen(['Recent Codes'], (r) => !hasLoadMore(r), 'the last page');
    assert.deepStrictEqual(items(rows).map((r) => r.label), sample.recentCodes.all.map((c) => c.title));
    // Popular Codes kept its one page and its own Load more.
    const popular = await browser.treeRows(['Popular Codes']);
    assert.strictEqual(items(popular).length, PAGE_SIZE);
    assert.ok(hasLoadMore(popular));
  });

  it('drops Load more when the next page repeats the last one', async () => {
    const served = await useFrontedService({ ignorePage: true });
    close = () => served.close();
    const browser = await api();
    await browser.treeRows(['Recent Refactorings']);
    await browser.click(['Recent Refactorings', 'Load more…']);
    const rows = await rowsWhen(['Recent Refactorings'], (r) => !hasLoadMore(r), 'Load more to go');
    assert.strictEqual(items(rows).length, PAGE_SIZE, 'no row twice');
  });

  it('drops Load more after an empty page', async () => {
    // Exactly one full page: page 2 comes back empty.
    const codes = sampleJson.codes.slice(0, PAGE_SIZE);
    const served = await useFrontedService({}, { users: sampleJson.users, codes, refactors: [] });
    close = () => served.close();
    const browser = await api();
    await browser.treeRows(['Recent Codes']);
    await browser.click(['Recent Codes', 'Load more…']);
    const rows = await rowsWhen(['Recent Codes'], (r) => !hasLoadMore(r), 'Load more to go');
    assert.strictEqual(items(rows).length, PAGE_SIZE);
    assert.ok((await served.front.paths()).includes('/codes/recent.xml?page=2'));
  });
});
