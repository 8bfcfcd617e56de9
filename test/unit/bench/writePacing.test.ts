// service.throughput.sql.writes promises one write per 100 reads: the load generator's connections
// share one pacing, so the mix holds whatever order they ask in.
import * as assert from 'node:assert/strict';
import { READS_PER_WRITE } from '../../../bench/throughput';
import { WritePacing } from '../../../bench/writePacing';

describe('bench: writes paced by reads', () => {
  it('makes one write after every 100 reads', () => {
    assert.equal(READS_PER_WRITE, 100);
    const pacing = new WritePacing(READS_PER_WRITE);
    const kinds = Array.from({ length: 101 * 50 }, () => pacing.next());
    assert.equal(kinds.filter((k) => k === 'write').length, 50);
    let reads = 0;
    for (const kind of kinds) {
      if (kind === 'read') {
        reads++;
      } else {
        assert.equal(reads, 100, 'reads before each write');
        reads = 0;
      }
    }
    assert.equal(kinds[0], 'read', 'the run starts with reads');
  });

  it('reads only when given no rate', () => {
    const pacing = new WritePacing(0);
    assert.ok(Array.from({ length: 1000 }, () => pacing.next()).every((k) => k === 'read'));
  });

  it('refuses a rate that is not a whole number', () => {
    assert.throws(() => new WritePacing(0.5), RangeError);
    assert.throws(() => new WritePacing(-1), RangeError);
    assert.throws(() => new WritePacing(Number.NaN), RangeError);
  });
});
