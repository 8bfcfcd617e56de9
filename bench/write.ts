// service.write: one POST /codes.xml round trip over loopback to the service on embedded PostgreSQL,
// against the statements the store runs for it, issued straight to the same database through the
// same executor: the write rate's count (take_write: the person's writes of the last minute, kept in
// the database so that every instance counts them) and the INSERT (the code, its tags, the version
// bumped and notified). The ratio is what HTTP, the bearer token, reading and checking the XML body
// and rendering the answer add to the database's work. service.write.insert is the same POST against
// the INSERT alone: the figure's baseline until the write rate moved into the database.
import { Pool } from 'undici';
import { INSERT_CODE, insertCodeParams } from '../src/server/sql/contributions';
import { takeWrite } from '../src/server/sql/writeRate';
import { DEFAULT_CONTRIBUTION_LIMITS } from '../src/server/writes/handler';
import { figure, interleave, median, type Figure, type FigureSpec } from './measure';
import { startSqlService } from './sqlService';

const TITLE = 'Written by the benchmark';
const COMMENT = 'One code per round trip.';
const CODE = 'puts 1';
const BODY = Buffer.from(`<code><title>${TITLE}</title><language>Ruby</language><comment>${COMMENT}</comment><code>${CODE}</code></code>`);

/** Each pairing: 10 rounds of 20 calls a side, 200 sequential writes of each, alternating in blocks. */
const PAIRING = { rounds: 10, inner: 20 };
/** Untimed calls of each side before the first pairing. */
const WARMUP = 30;
/**
 * Writes counted against the write rate in a run: both warm-ups and rounds of the first pairing
 * (the count and the POST), and the POSTs of the second.
 */
const COUNTED = 2 * (WARMUP + PAIRING.rounds * PAIRING.inner) + PAIRING.rounds * PAIRING.inner;
/** The service's own write rate, as `serve` has it. */
const RATE = DEFAULT_CONTRIBUTION_LIMITS.writesPerMinute;
/**
 * Writers taking turns, enough that none reaches the write rate: each person's last minute then
 * holds at most about two thirds of RATE writes, as a person's does, rather than every write of the run.
 */
const WRITERS = Math.ceil(COUNTED / (RATE * 2 / 3));

/**
 * service.write's goal: a ratio of at most 2, with no room kept below it. One run's figure passes at
 * 2 or under; the goal is held when the median of three runs in a row on a quiet machine is.
 */
export const SERVICE_WRITE: FigureSpec = {
  name: 'service.write', goal: 2, unit: 'ms per code',
  note: "POST /codes.xml over loopback to the service on embedded PostgreSQL (a temporary data directory), one at a time; baseline the statements the store runs for it, straight to the same database: the write rate's count (take_write) and the INSERT (its tags, the version bumped and notified); goal ratio <= 2, no room: held when the median of three runs in a row on a quiet machine is",
};

export async function writeFigures(): Promise<Figure[]> {
  const service = await startSqlService({ writers: WRITERS, writesPerMinute: RATE });
  const pool = new Pool(service.server.url, { connections: 1, pipelining: 1 });
  try {
    const { sql, writers } = service;
    let turn = 0;
    const nextWriter = () => writers[turn++ % writers.length];
    // The very statements the store runs for a new code: the count, then the INSERT (with its tags,
    // the version bump and the notification).
    const insert = (author: number): Promise<unknown> => sql.query(INSERT_CODE, insertCodeParams(author, { title: TITLE, language: 'Ruby', comment: COMMENT, code: CODE, tags: [] }, new Date()));
    const inserted = (): Promise<unknown> => insert(nextWriter().id);
    const counted = async (): Promise<void> => {
      const { id } = nextWriter();
      if ((await takeWrite(sql, id, new Date(), RATE)) !== undefined) throw new Error('the write rate refused the benchmark');
      await insert(id);
    };
    const posted = async (): Promise<void> => {
      const res = await pool.request({
        method: 'POST',
        path: '/codes.xml',
        headers: { authorization: `Bearer ${nextWriter().token}`, 'content-type': 'application/xml' },
        body: BODY,
      });
      await res.body.dump();
      if (res.statusCode !== 201) throw new Error(`POST /codes.xml answered ${res.statusCode}`);
    };
    const write = await interleave(counted, posted, { ...PAIRING, warmup: WARMUP });
    const alone = await interleave(inserted, posted, PAIRING);
    return [
      figure(SERVICE_WRITE, median(write.subj), median(write.base), write.ratios),
      figure(
        { name: 'service.write.insert', goal: null, unit: 'ms per code',
          note: "the same POSTs against the INSERT alone, without the write rate's count: service.write's baseline before the count moved into the database" },
        median(alone.subj), median(alone.base), alone.ratios,
      ),
    ];
  } finally {
    await pool.close();
    await service.close();
  }
}
