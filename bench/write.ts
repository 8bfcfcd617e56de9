// service.write: one POST /codes.xml round trip over loopback to the service on embedded PostgreSQL,
// against the same INSERT issued straight to the same database through the same executor: the very
// statement the store runs (the code, its tags, the version bumped and notified). The ratio is what
// HTTP, the bearer token, reading and checking the XML body and rendering the answer add to the
// write itself.
import { Pool } from 'undici';
import { INSERT_CODE, insertCodeParams } from '../src/server/sql/contributions';
import { figure, interleave, median, type Figure } from './measure';
import { startSqlService } from './sqlService';

const TITLE = 'Written by the benchmark';
const COMMENT = 'One code per round trip.';
const CODE = 'puts 1';
const BODY = Buffer.from(`<code><title>${TITLE}</title><language>Ruby</language><comment>${COMMENT}</comment><code>${CODE}</code></code>`);

export async function writeFigures(): Promise<Figure[]> {
  const service = await startSqlService();
  const pool = new Pool(service.server.url, { connections: 1, pipelining: 1 });
  try {
    const { sql, authorId, token } = service;
    // The very statement the store runs for a new code (with its version bump and notification).
    const direct = (): Promise<unknown> => sql.query(INSERT_CODE, insertCodeParams(authorId, { title: TITLE, language: 'Ruby', comment: COMMENT, code: CODE, tags: [] }, new Date()));
    const posted = async (): Promise<void> => {
      const res = await pool.request({
        method: 'POST',
        path: '/codes.xml',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/xml' },
        body: BODY,
      });
      await res.body.dump();
      if (res.statusCode !== 201) throw new Error(`POST /codes.xml answered ${res.statusCode}`);
    };
    // 10 rounds of 20 each side: 200 sequential writes of each, alternating in blocks.
    const { base, subj, ratios } = await interleave(direct, posted, { rounds: 10, inner: 20, warmup: 30 });
    return [figure(
      { name: 'service.write', goal: 2, unit: 'ms per code',
        note: 'POST /codes.xml over loopback to the service on embedded PostgreSQL (a temporary data directory), one at a time; baseline the statement the store runs for it (the INSERT with its tags, the version bumped and notified), straight to the same database' },
      median(subj), median(base), ratios,
    )];
  } finally {
    await pool.close();
    await service.close();
  }
}
