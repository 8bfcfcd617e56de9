// A catalog of any size for the benchmarks, made of the sample catalog's real codes and users
// repeated under new ids, so bodies have the sample's mix of text, escapes and languages.
import sampleCatalogJson from '../src/server/sample-catalog.json';
import { parseDataset, type Dataset } from '../src/server/dataset';

interface RawCode {
  id: number;
  title: string;
  permalink?: string;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

/** `codes` codes (no refactorings), newest first by id, each a copy of a sample code. */
export function generateCatalog(codes: number): Dataset {
  const sample = sampleCatalogJson as unknown as { users: unknown[]; codes: RawCode[] };
  const start = Date.UTC(2008, 0, 1);
  const out: RawCode[] = [];
  for (let i = 0; i < codes; i++) {
    const src = sample.codes[i % sample.codes.length];
    // One minute apart, so the recent order is the id order and every listing is deterministic.
    const at = new Date(start + i * 60_000).toISOString().replace('.000Z', '+00:00');
    const { permalink: _p, ...rest } = src;
    out.push({ ...rest, id: i + 1, title: `${src.title} (${i + 1})`, createdAt: at, updatedAt: at });
  }
  return parseDataset({ users: sample.users, codes: out, refactors: [] }, `generated catalog of ${codes} codes`);
}
