// scripts/strykerIncremental.mjs, which keeps StrykerJS's incremental reports gzip-compressed in
// .stryker-incremental/ and gives Stryker the plain JSON for a run: run as a process in a folder of
// its own, with a stand-in for Stryker (Stryker itself takes the better part of an hour), and the
// repository's own configs and stored reports checked to fit together.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';

const ROOT = path.resolve(__dirname, '../../../..');
const SCRIPT = path.join(ROOT, 'scripts/strykerIncremental.mjs');

const REPORT = { schemaVersion: '2', files: { 'src/a.ts': { language: 'typescript', source: 'export const a = 1;\n', mutants: [] } } };

describe('scripts/strykerIncremental.mjs', function () {
  this.timeout(30_000);
  let dir: string;

  const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { cwd: dir, encoding: 'utf8' });
  /** A stand-in for `stryker run --incremental`: checks the report it was given, writes `next`, exits `status`. */
  const stryker = (expected: unknown, next: unknown, status = 0): string[] => [
    process.execPath, '-e',
    `const fs = require('node:fs'); const f = 'reports/mutation/incremental.json';
     const got = fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : null;
     if (JSON.stringify(got) !== ${JSON.stringify(JSON.stringify(expected))}) { console.error('given ' + JSON.stringify(got)); process.exit(99); }
     ${next === undefined ? 'fs.rmSync(f, { force: true });' : `fs.writeFileSync(f, ${JSON.stringify(JSON.stringify(next, null, 2))});`}
     process.exit(${status});`,
  ];
  const stored = () => path.join(dir, '.stryker-incremental/incremental.json.gz');

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'rb-stryker-incremental-'));
    writeFileSync(path.join(dir, 'stryker.json'), JSON.stringify({ incrementalFile: 'reports/mutation/incremental.json' }));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('without a stored report (a first run) gives Stryker none, then stores what it wrote, compressed, and removes the plain JSON', () => {
    const r = run('stryker.json', '--', ...stryker(null, REPORT));
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(gunzipSync(readFileSync(stored())).toString('utf8')), REPORT);
    assert.equal(existsSync(path.join(dir, 'reports/mutation/incremental.json')), false);
  });

  it('round trip: the next run is given the report the last one wrote, and its own is stored', () => {
    assert.equal(run('stryker.json', '--', ...stryker(null, REPORT)).status, 0);
    const next = { ...REPORT, files: {} };
    const r = run('stryker.json', '--', ...stryker(REPORT, next));
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(gunzipSync(readFileSync(stored())).toString('utf8')), next);
  });

  it('passes Stryker\'s exit code on, storing the report of a run below the threshold too', () => {
    const r = run('stryker.json', '--', ...stryker(null, REPORT, 1));
    assert.equal(r.status, 1);
    assert.ok(existsSync(stored()));
  });

  it('leaves the stored report as it was when a run wrote none', () => {
    assert.equal(run('stryker.json', '--', ...stryker(null, REPORT)).status, 0);
    const before = readFileSync(stored());
    const r = run('stryker.json', '--', ...stryker(REPORT, undefined, 2));
    assert.equal(r.status, 2);
    assert.deepEqual(readFileSync(stored()), before);
  });

  it('packs the same report into the same bytes, whatever its layout (a run that changed nothing changes no file)', () => {
    mkdirSync(path.join(dir, 'reports/mutation'), { recursive: true });
    writeFileSync(path.join(dir, 'reports/mutation/incremental.json'), JSON.stringify(REPORT, null, 2));
    assert.equal(run('pack', 'stryker.json').status, 0);
    const first = readFileSync(stored());
    assert.equal(first[9], 255, 'no operating system in the gzip header');
    assert.equal(run('unpack', 'stryker.json').status, 0);
    assert.equal(run('pack', 'stryker.json').status, 0);
    assert.deepEqual(readFileSync(stored()), first);
  });

  it('refuses, in one line, a plain report that is not JSON, a config without incrementalFile, and bad arguments', () => {
    mkdirSync(path.join(dir, 'reports/mutation'), { recursive: true });
    writeFileSync(path.join(dir, 'reports/mutation/incremental.json'), '{"files": ');
    let r = run('pack', 'stryker.json');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^strykerIncremental: reports\/mutation\/incremental\.json: not JSON, so not stored \(.+\)\n$/);
    assert.equal(existsSync(stored()), false);
    writeFileSync(path.join(dir, 'other.json'), '{}');
    r = run('unpack', 'other.json');
    assert.equal(r.stderr, 'strykerIncremental: other.json: names no incrementalFile\n');
    r = run('unpack', 'missing.json');
    assert.equal(r.stderr, 'strykerIncremental: missing.json: cannot read it as a Stryker config (ENOENT)\n');
    r = run('stryker.json');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^usage: node scripts\/strykerIncremental\.mjs /);
  });

  it('the repository: each config\'s report is stored compressed, runs through the script, and no plain report is committed', () => {
    const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const [script, config] of [['test:mutation', 'stryker.config.json'], ['test:mutation:write', 'stryker.write.json']]) {
      assert.match(scripts[script], new RegExp(`^node scripts/strykerIncremental\\.mjs ${config.replace('.', '\\.')} -- stryker run `), script);
      const plain = (JSON.parse(readFileSync(path.join(ROOT, config), 'utf8')) as { incrementalFile: string }).incrementalFile;
      assert.match(plain, /^reports\//, `${config}: the plain report is where git ignores it`);
      const report = JSON.parse(gunzipSync(readFileSync(path.join(ROOT, '.stryker-incremental', `${path.basename(plain)}.gz`))).toString('utf8')) as { files: object };
      assert.ok(Object.keys(report.files).length > 5, config);
    }
    assert.equal(existsSync(path.join(ROOT, 'test/mutation/stryker-incremental.json')), false);
    assert.equal(existsSync(path.join(ROOT, 'test/mutation/stryker-incremental-write.json')), false);
  });
});
