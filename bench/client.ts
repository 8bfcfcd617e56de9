// Figure 2: a list through RefactorClient (transport, decoding, a copy for the caller) against a bare
// request of the same URL through the same fetch, with and without decoding its body the same way;
// for both Node transports the client runs on: undici's fetch over a pooled Agent (the CLI's) and
// Node's global fetch (what an extension host's fetch is built on). And a list the client already
// holds against a fresh one. On loopback a 27 KiB list arrives in a few tenths of a millisecond, so
// against the bare request alone the ratio measures mostly the decoder (docs/benchmarks.md).
import { Agent } from 'undici';
import { RefactorClient } from '../src/client/client';
import { fetchVia } from '../src/client/dispatcher';
import type { FetchLike } from '../src/client/http';
import { decodeCodes } from '../src/core/xmlDecode';
import { startServer } from '../src/server/http/server';
import { generateCatalog } from '../src/server/catalog/generatedCatalog';
import { figure, interleave, median, type Figure } from './measure';

const ROUNDS = { rounds: 21, inner: 50, warmup: 50, maxMs: 15_000 };

export async function clientFigures(): Promise<Figure[]> {
  const server = await startServer({ host: '127.0.0.1', port: 0, catalog: generateCatalog({ codes: 200, refactorsPerCode: 0 }) });
  const dispatcher = new Agent({ connections: 4 });
  try {
    const base = `${server.url}/`;
    const url = `${server.url}/codes/recent.xml`;
    const transports: Array<[string, FetchLike]> = [
      ['undici', fetchVia(dispatcher)],
      ['fetch', (input, init) => globalThis.fetch(input, init)],
    ];
    const out: Figure[] = [];
    for (const [name, fetch] of transports) {
      const bare = async (): Promise<void> => {
        const res = await fetch(url, {});
        if (res.status !== 200) throw new Error(`bare request: HTTP ${res.status}`);
        await res.text();
      };
      const bareDecoded = async (): Promise<void> => {
        const res = await fetch(url, {});
        if (res.status !== 200) throw new Error(`bare request: HTTP ${res.status}`);
        if (decodeCodes(await res.text()).length !== 25) throw new Error('bare list is not 25 items');
      };
      // A new client per call: nothing cached, so every call fetches and decodes.
      const fresh = async (): Promise<void> => {
        const items = await new RefactorClient({ baseUrl: base, fetch }).recentCodes();
        if (items.length !== 25) throw new Error(`fresh list of ${items.length} items`);
      };
      const a = await interleave(bare, fresh, { ...ROUNDS, warmup: 100 });
      const c = await interleave(bareDecoded, fresh, ROUNDS);
      out.push(
        figure({ name: `client.fresh.${name}`, goal: null, unit: 'ms per list', note: `25 codes from the reference service on loopback; baseline a bare request of the same URL with ${name === 'undici' ? "undici's fetch" : "Node's global fetch"} (shown without a goal: decoding is most of it)` },
          median(a.subj), median(a.base), a.ratios),
        figure({ name: `client.overhead.${name}`, goal: 1.5, unit: 'ms per list', note: 'the same, against a bare request whose body decodeCodes decodes: what the client adds' },
          median(c.subj), median(c.base), c.ratios),
      );
    }

    const fetch = transports[0][1];
    const fresh = async (): Promise<void> => {
      await new RefactorClient({ baseUrl: base, fetch }).recentCodes();
    };
    const warm = new RefactorClient({ baseUrl: base, fetch });
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
    const b = await interleave(fresh, held, ROUNDS);
    const d = await interleave(fresh, revalidated, ROUNDS);
    out.push(
      figure({ name: 'client.held', goal: 0.2, unit: 'ms per list', note: 'the same list asked again of a client that holds it, within the service\'s max-age (60 s): no request; baseline a fresh client (undici)' },
        median(b.subj), median(b.base), b.ratios),
      figure({ name: 'client.revalidated', goal: null, unit: 'ms per list', note: 'the same after expire() (a Refresh): one request answered 304 with no decoding; baseline a fresh client (undici)' },
        median(d.subj), median(d.base), d.ratios),
    );
    return out;
  } finally {
    await dispatcher.close();
    await server.close();
  }
}
