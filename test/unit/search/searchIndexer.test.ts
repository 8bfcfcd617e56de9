// Index the Catalog against the reference service (its in-process fetch, and over real HTTP behind a
// front server for failures): every code, refactoring and saved tag read, at most two requests at a
// time; a later run reading only what is new; cancelling and failing keep what was read and leave
// the next run to read the rest; a busy service (503, Retry-After) is asked again.
import { strict as assert } from 'node:assert';
import { RefactorClient } from '../../../src/client/client';
import { PAGE_SIZE, type Code, type Refactor } from '../../../src/core/model';
import type { FetchLike } from '../../../src/client/http';
import type { Dataset } from '../../../src/server/catalog/dataset';
import { inProcessFetch, SAMPLE_BASE_URL } from '../../../src/server/http/fetchHandler';
import { generateCatalog } from '../../../src/server/catalog/generatedCatalog';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { indexCatalog, IndexingCancelled, IndexingError } from '../../../src/search/indexer';
import { CodeSearch } from '../../../src/search/searchIndex';
import { startFrontServer, type FrontServer } from '../../helpers/frontServer';

/** The reference service answering in process, over whichever catalog `serve` holds now; counts what is asked. */
function service(first: Dataset) {
  let dataset = first;
  let answer = inProcessFetch(first);
  let active = 0;
  const seen = { requests: [] as string[], maxActive: 0 };
  const fetch: FetchLike = async (input, init) => {
    seen.requests.push(new URL(String(input)).pathname + new URL(String(input)).search);
    active++;
    seen.maxActive = Math.max(seen.maxActive, active);
    try {
      return await answer(input, init);
    } finally {
      active--;
    }
  };
  return {
    client: new RefactorClient({ baseUrl: SAMPLE_BASE_URL, timeoutMs: 10_000, fetch }),
    seen,
    serve(next: Dataset) {
      dataset = next;
      answer = inProcessFetch(next);
    },
    get dataset() {
      return dataset;
    },
  };
}

const tagsOf = (index: CodeSearch, id: number): string[] => (index.rowsOf([id])[0] as unknown[])[6] as string[];

describe('Index the Catalog', function () {
  this.timeout(30_000);

  it('reads every code, every refactoring and the saved tags\' codes, at most two requests at a time', async () => {
    const svc = service(generateCatalog({ codes: 130 }));
    const index = CodeSearch.empty();
    const progress: number[] = [];
    const result = await indexCatalog({ source: svc.client, index, tags: ['speed', 'null-safety'], onProgress: (p) => progress.push(p.codes) });
    assert.deepEqual(index.counts(), { codes: 130, refactors: 390 });
    assert.deepEqual(result, { pages: result.pages, complete: true, full: false });
    assert.ok(index.indexedAt > 0);
    assert.equal(svc.seen.maxActive, 2, 'two requests at a time, not more, not fewer');
    // Recent codes: 5 full pages and a short one; refactorings: 15 full and a short one.
    for (const [list, pages] of [['/codes/recent.xml', 6], ['/refactorings/recent.xml', 16]] as const) {
      const asked = svc.seen.requests.filter((r) => r.startsWith(`${list}`)).map((r) => Number(new URLSearchParams(r.split('?')[1]).get('page') ?? 1));
      assert.ok(asked.length >= pages && asked.length <= pages + 1, `${list}: pages ${asked.join(',')}`);
    }
    // A code knows the saved tags it was listed under, and its own, which the reference service's lists say.
    const tagged = svc.dataset.tags.get('speed')!.codes.all;
    assert.ok(tagged.length > 0);
    for (const c of tagged) assert.ok(tagsOf(index, c.id).includes('speed'), `code ${c.id}`);
    for (const c of svc.dataset.codes.values()) assert.deepEqual(tagsOf(index, c.id), c.tags.map((t) => t.toLowerCase()), `code ${c.id}`);
    assert.equal(progress.at(-1), 130);
    assert.ok(progress.every((n, i) => i === 0 || n >= progress[i - 1]), 'the count only grows');
  });

  it('a later run reads only what is new: a page or two of each list', async () => {
    const svc = service(generateCatalog({ codes: 130 }));
    const index = CodeSearch.empty();
    await indexCatalog({ source: svc.client, index, tags: ['speed'] });

    // The same service a while later: 60 new codes with their 180 refactorings.
    svc.serve(generateCatalog({ codes: 190 }));
    svc.client.expire();
    svc.seen.requests.length = 0;
    const result = await indexCatalog({ source: svc.client, index, tags: ['speed'] });
    assert.deepEqual(index.counts(), { codes: 190, refactors: 570 });
    assert.equal(result.complete, true);
    const count = (list: string): number => svc.seen.requests.filter((r) => r.startsWith(list)).length;
    // 60 new codes reach into page 3, 180 new refactorings into page 8; one more page may have been asked in flight.
    assert.ok(count('/codes/recent.xml') >= 3 && count('/codes/recent.xml') <= 4, svc.seen.requests.join(' '));
    assert.ok(count('/refactorings/recent.xml') >= 8 && count('/refactorings/recent.xml') <= 9, svc.seen.requests.join(' '));
    const newest = svc.dataset.recentCodes.all[0];
    assert.ok(index.hasCode(newest.id));

    // Nothing new: the first page of each list says so.
    svc.client.expire();
    svc.seen.requests.length = 0;
    await indexCatalog({ source: svc.client, index, tags: ['speed'] });
    assert.ok(svc.seen.requests.length <= 6, svc.seen.requests.join(' '));
  });

  it('counts the pages that make up the lists, also when the empty page past an end answers before the last one', async () => {
    // 30 codes: two pages, the second short; the second request in flight asks for page 3, which is empty.
    const svc = service(generateCatalog({ codes: 30 }));
    const refactorPages = Math.ceil([...svc.dataset.codes.values()].reduce((n, c) => n + c.refactors.length, 0) / PAGE_SIZE);
    const source = {
      recentCodes: async (o: { page?: number; signal?: AbortSignal }) => {
        // The short last page answers only after the empty one after it has.
        if (o.page === 2) await new Promise((r) => setTimeout(r, 100));
        return svc.client.recentCodes(o);
      },
      recentRefactorings: (o: { page?: number }) => svc.client.recentRefactorings(o),
      taggedCodes: (tag: string, o: { page?: number }) => svc.client.taggedCodes(tag, o),
    };
    const result = await indexCatalog({ source, index: CodeSearch.empty() });
    assert.ok(svc.seen.requests.includes('/codes/recent.xml?page=3'), 'the page past the end was asked for');
    assert.deepEqual(result, { pages: 2 + refactorPages, complete: true, full: false });
  });

  it('cancelled, keeps what it read and moves no list\'s mark, so that the next run reads the rest', async () => {
    const svc = service(generateCatalog({ codes: 130 }));
    const index = CodeSearch.empty();
    const stop = new AbortController();
    await assert.rejects(indexCatalog({
      source: svc.client, index, signal: stop.signal,
      onProgress: (p) => { if (p.pages >= 3) stop.abort(); },
    }), IndexingCancelled);
    const partial = index.counts();
    assert.ok(partial.codes > 0 && partial.codes < 130, JSON.stringify(partial));
    assert.equal(index.listProgress('codes'), undefined);
    assert.equal(index.indexedAt, 0);
    const result = await indexCatalog({ source: svc.client, index });
    assert.equal(result.complete, true);
    assert.deepEqual(index.counts(), { codes: 130, refactors: 390 });
  });

  it('indexes a code once it is read whole: not found while its refactorings come in, found once the last is in or the run ends', async () => {
    const svc = service(generateCatalog({ codes: 60 }));
    const codes = [...svc.dataset.codes.values()];
    const whole = codes.find((c) => c.refactors.length >= 2)!;
    // A code the service counts more refactorings for than it lists: it waits until the run ends.
    const miscounted = codes.find((c) => c !== whole && c.refactors.length >= 1)!;
    const source = {
      recentCodes: async (o: { page?: number }) => (await svc.client.recentCodes(o)).map((c) => (c.id === miscounted.id ? { ...c, refactorsCount: 99 } : c)),
      recentRefactorings: (o: { page?: number }) => svc.client.recentRefactorings(o),
      taggedCodes: (tag: string, o: { page?: number }) => svc.client.taggedCodes(tag, o),
    };
    const index = CodeSearch.empty();
    const found = (id: number, title: string): boolean => index.search(title, { limit: 1000 }).some((h) => h.codeId === id);
    const known = (id: number): number => ((index.rowsOf([id])[0] as unknown[] | undefined)?.[9] as unknown[] | undefined)?.length ?? 0;
    const seen: Array<{ known: number; found: boolean; miscountedFound: boolean }> = [];
    await indexCatalog({
      source, index,
      afterPage: async () => {
        if (index.hasCode(whole.id)) seen.push({ known: known(whole.id), found: found(whole.id, whole.title), miscountedFound: found(miscounted.id, miscounted.title) });
      },
    });
    const before = seen.filter((s) => s.known < whole.refactors.length);
    const after = seen.filter((s) => s.known === whole.refactors.length);
    assert.ok(before.length > 0 && after.length > 0, 'pages were read before and after the last refactoring came in');
    assert.ok(before.every((s) => !s.found), 'not found while refactorings were missing');
    assert.ok(after.every((s) => s.found), 'found once read whole');
    assert.ok(seen.every((s) => !s.miscountedFound), 'the miscounted code waited for the run to end');
    assert.ok(found(miscounted.id, miscounted.title), 'and is found after it');
    assert.deepEqual(index.counts(), { codes: 60, refactors: codes.reduce((n, c) => n + c.refactors.length, 0) });

    // The same answers as an index that took in every page at once, outside a run.
    const once = CodeSearch.empty();
    for (const read of [(page: number) => svc.client.recentCodes({ page }), (page: number) => svc.client.recentRefactorings({ page })]) {
      for (let page = 1, got = PAGE_SIZE; got === PAGE_SIZE; page++) {
        const items = await read(page);
        got = items.length;
        if ('codeId' in (items[0] ?? {})) once.addRefactors(items as Refactor[]);
        else once.addCodes((items as Code[]).map((c) => (c.id === miscounted.id ? { ...c, refactorsCount: 99 } : c)));
      }
    }
    const answers = (x: CodeSearch, q: string): string[] => x.search(q, { limit: 1000 }).map((h) => `${h.codeId}:${h.refactorId ?? ''}:${h.score.toPrecision(9)}`).sort();
    for (const q of [whole.title, miscounted.title, 'ruby', 'python loop', 'refactor']) assert.deepEqual(answers(index, q), answers(once, q), q);
  });

  it('a cancelled run indexes what it held back for refactorings still to come', async () => {
    const svc = service(generateCatalog({ codes: 60 }));
    const index = CodeSearch.empty();
    const stop = new AbortController();
    await assert.rejects(indexCatalog({ source: svc.client, index, signal: stop.signal, onProgress: (p) => { if (p.codes >= 25) stop.abort(); } }), IndexingCancelled);
    const read = [...svc.dataset.codes.values()].filter((c) => index.hasCode(c.id));
    assert.ok(read.length >= 25);
    for (const c of read) assert.ok(index.search(c.title, { limit: 1000 }).some((h) => h.codeId === c.id), `code ${c.id} "${c.title}"`);
  });

  describe('over HTTP', () => {
    let server: RunningServer;
    let front: FrontServer;
    let client: RefactorClient;

    beforeEach(async () => {
      server = await startServer({ host: '127.0.0.1', port: 0, catalog: generateCatalog({ codes: 80 }) });
      front = await startFrontServer(server.url, {});
      client = new RefactorClient({ baseUrl: front.url, timeoutMs: 5000 });
    });
    afterEach(async () => {
      await client.close();
      await front.close();
      await server.close();
    });

    it('stops at the first failed request, naming the list, the page and the cause, and keeps what it read', async () => {
      front.failing.add('/codes/recent.xml?page=3');
      const index = CodeSearch.empty();
      const err = await indexCatalog({ source: client, index }).then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof IndexingError, String(err));
      assert.equal(err.message.split('\n').length, 1);
      assert.match(err.message, /^could not read recent codes, page 3: .*codes\/recent\.xml\?page=3: HTTP 500 Internal Server Error$/);
      assert.ok(index.counts().codes >= 50, JSON.stringify(index.counts()));
      assert.equal(index.listProgress('codes'), undefined);
      // No request after the failure was answered: at most the one already in flight.
      const after = front.paths.slice(front.paths.indexOf('/codes/recent.xml?page=3') + 1);
      assert.ok(after.length <= 1, after.join(' '));

      front.failing.clear();
      await indexCatalog({ source: client, index });
      assert.deepEqual(index.counts(), { codes: 80, refactors: 240 });
    });

    it('asks a busy service again when it says when (503 with Retry-After), and reads on', async () => {
      front.busy.set('/refactorings/recent.xml?page=2', 2);
      const index = CodeSearch.empty();
      const result = await indexCatalog({ source: client, index });
      assert.equal(result.complete, true);
      assert.deepEqual(index.counts(), { codes: 80, refactors: 240 });
      assert.equal(front.paths.filter((p) => p === '/refactorings/recent.xml?page=2').length, 3);
    });
  });
});
