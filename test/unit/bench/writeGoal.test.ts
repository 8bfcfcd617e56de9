// service.write's goal as bench/write.ts states it and docs/benchmarks.md describes it: a ratio of at
// most 2.0 with no room below it (the 20% room, ≤ 1.6, is gone), held when the median of three runs
// in a row on a quiet machine is at most 2.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { figure, median } from '../../../bench/measure';
import { SERVICE_WRITE } from '../../../bench/write';

const DOC = path.resolve(__dirname, '../../../../docs/benchmarks.md');

describe('bench: service.write\'s goal', () => {
  it('is a ratio of at most 2, with no room: 2.0 passes, 1.61 to 2 pass, above 2 misses', () => {
    assert.equal(SERVICE_WRITE.goal, 2);
    assert.ok(!SERVICE_WRITE.higherIsBetter);
    for (const ratio of [1.56, 1.61, 1.91, 2]) assert.equal(figure(SERVICE_WRITE, ratio, 1, [ratio]).pass, true, `ratio ${ratio}`);
    for (const ratio of [2.01, 2.13]) assert.equal(figure(SERVICE_WRITE, ratio, 1, [ratio]).pass, false, `ratio ${ratio}`);
  });

  it('says in its note that the median of three runs in a row decides', () => {
    assert.match(SERVICE_WRITE.note ?? '', /goal ratio <= 2, no room: held when the median of three runs in a row on a quiet machine is/);
    // The three runs in a row of 2026-12-02 (2.13, 1.56, 1.91): one missed, the median held.
    const runs = [2.13, 1.56, 1.91];
    assert.equal(figure(SERVICE_WRITE, median(runs), 1, [median(runs)]).pass, true);
  });

  it('is the goal docs/benchmarks.md gives it, with no room left in the doc', () => {
    const doc = fs.readFileSync(DOC, 'utf8').replace(/\s+/g, ' ');
    assert.ok(!doc.includes('with room ≤ 1.6'), 'the doc still gives service.write a goal with room ≤ 1.6');
    assert.ok(!doc.includes('service.write blocked'), 'the doc still calls service.write blocked');
    assert.ok(doc.includes("service.write's goal is a ratio of at most 2.0, without room: the median of three runs in a row on a quiet machine"),
      "the doc does not state service.write's goal: at most 2.0, without room, the median of three runs in a row");
  });
});
