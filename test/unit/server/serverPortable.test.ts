// The reference service's core runs where VS Code for the Web runs extensions: a browser web worker,
// with no Node module and no Node global. Bundled for the browser, the fetch handler and the sample
// catalog pull in no `node:` module and nothing outside src/, and the bundle answers inside a context
// that has only the web's globals. And its ETags, without node:crypto, are the documented hash.

import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vm from 'node:vm';
import * as esbuild from 'esbuild';
import fc from 'fast-check';
import { fnv1a64 } from '../../../src/core/hash';
import { strongEtag } from '../../../src/server/etag';
import type { Dataset } from '../../../src/server/catalog/dataset';
import { inProcessFetch, type Fetch } from '../../../src/server/http/fetchHandler';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';

const root = path.resolve(__dirname, '../../../..');
const ORIGIN = 'http://sample.invalid';

describe('reference service without Node', () => {
  let bundle: esbuild.BuildResult<{ write: false; metafile: true }>;
  before(async function () {
    this.timeout(20_000);
    bundle = await esbuild.build({
      // The fetch handler and the sample catalog's loader, as one module.
      stdin: {
        contents: "export { inProcessFetch } from './src/server/http/fetchHandler'; export { loadSampleDataset } from './src/server/catalog/sampleDataset';",
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'service',
      target: 'es2022',
      write: false,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: root,
    });
  });

  it('bundles for the browser from src/ alone: no node: module, no package, nothing left external', () => {
    const inputs = Object.keys(bundle.metafile.inputs);
    assert.deepEqual(inputs.filter((i) => !i.startsWith('src/') && i !== '<stdin>'), [], 'every input is the project source');
    assert.ok(inputs.includes('src/server/http/responses.ts') && inputs.includes('src/server/catalog/sample-catalog.json'), inputs.join(', '));
    // The extension serves its sample this way: no write API and no database code comes with it.
    assert.deepEqual(inputs.filter((i) => i.startsWith('src/server/sql/') || i.startsWith('src/server/writes/')), []);
    for (const [name, output] of Object.entries(bundle.metafile.outputs)) assert.deepEqual(output.imports, [], `${name} imports nothing at run time`);
  });

  it('answers every kind of request with only the web globals, byte for byte as in Node', async () => {
    const web = { TextEncoder, URL, URLSearchParams, Request, Response, Headers, AbortController };
    const context = vm.createContext({ ...web });
    vm.runInContext(bundle.outputFiles[0].text, context);
    for (const name of ['require', 'process', 'Buffer', 'global', 'module']) assert.equal(vm.runInContext(`typeof ${name}`, context), 'undefined', name);
    const service = context.service as { inProcessFetch: (catalog: Dataset) => Fetch; loadSampleDataset: () => Dataset };
    const inWorker = service.inProcessFetch(service.loadSampleDataset());
    const inNode = inProcessFetch(loadSampleDataset());

    const exchanges: Array<[string, RequestInit]> = [
      ['/codes/recent.xml', {}], ['/codes/recent/ruby.xml?page=2', {}], ['/tags/style', {}], ['/refactorings/recent.xml?page=3', {}],
      ['/codes/1.xml', {}], ['/codes/1', {}], ['/', {}], ['/codes/99999.xml', {}], ['/codes/recent.xml?page=-1', {}],
      ['/codes/recent.xml', { method: 'POST' }], ['/codes/recent.xml', { method: 'HEAD' }], ['/codes/recent.xml', { method: 'OPTIONS' }],
      ['/codes/recent.xml', { headers: { 'If-None-Match': '*' } }],
    ];
    for (const [target, init] of exchanges) {
      const [a, b] = [await inWorker(ORIGIN + target, init), await inNode(ORIGIN + target, init)];
      const what = `${init.method ?? 'GET'} ${target}`;
      assert.equal(a.status, b.status, what);
      assert.equal(a.statusText, b.statusText, what);
      assert.deepEqual([...a.headers], [...b.headers], what);
      assert.deepEqual(new Uint8Array(await a.arrayBuffer()), new Uint8Array(await b.arrayBuffer()), what);
    }
  });
});

describe('reference service ETags', () => {
  it('are FNV-1a 64, as its reference vectors give it', () => {
    const vectors: Array<[string, string]> = [['', 'cbf29ce484222325'], ['a', 'af63dc4c8601ec8c'], ['foobar', '85944171f73967e8']];
    for (const [text, hash] of vectors) assert.equal(fnv1a64(new TextEncoder().encode(text)), hash, JSON.stringify(text));
  });

  it('are FNV-1a 64 of any bytes, as the definition computes it in 64-bit integers (property)', () => {
    const reference = (bytes: Uint8Array): string => {
      let h = 0xcbf29ce484222325n;
      for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
      return h.toString(16).padStart(16, '0');
    };
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
      assert.equal(fnv1a64(bytes), reference(bytes));
    }), { numRuns: 300 });
  });

  it('are strong and change when any one byte of the body does (property)', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (body, at, delta) => {
      const changed = body.slice();
      changed[at % body.length] = (changed[at % body.length] + delta) % 256;
      assert.match(strongEtag(body), /^"[0-9a-f]+-[0-9a-f]{16}"$/);
      assert.notEqual(strongEtag(changed), strongEtag(body));
      assert.equal(strongEtag(body.slice()), strongEtag(body));
    }));
  });
});
