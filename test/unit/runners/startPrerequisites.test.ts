// `npm start` on a machine that lacks something: scripts/start.mjs checks first and says, in one line
// naming the Debian packages, what is missing, before any build (which took two minutes to reach the
// same complaint). Run as the real script with a PATH that holds node and nothing else.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../../../..');

describe('npm start: prerequisites are checked before the build', function () {
  this.timeout(20_000);
  let bin: string;
  before(() => {
    bin = fs.mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-path-'));
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
  });
  after(() => fs.rmSync(bin, { recursive: true, force: true }));

  it('without ripgrep or a compiler on PATH, prints one line naming them and their Debian packages and builds nothing', () => {
    const started = Date.now();
    const result = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'start.mjs'), 'web'], {
      cwd: REPO, encoding: 'utf8', env: { ...process.env, PATH: bin },
    });
    const lines = `${result.stdout}${result.stderr}`.split('\n').filter((l) => l.trim());
    assert.equal(result.status, 1, `exit status, output:\n${lines.join('\n')}`);
    assert.equal(lines.length, 1, `one line, got:\n${lines.join('\n')}`);
    assert.match(lines[0], /^missing: ripgrep \(rg\), a C\/C\+\+ toolchain \(cc, c\+\+, make\), python3/);
    assert.match(lines[0], / — apt-get install ripgrep build-essential python3$/);
    assert.ok(Date.now() - started < 5_000, 'it answers at once: no build ran');
  });

  it('with everything there, the web check says nothing and passes', function () {
    const result = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'prerequisites.mjs'), 'web'], { encoding: 'utf8' });
    if (result.status !== 0) this.skip(); // this machine lacks one: the case above covers the message
    assert.equal(result.stdout + result.stderr, '');
  });

  it('desktop VS Code without `code` on PATH needs a display, and says so with npm start as the way without one', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: bin };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    delete env.REFACTOR_BROWSER_CODE;
    const result = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'start.mjs'), 'desktop'], { cwd: REPO, encoding: 'utf8', env });
    const lines = `${result.stdout}${result.stderr}`.split('\n').filter((l) => l.trim());
    assert.equal(result.status, 1);
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0], /^missing: a display for VS Code .* — apt-get install xvfb.* \(or `npm start`: VS Code for the Web\)$/);
  });
});
