// The catalog a mining run writes is one the service reads: a title or comment cut to the service's
// bounds is never cut inside a character, and characters XML cannot carry are left out.
import { strict as assert } from 'node:assert';
import { MAX_TITLE_CHARS } from '../../../src/core/writeContract';
import { minedCatalog } from '../../../src/mining/catalog';
import type { Mined } from '../../../src/mining/miner';
import { parseDataset } from '../../../src/server/catalog/dataset';

function mined(message: string, author = 'Ana Lima'): Mined {
  return {
    commit: { hash: 'a'.repeat(40), parents: ['b'.repeat(40)], author, date: '2024-03-02T11:30:00-03:00', message, changes: [] },
    path: 'lib/util.js', language: 'JavaScript', name: 'total', before: 'function total() {\n  return 1;\n}', after: 'function total() {\n  return 2;\n}',
  };
}

describe('mining: the catalog file', () => {
  it('cuts a long subject to the title bound between characters, and the service reads it', () => {
    // An emoji (two UTF-16 units) across the bound: cut before it, not through it.
    const subject = `${'x'.repeat(MAX_TITLE_CHARS - 2)}🎨 and more`;
    const catalog = minedCatalog([mined(`${subject}\n\nwhy`)]);
    const title = catalog.refactors[0].title;
    assert.equal(title, `${'x'.repeat(MAX_TITLE_CHARS - 2)}…`);
    assert.ok(title.length <= MAX_TITLE_CHARS);
    assert.doesNotThrow(() => parseDataset(JSON.parse(JSON.stringify(catalog)), 'mined'));
  });

  it('leaves out what XML cannot carry, and keeps a subject within the bound whole', () => {
    const catalog = minedCatalog([mined('Tidy total()\u0001 🎨', 'Bo\u0000 Chen')]);
    assert.equal(catalog.refactors[0].title, 'Tidy total() 🎨');
    assert.equal(catalog.users[0].name, 'Bo Chen');
    assert.doesNotThrow(() => parseDataset(JSON.parse(JSON.stringify(catalog)), 'mined'));
  });

  it('records where each code was mined from, which the service reads and keeps', () => {
    const catalog = minedCatalog([mined('Refactor total()'), { ...mined('Refactor it again'), name: 'Cart.count', path: 'lib/cart.js' }]);
    assert.deepEqual(catalog.codes.map((c) => c.mined), [
      { commit: 'a'.repeat(40), path: 'lib/util.js', function: 'total' },
      { commit: 'a'.repeat(40), path: 'lib/cart.js', function: 'Cart.count' },
    ]);
    const read = parseDataset(JSON.parse(JSON.stringify(catalog)), 'mined');
    assert.deepEqual([...read.codes.values()].map((c) => c.mined), catalog.codes.map((c) => c.mined));
  });
});
