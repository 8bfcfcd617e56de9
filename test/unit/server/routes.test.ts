// The route table (src/server/routes.ts) is the one statement of the service's paths and methods:
// the path built from it for every kind of route parses back to that route, the pages link what it
// says, and each route's 405 lists exactly the methods it gives, which are the ones answered.

import * as assert from 'node:assert/strict';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { pagePath } from '../../../src/server/render/htmlRender';
import { parseTarget, pathOf, ROUTES, type Route } from '../../../src/server/routes';
import { request } from '../../helpers/referenceService';
import { startWritableService, type WritableService } from '../../helpers/writableService';

/** One route of every kind at least, with and without their optional segment, and fields that need percent-encoding. */
const SAMPLES: readonly Route[] = [
  { kind: 'index' },
  { kind: 'codes', listing: 'recent', language: undefined },
  { kind: 'codes', listing: 'popular', language: 'c#' },
  { kind: 'tag', tag: 'a/b c?%', language: undefined },
  { kind: 'tag', tag: 'speed', language: 'vb.net' },
  { kind: 'refactors', language: undefined },
  { kind: 'refactors', language: 'cpp' },
  { kind: 'code', id: 7 },
  { kind: 'refactor', codeId: 7, id: 2 },
  { kind: 'user', id: 7 },
  { kind: 'newCode' },
  { kind: 'newRefactor', codeId: 7 },
  { kind: 'rate', codeId: 7, id: 2 },
  { kind: 'account' },
  { kind: 'health' },
];

/** The path of a sample route, from the table. */
function pathOfRoute(route: Route): string {
  const { kind, ...fields } = route;
  return pathOf(kind, fields as never);
}

describe('reference service: the route table', () => {
  it('has a sample of every kind of route', () => {
    assert.deepEqual(new Set(SAMPLES.map((r) => r.kind)), new Set(Object.keys(ROUTES)));
  });

  it('parses the path it builds for every route back to that route, as HTML and as XML', () => {
    for (const route of SAMPLES) {
      const path = pathOfRoute(route);
      assert.deepEqual(parseTarget(path), { ok: true, route, format: 'html', page: 1 }, path);
      const xml = parseTarget(`${path}.xml?page=3`);
      if (ROUTES[route.kind].htmlOnly) {
        assert.equal(xml.ok, false, `${path}.xml`);
      } else {
        assert.deepEqual(xml, { ok: true, route, format: 'xml', page: ROUTES[route.kind].paged ? 3 : 1 }, `${path}.xml`);
      }
    }
  });

  it('links each page by the path that names it', () => {
    const named: Array<[string, Route]> = [
      [pagePath.code({ id: 12, permalink: 'sum-an-array' }), { kind: 'code', id: 12 }],
      [pagePath.recent(), { kind: 'codes', listing: 'recent', language: undefined }],
      [pagePath.popular('C#'), { kind: 'codes', listing: 'popular', language: 'cs' }],
      [pagePath.tag('a/b c', 'VB.NET'), { kind: 'tag', tag: 'a/b c', language: 'vb' }],
      [pagePath.refactor({ codeId: 12, id: 3 }), { kind: 'refactor', codeId: 12, id: 3 }],
      [pagePath.refactorings('Ruby'), { kind: 'refactors', language: 'ruby' }],
    ];
    for (const [path, route] of named) assert.deepEqual(parseTarget(path), { ok: true, route, format: 'html', page: 1 }, path);
    assert.equal(pagePath.code({ id: 12, permalink: 'sum-an-array' }), '/codes/12-sum-an-array');
    assert.equal(pagePath.tag('a/b c', 'C++'), '/tags/a%2Fb%20c/cpp');
  });
});

describe('reference service: each route answers the methods the table gives it', function () {
  this.timeout(20_000);
  let writable: WritableService | undefined;
  let readOnly: RunningServer | undefined;
  before(async function () {
    this.timeout(60_000);
    readOnly = await startServer({ port: 0, catalog: loadSampleDataset() });
    writable = await startWritableService();
  });
  after(async () => {
    await writable?.close();
    await readOnly?.close();
  });

  it('a writable service: 405 with the route\'s methods as Allow, and none of those methods 405', async () => {
    for (const route of SAMPLES) {
      const { methods } = ROUTES[route.kind];
      const path = ROUTES[route.kind].htmlOnly ? pathOfRoute(route) : `${pathOfRoute(route)}.xml`;
      const refused = await request(writable!.url, path, { method: 'PUT' });
      assert.equal(refused.status, 405, path);
      assert.equal(refused.headers.allow, [...methods, 'OPTIONS'].join(', '), path);
      for (const method of methods) assert.notEqual((await request(writable!.url, path, { method })).status, 405, `${method} ${path}`);
    }
    const preflight = await request(writable!.url, '/', { method: 'OPTIONS' });
    const every = new Set(Object.values(ROUTES).flatMap((r) => r.methods));
    assert.deepEqual(new Set(preflight.headers['access-control-allow-methods']!.split(', ')), every);
    assert.equal(preflight.headers.allow, `${preflight.headers['access-control-allow-methods']}, OPTIONS`);
  });

  it('a read-only service: only reads, and no route that only a writable service has', async () => {
    for (const route of SAMPLES) {
      const path = pathOfRoute(route);
      const { status, headers } = await request(readOnly!.url, path, { method: 'DELETE' });
      assert.equal(status, 405, path);
      assert.equal(headers.allow, 'GET, HEAD, OPTIONS', path);
      if (ROUTES[route.kind].writesOnly) assert.equal((await request(readOnly!.url, path)).status, 404, path);
    }
  });
});
