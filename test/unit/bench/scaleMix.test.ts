// The scale figures promise a fixed, Zipf-like mix of reads (most requests for the first pages and
// the popular codes), the same from run to run, every request one the service answers; and count
// the requests that reached an instance from nginx's log lines.
import * as assert from 'node:assert/strict';
import { scaleMix } from '../../../bench/scale';
import { parseTarget } from '../../../src/server/routes';
import { parseAccessLog } from '../../deploy/stack';

describe('bench: the scale mix and nginx\'s log', () => {
  const paths = scaleMix(20_000, 1);

  it('is the same sequence for the same seed, another for another', () => {
    assert.deepEqual(scaleMix(20_000, 1), paths);
    assert.notDeepEqual(scaleMix(20_000, 2), paths);
  });

  it('names only resources of the 10,000-code catalog: lists with their pages, and codes 1 to 10,000', () => {
    for (const p of paths) {
      const target = parseTarget(p);
      assert.ok(target.ok, p);
      assert.ok(['codes', 'refactors', 'code'].includes(target.route.kind), p);
      if (target.route.kind === 'code') assert.ok(target.route.id >= 1 && target.route.id <= 10_000, p);
    }
  });

  it('asks mostly for the first pages and a few popular codes: 40% lists, most of them page 1 or 2, a tenth HTML', () => {
    const lists = paths.filter((p) => !/^\/codes\/\d/.test(p));
    const share = (xs: string[], of: string[]): number => xs.length / of.length;
    assert.ok(Math.abs(share(lists, paths) - 0.4) < 0.02);
    assert.ok(share(lists.filter((p) => !p.includes('page=') || p.endsWith('page=2')), lists) > 0.5, 'pages 1 and 2 are most of the lists');
    assert.ok(Math.abs(share(paths.filter((p) => !p.includes('.xml')), paths) - 0.1) < 0.02);
    const codes = paths.filter((p) => /^\/codes\/\d/.test(p)).map((p) => /\d+/.exec(p)![0]);
    const counts = [...codes.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map<string, number>()).values()].sort((a, b) => b - a);
    const top100 = counts.slice(0, 100).reduce((a, b) => a + b, 0);
    assert.ok(top100 / codes.length > 0.5, `the 100 most asked codes are ${top100} of ${codes.length} code requests`);
    assert.ok(new Set(paths).size < paths.length / 2, 'pages repeat');
  });

  it('reads nginx\'s log lines: the cache status and each instance asked, none when the cache answered alone', () => {
    const lines = parseAccessLog([
      '127.0.0.1 [2026-11-26T16:45:14+00:00] "GET /codes/recent.xml HTTP/1.1" 200 cache=HIT upstream=- time=0.000 upstream_time=-',
      '127.0.0.1 [2026-11-26T16:45:15+00:00] "GET /codes/7.xml HTTP/1.1" 200 cache=MISS upstream=127.0.0.1:3001, 127.0.0.1:3002 time=0.010 upstream_time=0.001, 0.009',
      '127.0.0.1 [2026-11-26T16:45:15+00:00] "POST /codes.xml HTTP/1.1" 201 cache=- upstream=127.0.0.1:3002 time=0.078 upstream_time=0.078',
      'not a line of ours',
    ].join('\n'));
    assert.deepEqual(lines, [
      { time: Date.parse('2026-11-26T16:45:14Z'), request: 'GET /codes/recent.xml HTTP/1.1', status: 200, cache: 'HIT', upstreams: [] },
      { time: Date.parse('2026-11-26T16:45:15Z'), request: 'GET /codes/7.xml HTTP/1.1', status: 200, cache: 'MISS', upstreams: ['127.0.0.1:3001', '127.0.0.1:3002'] },
      { time: Date.parse('2026-11-26T16:45:15Z'), request: 'POST /codes.xml HTTP/1.1', status: 201, cache: '', upstreams: ['127.0.0.1:3002'] },
    ]);
  });
});
