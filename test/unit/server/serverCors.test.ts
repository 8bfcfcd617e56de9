// The reference service read from a browser (VS Code for the Web): every answer lets any origin read
// it and exposes ETag and Retry-After, and the preflight that the spec's `Content-Type: text/xml`
// request header causes is answered on any path.

import * as assert from 'node:assert/strict';
import type { Dataset } from '../../../src/server/catalog/dataset';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { request, type RawResponse } from '../../helpers/referenceService';

function assertReadableCrossOrigin(res: RawResponse, what: string): void {
  assert.equal(res.headers['access-control-allow-origin'], '*', what);
  assert.equal(res.headers['access-control-expose-headers'], 'ETag, Retry-After', what);
}

describe('reference service CORS', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ catalog: loadSampleDataset() });
  });
  after(() => server.close());

  it('lets any origin read every kind of answer: lists, codes, pages, errors, HEAD and 304', async () => {
    const origin = { Origin: 'https://vscode.dev' };
    const cases: Array<[string, string, Record<string, string>, number]> = [
      ['GET', '/codes/recent.xml', origin, 200],
      ['GET', '/codes/popular/ruby.xml?page=2', origin, 200],
      ['GET', '/tags/arrays.xml', origin, 200],
      ['GET', '/refactorings/recent.xml', origin, 200],
      ['GET', '/codes/1.xml', origin, 200],
      ['GET', '/codes/1', origin, 200],
      ['GET', '/', origin, 200],
      ['HEAD', '/codes/recent.xml', origin, 200],
      ['GET', '/codes/99999.xml', origin, 404],
      ['GET', '/nothing-here', origin, 404],
      ['GET', '/codes/recent.xml?page=-1', origin, 400],
      ['POST', '/codes/recent.xml', origin, 405],
      ['DELETE', '/codes/1', origin, 405],
      ['GET', '/codes/recent.xml', { ...origin, 'If-None-Match': '*' }, 304],
    ];
    for (const [method, path, headers, status] of cases) {
      const res = await request(server.url, path, { method, headers });
      assert.equal(res.status, status, `${method} ${path}`);
      assertReadableCrossOrigin(res, `${method} ${path}`);
    }
  });

  it('answers a preflight on any path with 204, the methods and headers the client uses, and no body', async () => {
    for (const path of ['/codes/recent.xml', '/codes/1-anything.xml', '/tags/arrays/ruby.xml?page=2', '/', '/no/such/path']) {
      const res = await request(server.url, path, {
        method: 'OPTIONS',
        headers: { Origin: 'https://vscode.dev', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'content-type, if-none-match' },
      });
      assert.equal(res.status, 204, path);
      assertReadableCrossOrigin(res, path);
      assert.equal(res.headers['access-control-allow-methods'], 'GET, HEAD');
      assert.equal(res.headers['access-control-allow-headers'], 'Accept, Content-Type, If-None-Match');
      assert.equal(res.headers['access-control-max-age'], '86400');
      assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS');
      assert.equal(res.body.length, 0);
      assert.equal(res.headers['content-length'], undefined, 'a 204 has no Content-Length');
      assert.equal(res.headers['content-type'], undefined);
    }
  });

  it('lets any origin read a 500 too, when rendering fails', async () => {
    const sample = loadSampleDataset();
    const broken: Dataset = { ...sample, codes: { get: () => { throw new Error('a broken catalog'); } } as unknown as Dataset['codes'] };
    const failing = await startServer({ catalog: broken });
    try {
      const res = await request(failing.url, '/codes/1.xml', { headers: { Origin: 'https://vscode.dev' } });
      assert.equal(res.status, 500);
      assert.equal(res.text, 'internal error\n');
      assert.equal(res.headers['cache-control'], 'no-cache');
      assertReadableCrossOrigin(res, '500');
    } finally {
      await failing.close();
    }
  });
});
