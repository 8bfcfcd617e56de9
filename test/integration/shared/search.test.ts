// Search in VS Code, in both extension hosts: Index the Catalog reads every code and refactoring of a
// service and search finds them; what the Catalog and code views fetched is searchable without
// indexing; the index outlives the window and the service; a failed or second run keeps what it has.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { api, resetState, useSettings, waitFor } from '../helpers';
import { startFront, startService, type FrontService, type RunningService } from '../services';
import { closeAllEditors } from '../codeViewHelpers';

const sample = loadSampleDataset();
const sampleRefactors = [...sample.codes.values()].reduce((n, c) => n + c.refactors.length, 0);

describe('Search', function () {
  this.timeout(60_000);

  before(resetState);
  beforeEach(async () => {
    await (await api()).forgetSearch();
  });
  afterEach(closeAllEditors);
  after(async () => {
    await resetState();
    await (await api()).forgetSearch();
  });

  it('Index the Catalog reads every code and refactoring of the sample catalog, and search finds them by title, by a typo, by code text', async () => {
    const browser = await api();
    const run = await browser.indexCatalog();
    assert.ok(run?.complete, 'the run read every list to its end');
    const known = await browser.searchIndex();
    assert.deepStrictEqual({ codes: known.codes, refactors: known.refactors }, { codes: sample.codes.size, refactors: sampleRefactors });
    assert.ok(Date.now() - known.indexedAt < 60_000, 'it says when it was indexed');

    const code = sample.recentCodes.all[3];
    const [first] = await browser.searchFor(code.title);
    assert.strictEqual(first?.codeId, code.id, `"${code.title}" finds its code first`);
    // A typo in the longest word of the title still finds it.
    const word = code.title.split(/\W+/).sort((a, b) => b.length - a.length)[0];
    assert.ok(word.length >= 5, word);
    // One letter changed: one edit, which a word of four letters or more may have.
    const typo = `${word.slice(0, 2)}${word[2].toLowerCase() === 'x' ? 'y' : 'x'}${word.slice(3)}`;
    assert.ok((await browser.searchFor(typo)).some((h) => h.codeId === code.id), `"${typo}" (for ${word}) finds it too`);
  });

  it('starts over, and logs why, from an index file it cannot read: one versions before saved (formats 2 and 3), one cut short, or one whose head does not hold up', async () => {
    const browser = await api();
    await browser.indexCatalog();
    const file = vscode.Uri.parse(browser.searchFile());
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    // JSON Lines: the head, a line per term's postings, then a row a line. Format 3 held the postings
    // in the head's MiniSearch part, format 2 the rows too in the one document.
    const [head, ...lines] = text.split('\n');
    const { rows: heldRows, postings: count, ...rest } = JSON.parse(head) as Record<string, unknown> & { postings: number; index: object };
    const postings = lines.slice(0, count);
    const rows = lines.slice(count);
    const format3 = { ...rest, format: 3, index: { ...rest.index, postings }, rows: heldRows };
    const format2 = { ...rest, format: 2, index: { ...rest.index, postings }, entries: rows.map((r) => JSON.parse(r) as unknown) };
    // A summary claiming no characters for its row, which would let a huge row past the bound on what search keeps.
    const summaries = (JSON.parse(head) as { rows: Array<[number, number, number, number, string]> }).rows;
    const lying = JSON.stringify({ ...JSON.parse(head) as object, rows: summaries.map(([id, seen, refactors, , language], i) => [id, seen, refactors, i === 0 ? 0 : summaries[i][3], language]) });
    assert.ok(count > 0 && postings.every((p) => /^[0-9a-z,]+$/.test(p)), 'the postings lines, base-36 numbers and commas');
    assert.match(head, /"indexedAt":\d+/);
    const cases: Array<[string, string, RegExp]> = [
      ['format 3', [JSON.stringify(format3), ...rows].join('\n'), /not in a form this version reads; starting the index of .* over/],
      ['format 2', JSON.stringify(format2), /not in a form this version reads; starting the index of .* over/],
      ['a postings line missing', [head, ...lines.slice(1)].join('\n'), /is cut short, or holds a row its head does not describe; starting the index of .* over/],
      ['cut in its head', text.slice(0, head.length >> 1), /is not JSON .*; starting the index of .* over/],
      ['cut short of its last row', text.slice(0, text.lastIndexOf('\n')), /is cut short, or holds a row its head does not describe; starting the index of .* over/],
      ['an infinite time', text.replace(/"indexedAt":\d+/, '"indexedAt":1e309'), /not in a form this version reads; starting the index of .* over/],
      ['a summary claiming no characters', [lying, ...lines].join('\n'), /holds a row its head does not describe; starting the index of .* over/],
    ];
    for (const [what, damaged, logged] of cases) {
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(damaged));
      await browser.reloadSearch();
      const known = await browser.searchIndex();
      assert.deepStrictEqual({ codes: known.codes, refactors: known.refactors, indexedAt: known.indexedAt }, { codes: 0, refactors: 0, indexedAt: 0 }, `${what}: search says the catalog needs indexing`);
      assert.deepStrictEqual(await browser.searchFor(sample.recentCodes.all[0].title), [], what);
      await waitFor(() => browser.recentLog().find((l) => logged.test(l)), `${what} logged`);
    }
  });

  it('indexes its entries again, and logs so, from an index file whose fields were renamed: search finds them, and the next save holds', async () => {
    const browser = await api();
    await browser.indexCatalog();
    const file = vscode.Uri.parse(browser.searchFile());
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    const end = text.indexOf('\n');
    const head = JSON.parse(text.slice(0, end)) as { index: { fieldIds: Record<string, number> } };
    const { title, ...others } = head.index.fieldIds;
    const renamed = { ...head, index: { ...head.index, fieldIds: { ...others, titel: title } } };
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(`${JSON.stringify(renamed)}${text.slice(end)}`));
    await browser.reloadSearch();
    const code = sample.recentCodes.all[5];
    assert.strictEqual((await browser.searchFor(code.title))[0]?.codeId, code.id, 'found by its title');
    await waitFor(() => browser.recentLog().find((l) => /did not match its entries and was built again/.test(l)), 'the rebuild logged');
    const known = await browser.searchIndex();
    assert.deepStrictEqual({ codes: known.codes, refactors: known.refactors }, { codes: sample.codes.size, refactors: sampleRefactors });
    // Saved again (Index the Catalog saves when it ends), it reads back as it is.
    assert.ok((await browser.indexCatalog())?.complete);
    const saved = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
    assert.deepStrictEqual(Object.keys((JSON.parse(saved.slice(0, saved.indexOf('\n'))) as typeof head).index.fieldIds).sort(), ['about', 'language', 'text', 'title']);
  });

  it('knows what the Catalog loaded without indexing, and says the catalog is not indexed', async () => {
    const browser = await api();
    const shown = await browser.treeRows(['Recent Codes']);
    const code = sample.recentCodes.all[0];
    assert.ok(shown.some((r) => r.label === code.title));
    const hits = await waitFor(async () => {
      const found = await browser.searchFor(code.title);
      return found[0]?.codeId === code.id ? found : undefined;
    }, 'the listed code found');
    assert.strictEqual(hits[0].kind, 'code');
    const known = await browser.searchIndex();
    assert.strictEqual(known.indexedAt, 0);
    assert.ok(known.codes >= shown.filter((r) => r.contextValue.startsWith('code')).length);
  });

  describe('over a service on loopback', () => {
    let service: RunningService;
    let front: FrontService;

    beforeEach(async () => {
      service = await startService();
      front = await startFront(service.url);
      await useSettings({ baseUrl: front.url });
      await (await api()).forgetSearch();
    });
    afterEach(async () => {
      await (await api()).forgetSearch();
      await resetState();
      await front.close();
      await service.close();
    });

    it('keeps the index for the next window: searched from its files while the service is down', async () => {
      const browser = await api();
      await browser.indexCatalog();
      await browser.reloadSearch();
      await front.close();
      const known = await browser.searchIndex();
      assert.strictEqual(known.loaded, false, 'read from the files, not kept in memory');
      assert.strictEqual(known.codes, sample.codes.size);
      const code = sample.recentCodes.all[7];
      assert.strictEqual((await browser.searchFor(code.title))[0]?.codeId, code.id);
    });

    it('keeps what was browsed for the next window too', async () => {
      const browser = await api();
      await browser.treeRows(['Recent Codes']);
      const code = sample.recentCodes.all[1];
      await waitFor(async () => ((await browser.searchFor(code.title))[0]?.codeId === code.id ? true : undefined), 'the listed code found');
      await browser.reloadSearch();
      assert.strictEqual((await browser.searchFor(code.title))[0]?.codeId, code.id);
    });

    it('a later run reads only the first page or two of each list', async () => {
      const browser = await api();
      const first = await browser.indexCatalog();
      const pages = (n: number): number => Math.ceil(n / 25);
      assert.strictEqual(first?.pages, pages(sample.codes.size) + pages(sampleRefactors), 'the first run reads every page');
      const again = await browser.indexCatalog();
      assert.ok(again?.complete);
      // Two requests at a time: the second page of a list may be asked for before the first says it is enough.
      assert.ok(again.pages >= 2 && again.pages <= 4, `${again.pages} pages`);
      assert.strictEqual((await browser.searchIndex()).codes, sample.codes.size);
    });

    it('stops on the first failed request with one line naming the list and page, and keeps what it read', async () => {
      const browser = await api();
      // Page 3 of recent refactorings: asked for only once a page before it has come, so something was read.
      await front.fail(['/refactorings/recent.xml?page=3']);
      const run = await browser.indexCatalog();
      assert.strictEqual(run, undefined);
      const said = await waitFor(() => browser.recentLog().find((l) => /could not read recent refactorings, page 3/.test(l)), 'the failure logged');
      assert.match(said, /500/);
      assert.strictEqual(said.split('\n')[0], said.split('\n')[0].trim());
      const known = await browser.searchIndex();
      assert.ok(known.refactors >= 25, `what was read is kept: ${known.codes} codes, ${known.refactors} refactorings`);
      assert.strictEqual(known.indexedAt, 0, 'not indexed to the end');
      await vscode.commands.executeCommand('notifications.clearAll');
      // Healed, the next run reads on.
      await front.fail([]);
      assert.ok((await browser.indexCatalog())?.complete);
      assert.strictEqual((await browser.searchIndex()).codes, sample.codes.size);
    });
  });
});
