// Each part of `npm run bench` runs in a process of its own (bench/inChild.ts), so that no group's
// garbage sits in the heap of the next group's service: the figures come back whatever the child
// logs on stdout, and a part that broke or died says so in one line instead of losing its figures
// silently.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { figuresOfChild } from '../../../bench/inChild';

const FIXTURE = path.resolve(__dirname, '../../../../test/fixtures/bench/part.js');
const RUN = path.resolve(__dirname, '../../../bench/run.js');

describe('bench: a part in a process of its own', () => {
  it('gives the figures the child sent, held or not, and none of its log lines', async () => {
    const figures = await figuresOfChild(FIXTURE, ['figures']);
    assert.deepEqual(figures.map((f) => [f.name, f.pass]), [['fixture.held', true], ['fixture.missed', false]]);
  });

  it('rejects with the child\'s own line when its part broke', async () => {
    await assert.rejects(figuresOfChild(FIXTURE, ['broke']), { message: 'the fixture part broke: on purpose' });
  });

  it('rejects saying how the child ended when it died without a word', async () => {
    await assert.rejects(figuresOfChild(FIXTURE, ['dies']), { message: 'its process ended (SIGKILL) after 1 figure(s), without saying why' });
  });

  it('run.js --part names the parts when asked for one it does not have, and exits 2', () => {
    const r = spawnSync(process.execPath, [RUN, '--part', 'servce/throughput'], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    assert.equal(r.status, 2);
    const sent = (r.output[3] as string).trim().split('\n').map((l) => JSON.parse(l) as { broke?: string });
    assert.match(sent[0].broke ?? '', /^bench: no part servce\/throughput \(the parts: decode, stall, client, service\/throughput, service\/write, service\/memory, /);
  });
});
