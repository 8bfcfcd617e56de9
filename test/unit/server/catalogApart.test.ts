// A catalog read or generated on a thread of its own (the one a command imports from, so that the
// parsing's garbage ends with that thread): handed over as the rows the Dataset read here gives,
// every batch, readable again for a retried write; and refused as reading it here refuses it.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadCatalogApart } from '../../../src/server/catalog/catalogApart';
import { DatasetError, type Dataset } from '../../../src/server/catalog/dataset';
import { loadDatasetFile, readText } from '../../../src/server/catalog/datasetFile';
import { generateCatalog, generateCatalogJson } from '../../../src/server/catalog/generatedCatalog';
import { catalogRows, IMPORT_BATCH, ROW_TABLES, type CatalogRows } from '../../../src/server/catalog/catalogRows';
import { samplePath } from '../../helpers/referenceService';

/** Everything an import reads of `rows`: the ids it checks, and each table's statements' parameters. */
function readRows(rows: CatalogRows): object {
  const { counts, userIds, userNames, codeIds, refactorIds, minedCodes } = rows;
  return { counts, userIds, userNames, codeIds, refactorIds, minedCodes, ...Object.fromEntries(ROW_TABLES.map((t) => [t, [...rows.batches(t)]])) };
}

function thrown(fn: () => unknown): DatasetError {
  try {
    fn();
  } catch (e) {
    if (e instanceof DatasetError) return e;
    throw e;
  }
  throw new Error('did not throw');
}

describe('a catalog read on a thread of its own', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rb-apart-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('hands over the rows of the Dataset the file reads as here, and of the catalog generated here', async () => {
    assert.deepEqual(readRows(await loadCatalogApart({ file: samplePath })), readRows(catalogRows(loadDatasetFile(samplePath))));
    assert.deepEqual(readRows(await loadCatalogApart({ generate: 40 })), readRows(catalogRows(generateCatalog({ codes: 40 }))));
  });

  it('hands a file of several batches over whole, each batch in order, and again when read again', async () => {
    const file = path.join(dir, 'large.json');
    const codes = 2 * IMPORT_BATCH + 7;
    writeFileSync(file, JSON.stringify(generateCatalogJson({ codes }), null, 2));
    const here: Dataset = loadDatasetFile(file);
    const apart = await loadCatalogApart({ file });
    const expected = readRows(catalogRows(here));
    assert.deepEqual(readRows(apart), expected);
    assert.deepEqual(readRows(apart), expected, 'a retried write reads every batch again');
    assert.deepEqual(apart.counts, { users: here.users.size, codes, refactors: here.recentRefactors.all.length });
    const codeBatches = [...apart.batches('codes')];
    assert.equal(codeBatches.length, 3);
    assert.deepEqual(codeBatches.flatMap((params) => params[0] as number[]), [...here.codes.keys()]);
  });

  it('refuses a catalog as reading it here does: the same DatasetError, in one line', async () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{"users": [], "codes": [{}], "refactors": []}');
    const here = thrown(() => loadDatasetFile(bad));
    await assert.rejects(loadCatalogApart({ file: bad }), (e: unknown) => e instanceof DatasetError && e.message === here.message);
    await assert.rejects(loadCatalogApart({ file: path.join(dir, 'missing.json') }), { name: 'DatasetError', message: `${path.join(dir, 'missing.json')}: cannot be read: there is no such file or folder` });
    const folder = thrown(() => loadDatasetFile(dir));
    assert.equal(folder.message, `${dir}: cannot be read: it is a folder, not a file`);
    await assert.rejects(loadCatalogApart({ file: dir }), (e: unknown) => e instanceof DatasetError && e.message === folder.message);
  });

  it('refuses a large catalog with one bad code in its middle by that code, as reading it here does', async () => {
    const json = generateCatalogJson({ codes: 2 * IMPORT_BATCH + 7 });
    json.codes[IMPORT_BATCH + 3].language = 'Klingon';
    const bad = path.join(dir, 'bad-middle.json');
    writeFileSync(bad, JSON.stringify(json, null, 2));
    const here = thrown(() => loadDatasetFile(bad));
    assert.match(here.message, new RegExp(`codes\\[${IMPORT_BATCH + 3}\\] \\(id \\d+\\)`));
    await assert.rejects(loadCatalogApart({ file: bad }), (e: unknown) => e instanceof DatasetError && e.message === here.message);
  });
});

describe('a catalog file read in chunks', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rb-chunks-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is the text read whole, whatever characters a chunk ends inside of, invalid UTF-8 as well', () => {
    const file = path.join(dir, 'text.json');
    // Two-, three- and four-byte characters, a BOM, and bytes that are not UTF-8, at every offset of a 7-byte chunk.
    const bytes = Buffer.concat([Buffer.from('\ufeff{"a": "José 李伟 😀 Zoë"}', 'utf8'), Buffer.from([0xe6, 0x9d, 0x22, 0xff, 0xc3])]);
    writeFileSync(file, Buffer.concat([bytes, bytes, bytes]));
    for (const chunk of [1, 2, 3, 5, 7, 64]) assert.equal(readText(file, chunk), readFileSync(file, 'utf8'), `chunks of ${chunk}`);
    writeFileSync(file, '');
    assert.equal(readText(file), '');
  });
});
