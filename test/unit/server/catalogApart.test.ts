// A catalog read or generated on a thread of its own (the one a command imports from, so that the
// parsing's garbage ends with that thread): the same Dataset as read here, and the same refusal.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadCatalogApart } from '../../../src/server/catalog/catalogApart';
import { DatasetError } from '../../../src/server/catalog/dataset';
import { loadDatasetFile } from '../../../src/server/catalog/datasetFile';
import { generateCatalog } from '../../../src/server/catalog/generatedCatalog';
import { samplePath } from '../../helpers/referenceService';

describe('a catalog read on a thread of its own', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rb-apart-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is the Dataset the file reads as here, and the generated catalog is the same as generated here', async () => {
    assert.deepEqual(await loadCatalogApart({ file: samplePath }), loadDatasetFile(samplePath));
    assert.deepEqual(await loadCatalogApart({ generate: 40 }), generateCatalog({ codes: 40 }));
  });

  it('refuses a catalog as reading it here does: the same DatasetError, in one line', async () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{"users": [], "codes": [{}], "refactors": []}');
    let here: unknown;
    try {
      loadDatasetFile(bad);
    } catch (e) {
      here = e;
    }
    assert.ok(here instanceof DatasetError);
    await assert.rejects(loadCatalogApart({ file: bad }), (e: unknown) => e instanceof DatasetError && e.message === here.message);
    await assert.rejects(loadCatalogApart({ file: path.join(dir, 'missing.json') }), { name: 'DatasetError', message: `${path.join(dir, 'missing.json')}: cannot be read: there is no such file or folder` });
  });
});
