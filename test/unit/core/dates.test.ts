// One date format for the Catalog and the code view: the same date reads the same in both, in the
// display language, and a kept time says whether it is today (a time) or another day (a date too).
import * as assert from 'node:assert/strict';
import { formatDateTime, formatWhen } from '../../../src/core/dates';

describe('dates', () => {
  const d = new Date(2026, 10, 25, 9, 5);

  it('writes a date and time in the display language', () => {
    assert.match(formatDateTime(d, 'en-US'), /^Nov 25, 2026, 9:05\sAM$/);
    assert.equal(formatDateTime(d, 'de'), '25.11.2026, 09:05');
  });

  it('says only the time for today, and the date and time for another day', () => {
    assert.deepEqual(formatWhen(d, 'de', new Date(2026, 10, 25, 23, 59)), { sameDay: true, text: '09:05' });
    assert.deepEqual(formatWhen(d, 'de', new Date(2026, 10, 26, 0, 1)), { sameDay: false, text: '25.11.26, 09:05' });
  });
});
