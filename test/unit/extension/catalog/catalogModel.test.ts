// The Catalog's lists without VS Code: paging rules, a list paging in over HTTP from the reference
// service, the language filter and its fallback when a service 404s a language form, the offline
// store, a list shown from that store when the service is gone, and the Catalog model the tree
// renders (roots, lists, a code's refactorings, Starred, failures, unreachable).
import * as assert from 'node:assert/strict';
import { RefactorClient } from '../../../../src/client/client';
import { isApiError } from '../../../../src/core/errors';
import { SERVICE_LANGUAGES } from '../../../../src/core/languages';
import { PAGE_SIZE, type Code, type Refactor } from '../../../../src/core/model';
import { silentLogger } from '../../../../src/client/logger';
import { CatalogList, causeOf, isUnreachable } from '../../../../src/extension/catalog/list';
import { fetchForLanguage, languageChoices, normalizeLanguageInput, sameLanguage } from '../../../../src/extension/catalog/languageFilter';
import { loadRefactors, pageLoader, type ListSpec } from '../../../../src/extension/catalog/listSources';
import { OfflineStore } from '../../../../src/extension/catalog/offlineStore';
import type { GlobalMemento } from '../../../../src/extension/common/globalStore';
import { appendPage, isLastPage } from '../../../../src/extension/catalog/paging';
import { CatalogModel, type CatalogState, type CatalogStars, type RowData } from '../../../../src/extension/catalog/model';
import type { ItemTarget } from '../../../../src/extension/common/items';
import { StarList, type Star } from '../../../../src/extension/stars/starList';
import { loadSampleDataset } from '../../../../src/server/catalog/sampleDataset';
import { startServer, type RunningServer } from '../../../../src/server/http/server';
import { aCode } from '../../../helpers/builders';
import { startFrontServer, type FrontServer } from '../../../helpers/frontServer';

/** globalState's contract, in memory; values go through JSON as VS Code stores them. */
class MemoryStore implements GlobalMemento {
  readonly map = new Map<string, string>();
  get<T>(key: string): T | undefined {
    const raw = this.map.get(key);
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.map.delete(key);
    else this.map.set(key, JSON.stringify(value));
  }
  setKeysForSync(): void {}
}

const sample = loadSampleDataset();
const ids = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

describe('paging rules', () => {
  it('ends a list on an empty page, a short page, or a repeat of the last page', () => {
    assert.equal(isLastPage([], undefined), true);
    assert.equal(isLastPage(ids(PAGE_SIZE - 1), undefined), true);
    assert.equal(isLastPage(ids(PAGE_SIZE), undefined), false);
    assert.equal(isLastPage(ids(PAGE_SIZE), ids(PAGE_SIZE)), true);
    assert.equal(isLastPage(ids(PAGE_SIZE).map((i) => i + 100), ids(PAGE_SIZE)), false);
    assert.equal(isLastPage([1, 2, 3], [1, 2, 3], 3), true);
  });

  it('appends a page without repeating what is listed', () => {
    const a = [{ id: 1 }, { id: 2 }];
    assert.deepEqual(appendPage(a, [{ id: 2 }, { id: 3 }, { id: 3 }]).map((i) => i.id), [1, 2, 3]);
  });
});

describe('language choices', () => {
  it('offers All Languages and every service language, marking the current one', () => {
    const choices = languageChoices('ruby');
    assert.deepEqual(choices.map((c) => c.label), ['All Languages', ...SERVICE_LANGUAGES]);
    assert.deepEqual(choices.filter((c) => c.description === 'current').map((c) => c.language), ['Ruby']);
    assert.equal(languageChoices('')[0].description, 'current');
    assert.equal(normalizeLanguageInput('  vb.net '), 'VB.NET');
    assert.equal(normalizeLanguageInput('Cobol'), 'Cobol');
    assert.ok(sameLanguage('ruby', 'Ruby') && !sameLanguage('C', 'C++'));
  });
});

describe('Catalog lists over HTTP', function () {
  this.timeout(20_000);
  let service: RunningServer;
  let front: FrontServer | undefined;
  let client: RefactorClient | undefined;
  const store = new MemoryStore();

  before(async () => {
    service = await startServer({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await client?.close();
    await front?.close();
    client = undefined;
    front = undefined;
  });
  after(async () => service.close());

  function listOf<S extends ListSpec>(spec: S, baseUrl: string, language = '', offline = new OfflineStore(store)) {
    const c = new RefactorClient({ baseUrl, timeoutMs: 5000, maxTries: 1 });
    client = c;
    return new CatalogList<Code | Refactor>(pageLoader(spec, { getClient: async () => c, language, offline, serviceKey: baseUrl }));
  }

  it('pages Recent Codes in until a short page, each page once, in the service order', async () => {
    const list = listOf({ kind: 'recentCodes' }, service.url);
    await list.ensureFirstPage();
    assert.equal(list.items.length, PAGE_SIZE);
    assert.equal(list.hasMore, true);
    for (let i = 0; i < 10 && list.hasMore; i++) await list.loadMore();
    assert.equal(list.hasMore, false);
    assert.equal(list.pagesLoaded, Math.ceil(sample.recentCodes.all.length / PAGE_SIZE));
    assert.deepEqual(list.items.map((c) => c.id), sample.recentCodes.all.map((c) => c.id));
    // Nothing more to load: no request, nothing changes.
    await list.loadMore();
    assert.equal(list.items.length, sample.recentCodes.all.length);
  });

  it('stops after page 2 when the service ignores ?page, without repeating rows', async () => {
    front = await startFrontServer(service.url, { ignorePage: true });
    const list = listOf({ kind: 'recentCodes' }, front.url);
    await list.ensureFirstPage();
    await list.loadMore();
    assert.equal(list.hasMore, false);
    assert.deepEqual(list.items.map((c) => c.id), sample.recentCodes.all.slice(0, PAGE_SIZE).map((c) => c.id));
    assert.deepEqual(front.paths, ['/codes/recent.xml', '/codes/recent.xml?page=2']);
  });

  it('filters Popular Codes here when the service 404s its language form, and says so', async () => {
    front = await startFrontServer(service.url, { noLanguageForms: true });
    const list = listOf({ kind: 'popularCodes' }, front.url, 'Ruby');
    await list.ensureFirstPage();
    assert.equal(list.error, undefined);
    assert.equal(list.filteredHere, true);
    const expected = sample.popularCodes.all.slice(0, PAGE_SIZE).filter((c) => c.language === 'Ruby').map((c) => c.id);
    assert.ok(expected.length > 0);
    assert.deepEqual(list.items.map((c) => c.id), expected);
    // Page 2 goes straight to the unfiltered form.
    await list.loadMore();
    assert.deepEqual(front.paths, ['/codes/popular/ruby.xml', '/codes/popular.xml', '/codes/popular.xml?page=2']);
    assert.ok(list.items.every((c) => c.language === 'Ruby'));
  });

  it('uses the language form where the service has it', async () => {
    const list = listOf({ kind: 'recentRefactorings' }, service.url, 'Python');
    await list.ensureFirstPage();
    assert.equal(list.filteredHere, false);
    assert.deepEqual(list.items.map((r) => r.id), sample.recentRefactors.all.filter((r) => r.language === 'Python').slice(0, PAGE_SIZE).map((r) => r.id));
  });

  it('falls back only where allowed: otherwise a 404 is an error with its one-line cause', async () => {
    // Only the forms the spec does not show fall back; recent/<language> and tags/<tag>/<language> are in it.
    front = await startFrontServer(service.url, { noLanguageForms: true });
    const c = new RefactorClient({ baseUrl: front.url, timeoutMs: 5000, maxTries: 1 });
    client = c;
    const err = await fetchForLanguage('Ruby', (language) => c.popularCodes({ language }), { canFallBack: false })
      .then(() => undefined, (e: unknown) => e);
    assert.ok(isApiError(err) && err.status === 404, String(err));
    assert.match(causeOf(err), /404/);
    assert.deepEqual(front.paths, ['/codes/popular/ruby.xml']);
  });

  it('shows the last good pages, marked with their time, when the service is gone', async () => {
    const kept = new MemoryStore();
    const before = Date.now();
    const live = await startServer({ host: '127.0.0.1', port: 0 });
    const first = listOf({ kind: 'recentRefactorings' }, live.url, '', new OfflineStore(kept));
    await first.ensureFirstPage();
    await first.loadMore();
    assert.equal(first.cachedAt, undefined);
    await client?.close();
    await live.close();

    const again = listOf({ kind: 'recentRefactorings' }, live.url, '', new OfflineStore(kept));
    await again.ensureFirstPage();
    await again.loadMore();
    assert.equal(again.error, undefined);
    assert.deepEqual(again.items, first.items, 'the same refactorings, dates included');
    assert.ok(again.items[0].createdAt instanceof Date);
    assert.ok(again.cachedAt && again.cachedAt.getTime() >= before - 1000 && again.cachedAt.getTime() <= Date.now());

    // Page 3 was never seen: an error row, with the cause, after the cached rows.
    await again.loadMore();
    assert.ok(isUnreachable(again.error), String(again.error));
    assert.equal(again.items.length, first.items.length);
  });

  it('keeps a code\'s refactorings too, and shows them with their time when the service is gone', async () => {
    const kept = new OfflineStore(new MemoryStore());
    const live = await startServer({ host: '127.0.0.1', port: 0 });
    const c = new RefactorClient({ baseUrl: live.url, timeoutMs: 5000, maxTries: 1 });
    client = c;
    const ctx = { getClient: async () => c, offline: kept, serviceKey: live.url };
    const fresh = await loadRefactors(5, ctx);
    assert.equal(fresh.cachedAt, undefined);
    assert.ok(fresh.refactors.length > 0);
    assert.deepEqual(fresh.refactors, (await c.code(5)).refactors);
    await live.close();

    c.expire(); // as Refresh does: the service's max-age would let the client answer from memory
    const later = await loadRefactors(5, ctx);
    assert.deepEqual(later.refactors, fresh.refactors, 'the same refactorings, dates included');
    assert.ok(later.cachedAt instanceof Date);
    // Another code was never seen: the live failure, not an empty list.
    await assert.rejects(loadRefactors(6, ctx), (err: unknown) => isUnreachable(err));
    // Another service's copy is not this one's.
    await assert.rejects(loadRefactors(5, { ...ctx, serviceKey: 'http://elsewhere.example' }), (err: unknown) => isUnreachable(err));
  });

  it('fails with an unreachable cause when the service is gone and nothing is kept', async () => {
    const live = await startServer({ host: '127.0.0.1', port: 0 });
    await live.close();
    const list = listOf({ kind: 'popularCodes' }, live.url, '', new OfflineStore(new MemoryStore()));
    await list.ensureFirstPage();
    assert.ok(isUnreachable(list.error), String(list.error));
    assert.equal(list.items.length, 0);
    assert.equal(list.hasMore, false);
  });

  it('retries only the failed list, and shares one load between concurrent callers', async () => {
    front = await startFrontServer(service.url, {});
    front.hold();
    const list = listOf({ kind: 'recentCodes' }, front.url);
    const both = Promise.all([list.ensureFirstPage(), list.ensureFirstPage()]);
    assert.equal(list.isLoading, true);
    front.release();
    await both;
    assert.equal(front.paths.length, 1);
    assert.equal(list.items.length, PAGE_SIZE);
  });
});

describe('offline store', () => {
  const code = (id: number): Code => aCode({ id, title: `c${id}`, permalink: '', code: 'x\n', createdAt: new Date('2007-11-06T13:14:22Z') });

  it('keeps pages with their dates and time saved, and drops the oldest beyond its bound', async () => {
    let now = 1_000_000;
    const store = new OfflineStore(new MemoryStore(), { maxEntries: 3 }, undefined, () => new Date(now));
    for (let i = 1; i <= 5; i++) {
      now += 1000;
      await store.save(`k${i}`, { items: [code(i)], served: [i], filteredHere: i === 5 });
    }
    assert.equal(store.size().entries, 3);
    assert.equal(store.load('k1'), undefined);
    assert.equal(store.load('k2'), undefined);
    const last = store.load<Code>('k5');
    assert.ok(last);
    assert.deepEqual(last.items, [code(5)]);
    assert.equal(last.filteredHere, true);
    assert.equal(last.savedAt.getTime(), now);
    // Saving a key again makes it the newest, not a second entry.
    now += 1000;
    await store.save('k3', { items: [], served: [], filteredHere: false });
    assert.equal(store.size().entries, 3);
    assert.deepEqual(store.load('k3')?.items, []);
  });

  it('keeps no entry over 1 MiB and at most 16 MiB in all, dropping the oldest first; a skipped entry is logged once', async () => {
    let now = 1_000_000;
    const memory = new MemoryStore();
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (m: string) => warnings.push(m) };
    const store = new OfflineStore(memory, {}, logger, () => new Date(now));
    // A page whose stored text is about `kib` KiB (non-ASCII counts in UTF-8 bytes: é is two).
    const page = (id: number, kib: number) => ({ items: [{ ...code(id), code: 'é'.repeat(kib * 512) }], served: [id], filteredHere: false });
    const stored = (): number => [...memory.map].filter(([k]) => k !== 'refactorBrowser.offline.index' && k.startsWith('refactorBrowser.offline.'))
      .reduce((sum, [k]) => sum + Buffer.byteLength(memory.get<string>(k) as string), 0);

    await store.save('big', page(1, 1025));
    await store.save('big', page(1, 1100));
    assert.equal(store.load('big'), undefined, 'over 1 MiB: not kept');
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0], /^not kept for offline use: big is 1\.\d MiB, over the 1\.0 MiB an entry may take$/);

    for (let i = 1; i <= 20; i++) {
      now += 1000;
      await store.save(`p${i}`, page(i, 1000));
    }
    const { entries, bytes } = store.size();
    assert.equal(entries, 16, 'sixteen pages of about 1000 KiB fit in 16 MiB, the seventeenth does not');
    assert.ok(bytes <= 16 * 1024 * 1024 && bytes === stored(), `${bytes} bytes in the index, ${stored()} stored`);
    assert.equal(store.load('p4'), undefined, 'the oldest went first');
    assert.equal(store.load<Code>('p5')?.items[0].id, 5);
    assert.equal(store.load<Code>('p20')?.items[0].id, 20);
    assert.equal(warnings.length, 1, 'dropping the oldest is the bound at work, not news');
  });

  it('keeps every page saved at the same time: saves are written one after another', async () => {
    // Like VS Code's global state, each update resolves later, after other work ran.
    class SlowStore extends MemoryStore {
      override async update(key: string, value: unknown): Promise<void> {
        await new Promise((resolve) => setTimeout(resolve, 1));
        await super.update(key, value);
      }
    }
    const store = new OfflineStore(new SlowStore());
    const saving = Array.from({ length: 12 }, (_, i) => store.save(`k${i}`, { items: [code(i)], served: [i], filteredHere: false }));
    assert.equal(store.load('k11'), undefined, 'not written yet');
    await store.settled();
    assert.equal(store.size().entries, 12, 'no entry lost to another save');
    for (let i = 0; i < 12; i++) assert.deepEqual(store.load<Code>(`k${i}`)?.items, [code(i)]);
    await Promise.all(saving);
  });

  it('measures entries kept by an earlier version that recorded no sizes', async () => {
    const memory = new MemoryStore();
    const old = JSON.stringify({ items: [code(1)], served: [1], filteredHere: false, savedAt: 1 });
    await memory.update('refactorBrowser.offline.old', old);
    await memory.update('refactorBrowser.offline.index', [{ key: 'old', savedAt: 1 }]);
    const store = new OfflineStore(memory);
    assert.deepEqual(store.size(), { entries: 1, bytes: Buffer.byteLength(old) });
    assert.deepEqual(store.load<Code>('old')?.items, [code(1)]);
  });

  it('forgets everything it kept when cleared, and keeps again after', async () => {
    const memory = new MemoryStore();
    const store = new OfflineStore(memory);
    for (const k of ['a', 'b']) await store.save(k, { items: [code(1)], served: [1], filteredHere: false });
    await memory.update('someone.else', 1);
    await store.clear();
    assert.equal(store.size().entries, 0);
    assert.equal(store.load('a'), undefined);
    assert.deepEqual([...memory.map.keys()].sort(), ['refactorBrowser.offline.index', 'someone.else'], 'only its own keys go');
    await store.save('a', { items: [code(2)], served: [2], filteredHere: false });
    assert.deepEqual(store.load<Code>('a')?.items, [code(2)]);
  });

  it('treats a damaged entry as none', async () => {
    const memory = new MemoryStore();
    const store = new OfflineStore(memory);
    await memory.update('refactorBrowser.offline.k', '{not json');
    assert.equal(store.load('k'), undefined);
    await memory.update('refactorBrowser.offline.k', JSON.stringify({ items: 'no' }));
    assert.equal(store.load('k'), undefined);
  });
});

describe('Catalog model (the tree without VS Code)', function () {
  this.timeout(20_000);
  let live: RunningServer;
  const clients: RefactorClient[] = [];

  before(async () => {
    live = await startServer({ host: '127.0.0.1', port: 0 });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  after(async () => live.close());

  /** Stars as the extension keeps them: the synced list in memory, and the codes kept whole. */
  class MemoryStars implements CatalogStars {
    readonly list = new StarList(new MemoryStore());
    readonly kept = new Map<number, { code: Code; keptAt: Date }>();
    current(): Star[] {
      return this.list.list('s');
    }
    isStarred(target: ItemTarget): boolean {
      return this.list.has('s', target);
    }
    async offlineCopy(codeId: number): Promise<{ code: Code; keptAt: Date } | undefined> {
      return this.list.hasCode('s', codeId) ? this.kept.get(codeId) : undefined;
    }
    /** What each call was given as the earlier failure. */
    readonly givenFailures: unknown[] = [];
    /** A star whose code has no copy fails as a fetch from an unreachable service would. */
    async withCodes(failed?: unknown): Promise<{ rows: Array<{ star: Star; code: Code }>; failure?: unknown }> {
      this.givenFailures.push(failed);
      const rows: Array<{ star: Star; code: Code }> = [];
      let failure: unknown;
      for (const star of this.current()) {
        const kept = this.kept.get(star.codeId);
        if (kept) rows.push({ star, code: kept.code });
        else failure ??= failed ?? new Error(`code #${star.codeId} is not kept`);
      }
      return failure === undefined ? { rows } : { rows, failure };
    }
  }

  function modelOf(baseUrl: string, state: Partial<CatalogState> = {}, stars = new MemoryStars()) {
    const client = new RefactorClient({ baseUrl, timeoutMs: 5000, maxTries: 1 });
    clients.push(client);
    const logged: string[] = [];
    const model = new CatalogModel({
      service: { getClient: async () => client, expireHeld: () => client.expire(), name: () => baseUrl },
      offline: new OfflineStore(new MemoryStore()),
      stars,
      logFailure: (failure) => logged.push(failure),
    }, { language: '', tags: [], service: baseUrl, refactoringOrder: 'bestRated', ...state });
    return { model, logged, stars, client };
  }

  const recentCodes = { id: 'root:recentCodes', label: 'Recent Codes', list: { kind: 'recentCodes' } } as const;

  it('shows the roots, Starred only while something is starred, and a list page by page with Load More', async () => {
    const { model, stars } = modelOf(live.url);
    assert.deepEqual(model.roots(), ['recentCodes', 'popularCodes', 'tags', 'recentRefactorings']);
    const first = await model.listRows(recentCodes);
    assert.deepEqual(first.rows.filter((r) => r.kind === 'code').map((r) => r.kind === 'code' && r.code.id), sample.recentCodes.all.slice(0, PAGE_SIZE).map((c) => c.id));
    assert.equal(first.rows.at(-1)?.kind, 'loadMore');
    assert.equal(await model.loadMore(recentCodes.id), true);
    const second = await model.listRows(recentCodes);
    assert.equal(second.rows.filter((r) => r.kind === 'code').length, 2 * PAGE_SIZE);
    assert.equal(model.loadedItems().codes.length, 2 * PAGE_SIZE);
    await stars.list.add('s', { kind: 'code', codeId: sample.recentCodes.all[0].id, title: 't', language: 'Ruby', starredAt: 1 });
    assert.deepEqual(model.roots()[0], 'starred');
    const rows = await model.listRows(recentCodes);
    assert.deepEqual(rows.rows.filter((r) => r.kind === 'code' && r.starred).length, 1);
  });

  it('orders a code\'s refactorings as the state says, newest or oldest first', async () => {
    const { model, client } = modelOf(live.url, { refactoringOrder: 'newest' });
    const code = (await client.recentCodes()).find((c) => (c.refactorsCount ?? 0) >= 3)!;
    const owner = { id: `root:recentCodes/code:${code.id}`, label: `Refactorings of ${code.title}` };
    const times = (rows: RowData[]) => rows.map((r) => (r.kind === 'refactor' ? r.refactor.createdAt?.getTime() ?? 0 : NaN));
    const newest = times(await model.refactorRows(code, owner));
    assert.ok(newest.length >= 3 && newest.every((t, i) => i === 0 || newest[i - 1] >= t), JSON.stringify(newest));
    model.update({ ...model.state, refactoringOrder: 'oldest' });
    const oldest = times(await model.refactorRows(code, owner));
    assert.deepEqual(oldest, [...newest].reverse());
  });

  it('says the service cannot be reached when nothing is shown, logs it once, and starts over on Refresh', async () => {
    const gone = await startServer({ host: '127.0.0.1', port: 0 });
    await gone.close();
    const { model, logged } = modelOf(gone.url);
    const causes: Array<string | undefined> = [];
    model.onDidChangeUnreachable((cause) => causes.push(cause));
    const { rows } = await model.listRows(recentCodes);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].kind, 'error');
    assert.equal(model.isUnreachable(), true);
    assert.deepEqual(model.roots(), []);
    assert.deepEqual(model.failures().map((f) => f.label), ['Recent Codes']);
    await model.listRows(recentCodes);
    assert.deepEqual(logged, ['Could not load Recent Codes']);
    model.refresh();
    assert.equal(model.isUnreachable(), false);
    assert.deepEqual(model.failures(), []);
    assert.equal(causes.length, 2);
    assert.ok(causes[0] && /refused/.test(causes[0]), causes[0]);
    assert.equal(causes[1], undefined);
  });

  it('reads a starred code\'s refactorings from the copy kept when its service is down, and says when it was kept', async () => {
    const { client } = modelOf(live.url);
    const listed = (await client.recentCodes()).find((c) => (c.refactorsCount ?? 0) > 0)!;
    const code = await client.code(listed.id);
    const stars = new MemoryStars();
    await stars.list.add('s', { kind: 'code', codeId: code.id, title: code.title, language: code.language, starredAt: 1 });
    const keptAt = new Date(2026, 0, 2);
    stars.kept.set(code.id, { code, keptAt });
    const gone = await startServer({ host: '127.0.0.1', port: 0 });
    await gone.close();
    const { model } = modelOf(gone.url, {}, stars);
    const rows = await model.refactorRows(code, { id: `root:starred/code:${code.id}`, label: code.title });
    assert.deepEqual(rows.filter((r) => r.kind === 'refactor').length, code.refactors!.length);
    assert.deepEqual(rows.at(-1), { kind: 'note', keptAt });
    assert.deepEqual(model.failures(), []);
  });

  it('lists Starred from the kept copies, says why a star without one failed, and asks again only on Retry or Refresh', async () => {
    const { model, client, stars, logged } = modelOf(live.url);
    const listed = (await client.recentCodes()).find((c) => (c.refactorsCount ?? 0) > 0)!;
    const code = await client.code(listed.id);
    const refactor = code.refactors![0];
    stars.kept.set(code.id, { code, keptAt: new Date() });
    await stars.list.add('s', { kind: 'refactor', codeId: code.id, refactorId: refactor.id, title: refactor.title, language: refactor.language, starredAt: 2 });
    await stars.list.add('s', { kind: 'code', codeId: 999_999, title: 'gone', language: 'Ruby', starredAt: 1 });
    const rows = await model.starredRows('Starred');
    assert.deepEqual(rows.map((r) => r.kind), ['refactor', 'error']);
    assert.equal(rows[0].kind === 'refactor' && rows[0].refactor.id, refactor.id);
    assert.equal(rows[1].kind === 'error' && rows[1].cause, 'code #999999 is not kept');
    await model.starredRows('Starred');
    assert.deepEqual(logged, ['Could not load a starred code']);
    await model.retry({ kind: 'starred' });
    await model.starredRows('Starred');
    model.refresh();
    await model.starredRows('Starred');
    const [first, second, afterRetry, afterRefresh] = stars.givenFailures;
    assert.equal(first, undefined);
    assert.ok(second instanceof Error, 'the earlier failure is given again instead of fetching');
    assert.equal(afterRetry, undefined);
    assert.equal(afterRefresh, undefined);
  });

  it('names the code of a refactoring in Recent Refactorings where that code is loaded, and no other', async () => {
    const { model } = modelOf(live.url);
    const refactorings = { id: 'root:recentRefactorings', label: 'Recent Refactorings', list: { kind: 'recentRefactorings' } } as const;
    const before = (await model.listRows(refactorings)).rows.filter((r) => r.kind === 'refactor');
    assert.ok(before.every((r) => r.kind === 'refactor' && r.codeTitle === undefined));
    await model.listRows(recentCodes);
    const after = (await model.listRows(refactorings)).rows;
    const latest = sample.recentRefactors.all[0];
    const code = sample.recentCodes.all.slice(0, PAGE_SIZE).find((c) => c.id === latest.codeId);
    assert.ok(code, 'the latest refactoring\'s code is on the first page of Recent Codes');
    assert.equal(after[0].kind === 'refactor' && after[0].codeTitle, code.title);
  });
});
