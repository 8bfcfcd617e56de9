// Writes that race each other over HTTP: many people rating one refactoring at the same moment, and
// a code deleted while someone posts a refactoring of it. Each request gets one clear answer and the
// catalog stays whole. On embedded PostgreSQL in memory, and on a PostgreSQL server (many connections
// at once) when REFACTOR_BROWSER_TEST_DATABASE names one; pending when unset, outside CI.
import * as assert from 'node:assert/strict';
import { decodeCode, decodeRefactor, decodeRefactors } from '../../../src/core/xmlDecode';
import { openPglite, openPgliteWorker, openPostgres, type Sql } from '../../../src/server/sql/executor';
import { deleteCode, postCode, postRefactor, rate } from '../../helpers/contributions';
import { postgresOrSkip, TEST_DATABASE } from '../../helpers/postgres';
import { request } from '../../helpers/referenceService';
import { startWritableService, type WritableService } from '../../helpers/writableService';

const RATERS = 25;
const ROUNDS = 10;

function raceTests(open: () => Promise<Sql>): void {
  let service: WritableService;
  let ana: string;
  let bo: string;

  before(async function () {
    this.timeout(60_000);
    service = await startWritableService({ writesPerMinute: 1000 }, open);
  });
  after(async () => service?.close());
  beforeEach(async () => {
    await service.reset();
    ana = await service.addPerson('Ana');
    bo = await service.addPerson('Bo');
  });

  async function newCode(): Promise<number> {
    const res = await postCode(service.url, ana, 'Raced over');
    assert.equal(res.status, 201, res.text);
    return decodeCode(res.text).id;
  }

  it(`counts ${RATERS} people rating one refactoring at once, with the exact mean`, async function () {
    this.timeout(30_000);
    const codeId = await newCode();
    const posted = await postRefactor(service.url, bo, codeId);
    assert.equal(posted.status, 201, posted.text);
    const refactorId = decodeRefactor(posted.text).id;
    const raters = await Promise.all(Array.from({ length: RATERS }, (_, i) => service.addPerson(`Rater ${i}`)));
    // A mean of 3.52: rounded it is 4, cut down 3; one rating lost or counted twice moves it by 0.02 or more.
    const values = raters.map((_, i) => (i < 13 ? 4 : 3));
    const answers = await Promise.all(raters.map((token, i) => rate(service.url, token, codeId, refactorId, values[i])));
    assert.deepEqual(answers.map((a) => a.status), values.map(() => 200), answers.find((a) => a.status !== 200)?.text);

    const [stored] = decodeCode((await request(service.url, `/codes/${codeId}.xml`)).text).refactors!;
    assert.equal(stored.ratingsCount, RATERS);
    const sum = values.reduce((a, b) => a + b, 0);
    // Half up, as the store rounds.
    assert.equal(stored.rating, Math.floor(sum / RATERS + 0.5));
    assert.equal(stored.rating, 4);
    // The author's own rating is the mean of their rated refactorings: this one alone.
    const recent = decodeRefactors((await request(service.url, '/refactorings/recent.xml')).text);
    assert.equal(recent.find((r) => r.id === refactorId)?.user?.rating, stored.rating);
  });

  it(`gives a code's deletion racing a refactoring of it one clear answer each, ${ROUNDS} rounds, and leaves no refactoring without its code`, async function () {
    this.timeout(60_000);
    const outcomes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const codeId = await newCode();
      // Each sent first in turn, so that each wins some rounds.
      const [deleted, posted] =
        round % 2 === 0
          ? await Promise.all([deleteCode(service.url, ana, codeId), postRefactor(service.url, bo, codeId)])
          : await Promise.all([postRefactor(service.url, bo, codeId), deleteCode(service.url, ana, codeId)]).then(([p, d]) => [d, p] as const);
      assert.equal(deleted.status, 204, `round ${round}: ${deleted.text}`);
      assert.ok(posted.status === 201 || posted.status === 404, `round ${round}: ${posted.status} ${posted.text}`);
      outcomes.push(posted.status);
      assert.equal((await request(service.url, `/codes/${codeId}.xml`)).status, 404, `round ${round}: the code is gone`);
      if (posted.status === 201) {
        // It was taken before the deletion, which took it away with its code.
        const refactorId = decodeRefactor(posted.text).id;
        assert.equal((await request(service.url, `/codes/${codeId}/refactors/${refactorId}.xml`)).status, 404, `round ${round}`);
      }
      const [rows] = await service.sql.query<{ orphans: number | string; counted: number | string; stored: number | string }>(
        `select (select count(*) from refactors r where not exists (select 1 from codes c where c.id = r.code_id)) as orphans,
           (select coalesce(sum(refactors_count), 0) from codes) as counted, (select count(*) from refactors) as stored`,
      );
      assert.equal(Number(rows.orphans), 0, `round ${round}: refactorings without their code`);
      assert.equal(Number(rows.counted), Number(rows.stored), `round ${round}: refactors-count of the codes left`);
    }
    const recent = decodeRefactors((await request(service.url, '/refactorings/recent.xml')).text);
    assert.deepEqual(recent, [], 'no refactoring of a deleted code is listed');
    assert.equal(outcomes.length, ROUNDS);
  });
}

describe('reference service: writes racing over HTTP', () => {
  describe('on embedded PostgreSQL in memory', () => {
    raceTests(() => openPglite(undefined));
  });

  describe('on embedded PostgreSQL in memory on a worker thread', () => {
    raceTests(() => openPgliteWorker(undefined));
  });

  describe('on a PostgreSQL server (REFACTOR_BROWSER_TEST_DATABASE; pending when unset, outside CI)', () => {
    before(async function () {
      const server = postgresOrSkip(this);
      const sql = await openPostgres(server);
      try {
        await sql.query('drop database if exists refactor_browser_races');
        await sql.query('create database refactor_browser_races');
      } finally {
        await sql.close();
      }
    });
    raceTests(() => {
      const url = new URL(TEST_DATABASE!);
      url.pathname = '/refactor_browser_races';
      return openPostgres(url.href, { maxConnections: 30 });
    });
    // After the service's own `after`, which closes its connections first.
    after(async function () {
      if (!TEST_DATABASE) return;
      const sql = await openPostgres(TEST_DATABASE);
      try {
        await sql.query('drop database if exists refactor_browser_races with (force)');
      } finally {
        await sql.close();
      }
    });
  });
});
