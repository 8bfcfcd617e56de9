// `npm run bench` runs every group to its end and its exit code says what happened: 0 every goal
// held, 1 some goal missed, 2 the run itself broke (a group threw, or no such group), one line on
// stderr naming the group, the figures of the groups after it printed all the same.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { figure, type Figure } from '../../../bench/measure';
import { runGroups, type GroupPart, type RunOutput } from '../../../bench/runGroups';

const RUN = path.resolve(__dirname, '../../../bench/run.js');

const held = (name: string): Figure => figure({ name, goal: 2, unit: 'ms' }, 1, 1);
const missed = (name: string): Figure => figure({ name, goal: 2, unit: 'ms' }, 3, 1);

function recorded(): RunOutput & { figures: string[]; lines: string[] } {
  const figures: string[] = [];
  const lines: string[] = [];
  return { figures, lines, figure: (f) => figures.push(f.name), broken: (line) => lines.push(line) };
}

const parts: GroupPart[] = [
  { group: 'a', run: async () => [held('a.one')] },
  { group: 'service', part: 'throughput', run: async () => [held('service.throughput')] },
  { group: 'service', part: 'memory', run: async () => { throw new Error('serve --data-dir: /codes/5.xml\nanswered 404'); } },
  { group: 'service', part: 'last', run: async () => [held('service.last')] },
  { group: 'b', run: async () => [held('b.one'), held('b.two')] },
  { group: 'alone', run: async () => [missed('alone.one')], alone: true },
];

describe('bench: running the groups, and the exit code', () => {
  it('runs every group past one that throws, says which in one line, and exits 2', async () => {
    const out = recorded();
    assert.equal(await runGroups(parts, [], out), 2);
    assert.deepEqual(out.figures, ['a.one', 'service.throughput', 'service.last', 'b.one', 'b.two']);
    assert.deepEqual(out.lines, ['bench: the service group (memory) broke: serve --data-dir: /codes/5.xml answered 404']);
  });

  it('exits 0 when every goal holds, 1 when one misses', async () => {
    const fine = parts.filter((p) => p.part !== 'memory');
    assert.equal(await runGroups(fine, [], recorded()), 0, 'a part run alone is not in a full run');
    const out = recorded();
    assert.equal(await runGroups(fine, ['alone'], out), 1);
    assert.deepEqual(out.figures, ['alone.one']);
    assert.deepEqual(out.lines, []);
  });

  it('exits 2 when a group broke, though another missed its goal', async () => {
    assert.equal(await runGroups(parts, ['service', 'alone'], recorded()), 2);
  });

  it('refuses a group that does not exist before running any', async () => {
    const out = recorded();
    assert.equal(await runGroups(parts, ['a', 'nosuch'], out), 2);
    assert.deepEqual(out.figures, []);
    assert.equal(out.lines.length, 1);
    assert.match(out.lines[0], /^bench: no group nosuch \(the groups: a, service, b, alone\)$/);
  });

  it('npm run bench -- <no such group> exits 2 with one line', () => {
    const r = spawnSync(process.execPath, [RUN, 'servce'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^bench: no group servce \(the groups: decode, stall, client, service, bundle, similarity, vscode, vscode.tree, service.write, scale\)\n$/);
    assert.equal(r.status, 2);
  });
});
