// The service group's memory part runs to its end, as `npm run bench` runs it, with fewer codes and
// rounds: the built CLI (dist/cli.js) started as processes on new folders, the first start of an
// empty folder among them, whose pages are those an empty folder has.
import * as assert from 'node:assert/strict';
import { EMPTY_FOLDER_PAGES, memoryFigures } from '../../../bench/memory';

describe('bench: the memory part of the service group (processes)', function () {
  this.timeout(240_000);

  it('measures every figure, an empty folder\'s first start included', async () => {
    const figures = await memoryFigures({ codes: 20, rounds: 1, startRounds: 1 });
    assert.deepEqual(figures.map((f) => f.name), [
      'service.memory.sql', 'service.memory.sql.reopened', 'service.memory.sql.peak', 'service.memory.import.peak', 'service.start.first',
    ]);
    for (const f of figures) {
      assert.ok(Number.isFinite(f.value) && f.value > 0, `${f.name}: ${f.value}`);
      assert.ok(Number.isFinite(f.baseline) && f.baseline > 0, `${f.name}: ${f.baseline}`);
    }
    const start = figures.find((f) => f.name === 'service.start.first')!;
    assert.equal(start.unit, 'ms to listening');
    assert.match(start.note!, new RegExp(EMPTY_FOLDER_PAGES.join(', ').replace(/[.?]/g, '\\$&')));
  });
});
