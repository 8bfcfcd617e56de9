// The built-in sample catalog bundled as code, for the CLI, `serve` and the tests. The extension
// reads the same catalog from a file it ships (dist/sample-catalog.json) instead, so that its bundles
// carry no data (the bundle size goal in docs/benchmarks.md).
import { parseDataset, type Dataset } from './dataset';
import sampleCatalogJson from './sample-catalog.json';

/** What the sample catalog is called in the errors of a broken copy. */
export const SAMPLE_SOURCE = 'sample catalog';

let sample: Dataset | undefined;

/** The built-in sample catalog, parsed once per process. */
export function loadSampleDataset(): Dataset {
  sample ??= parseDataset(sampleCatalogJson, SAMPLE_SOURCE);
  return sample;
}
