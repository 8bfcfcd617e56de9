// Figure 2: a list through RefactorClient (transport, decoding, a copy for the caller) against a
// bare undici request of the same URL on the same connection pool, with and without decoding its
// body the same way; and a list the client already holds (revalidated with its ETag) against a
// fresh one. On loopback a 27 KiB list arrives in a few tenths of a millisecond, so against the
// bare request alone the ratio measures mostly the decoder (docs/benchmarks.md).
import { Agent, request } from 'undici';
import { RefactorClient } from '../src/api/client';
import { decodeCodes } from '../src/api/xmlDecode';
import { startServer } from '../src/server/server';
import { generateCatalog } from './catalogGen';
import { figure, interleave, median, type Figure } from './measure';

export async function clientFigures(): Promise<Figure[]> {
  const server = await startServer({ host: '127.0.0.1', port: 0, catalog: generateCatalog(200) });
  const dispatcher = new Agent({ connections: 4 });
  try {
    const base = `${server.url}/`;
    const url = `${server.url}/codes/recent.xml`;
    const bare = async (): Promise<void> => {
      const res = await request(url, { dispatcher });
      if (res.statusCode !== 200) throw new Error(`bare request: HTTP ${res.statusCode}`);
      await res.body.text();
    };
    // A new client per call: nothing cached, so every call fetches and decodes.
    const fresh = async (): Promise<void> => {
      const items = await new RefactorClient({ baseUrl: base, dispatcher }).recentCodes();
      if (items.length !== 25) throw new Error(`fresh list of ${items.length} items`);
    };
    const bareDecoded = async (): Promise<void> => {
      const res = await request(url, { dispatcher });
      if (res.statusCode !== 200) throw new Error(`bare request: HTTP ${res.statusCode}`);
      if (decodeCodes(await res.body.text()).length !== 25) throw new Error('bare list is not 25 items');
    };
    const warm = new RefactorClient({ baseUrl: base, dispatcher });
    await warm.recentCodes();
    const held = async (): Promise<void> => {
      const items = await warm.recentCodes();
      if (items.length !== 25) throw new Error(`held list of ${items.length} items`);
    };
    // The same list after a Refresh: held past its freshness, so asked again and answered with a 304.
    const revalidated = async (): Promise<void> => {
      warm.expire();
      await held();
    };

    const a = await interleave(bare, fresh, { rounds: 21, inner: 50, warmup: 100, maxMs: 15_000 });
    const c = await interleave(bareDecoded, fresh, { rounds: 21, inner: 50, warmup: 50, maxMs: 15_000 });
    const b = await interleave(fresh, held, { rounds: 21, inner: 50, warmup: 50, maxMs: 15_000 });
    const d = await interleave(fresh, revalidated, { rounds: 21, inner: 50, warmup: 50, maxMs: 15_000 });
    return [
      figure({ name: 'client.fresh', goal: null, unit: 'ms per list', note: '25 codes from the reference service on loopback; baseline a bare undici request of the same URL (shown without a goal: decoding is most of it)' },
        median(a.subj), median(a.base), a.ratios),
      figure({ name: 'client.overhead', goal: 1.5, unit: 'ms per list', note: 'the same, against a bare undici request whose body decodeCodes decodes: what the client adds' },
        median(c.subj), median(c.base), c.ratios),
      figure({ name: 'client.held', goal: 0.2, unit: 'ms per list', note: 'the same list asked again of a client that holds it, within the service\'s max-age (60 s): no request; baseline a fresh client' },
        median(b.subj), median(b.base), b.ratios),
      figure({ name: 'client.revalidated', goal: null, unit: 'ms per list', note: 'the same after expire() (a Refresh): one request answered 304 with no decoding; baseline a fresh client' },
        median(d.subj), median(d.base), d.ratios),
    ];
  } finally {
    await dispatcher.close();
    await server.close();
  }
}
