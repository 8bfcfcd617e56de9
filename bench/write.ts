// service.write: one POST /codes.xml round trip over loopback to the service on embedded PostgreSQL,
// against the same INSERT issued straight to the same database through the same executor, in a
// transaction that bumps the version and notifies it as the store's does. The ratio is what HTTP,
// the bearer token's lookup, reading and checking the XML body, reading the new code back and
// rendering it add to the write itself.
import { Pool } from 'undici';
import { permalinkOf } from '../src/server/datasetFields';
import { CHANGES_CHANNEL } from '../src/server/sql/sqlStore';
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
    const permalink = permalinkOf(TITLE);
    const direct = (): Promise<unknown> =>
      sql.transaction(async (tx) => {
        await tx.query(
          `insert into codes (title, language, permalink, user_id, created_at, created_offset, updated_at, updated_offset, comment, trackback_url, code)
           values ($1, $2, $3, $4, $5, 0, $5, 0, $6, '', $7) returning id`,
          [TITLE, 'Ruby', permalink, authorId, new Date(Math.floor(Date.now() / 1000) * 1000).toISOString(), COMMENT, CODE],
        );
        const [row] = await tx.query<{ version: number | string }>('update meta set version = version + 1 returning version');
        await tx.query('select pg_notify($1, $2)', [CHANGES_CHANNEL, String(row.version)]);
      });
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
        note: 'POST /codes.xml over loopback to the service on embedded PostgreSQL (a temporary data directory), one at a time; baseline the same INSERT in a transaction bumping the version, straight to the same database' },
      median(subj), median(base), ratios,
    )];
  } finally {
    await pool.close();
    await service.close();
  }
}
