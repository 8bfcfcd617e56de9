// The smoke check of `npm start` runs it as a newcomer would (test/runners/freshHome.ts): an
// environment that names no cache, a look over /proc for whatever is left running under the empty
// HOME it gave, and the progress lines of a first start checked in order. Run against real processes.
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitFor } from '../../helpers/poll';
import { expectedFirstStartLines, firstMissingLine, freshHomeEnv, processesWithHome } from '../../runners/freshHome';

describe('smoke check of npm start: a fresh HOME', function () {
  this.timeout(15_000);

  it('names no cache: npm_*, XDG_*, REFACTOR_BROWSER_* and the compile cache go, HOME is the new folder', () => {
    const env = freshHomeEnv({
      PATH: '/usr/bin', LANG: 'C.UTF-8', HOME: '/root',
      npm_config_cache: '/root/.npm', NPM_CONFIG_CACHE: '/root/.npm', npm_execpath: '/usr/lib/npm-cli.js',
      XDG_CACHE_HOME: '/root/.cache', XDG_CONFIG_HOME: '/root/.config', XDG_DATA_HOME: '/root/.local/share',
      REFACTOR_BROWSER_CODE_SERVER_DIR: '/opt/cs', REFACTOR_BROWSER_WEB_PORT: '8080', NODE_COMPILE_CACHE: '/root/.ncc',
    }, '/tmp/home-x');
    assert.deepEqual(env, { PATH: '/usr/bin', LANG: 'C.UTF-8', HOME: '/tmp/home-x' });
  });

  describe('what is left running under it', () => {
    let home: string;
    let child: ChildProcess | undefined;
    before(function () {
      if (process.platform !== 'linux') this.skip();
      home = fs.mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-home-test-'));
    });
    after(() => {
      if (child?.pid !== undefined && child.exitCode === null) child.kill('SIGKILL');
      if (home) fs.rmSync(home, { recursive: true, force: true });
    });

    it('finds a process whose HOME is that folder, by pid, and no longer once it has ended', async () => {
      assert.deepEqual(processesWithHome(home), [], 'nothing yet');
      child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', 'sleeper'], { env: { ...process.env, HOME: home }, stdio: 'ignore' });
      const found = await waitFor(() => processesWithHome(home).find((p) => p.pid === child!.pid), 'the sleeper to be seen');
      assert.match(found.command, /setTimeout.*sleeper$/);
      // A process whose HOME merely starts with the folder's name is another HOME.
      assert.deepEqual(processesWithHome(home.slice(0, -1)), []);
      const ended = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await ended;
      assert.deepEqual(processesWithHome(home), []);
    });
  });

  describe('the progress lines of a first start', () => {
    const dir = '/tmp/h/.cache/refactor-browser/code-server-4.100.3';
    const expected = expectedFirstStartLines(dir, '4.100.3');
    const full = [
      '> refactor-browser@0.1.0 start', '> node scripts/start.mjs web', '',
      'building the extension (tsc, then esbuild)…', 'built in 41 s',
      `installing VS Code's server (code-server 4.100.3) into ${dir}: first run only, about 2 minutes`,
      '  code-server 4.100.3 from the npm registry…', '  code-server 4.100.3 from the npm registry: 20 s',
      "  VS Code server's dependencies…", "  VS Code server's dependencies: 15 s",
      '  native modules, compiled against this Node…', '  native modules, compiled against this Node: 30 s',
      '  built-in extensions…', '  built-in extensions: 5 s',
      "  code-server's argon2…", "  code-server's argon2: 3 s",
      "VS Code's server installed in 73 s",
      "starting VS Code's server…", "VS Code's server started in 4 s",
      'Refactor Browser in VS Code for the Web: http://127.0.0.1:40211/?folder=/tmp/x', 'Press Ctrl-C to stop.',
    ];

    it('a first start prints every one, in order', () => {
      assert.equal(firstMissingLine(full.join('\n'), expected), undefined);
    });

    it('names the first one missing: a start that reused an install, one into another folder, one out of order', () => {
      const reused = full.filter((l) => !/install|npm registry|dependencies|native|extensions|argon2/.test(l));
      assert.equal(String(firstMissingLine(reused.join('\n'), expected)), String(expected[2]));
      const elsewhere = full.map((l) => l.replace(dir, '/root/.cache/refactor-browser/code-server-4.100.3'));
      assert.equal(String(firstMissingLine(elsewhere.join('\n'), expected)), String(expected[2]));
      const swapped = [...full];
      [swapped[3], swapped[4]] = [swapped[4], swapped[3]];
      assert.equal(String(firstMissingLine(swapped.join('\n'), expected)), String(expected[1]));
      assert.equal(String(firstMissingLine(full.slice(0, -3).join('\n'), expected)), String(expected[15]));
    });
  });
});
