// The README's contributing examples run as written: the block marked `<!-- runnable: contributing`
// is run line by line, in order, in one shell, on a service started the way the README's "Running a
// service" starts it (`refactor-browser serve --data-dir ~/refactorings`, with HOME a fresh folder
// and a port of the system's choosing for 3000), with `refactor-browser` the built dist/cli.js.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLI, startServe, type ServeProcess } from '../../helpers/cliProcess';

const ROOT = path.resolve(__dirname, '../../../..');
const STORAGE_MS = 60_000;

/** The lines of the fenced block after `<!-- runnable: NAME`, comments and blank lines left out. */
function runnableBlock(file: string, name: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const at = text.indexOf(`<!-- runnable: ${name}`);
  assert.ok(at >= 0, `${file} marks a runnable ${name} block`);
  const block = /```sh\n([\s\S]*?)\n```/.exec(text.slice(at));
  assert.ok(block, `a fenced sh block follows the marker in ${file}`);
  return block[1].split('\n').filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
}

/** The README's command that starts a writable service, from its "Running a service" section. */
function readmeServeCommand(): string[] {
  const text = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = text.slice(text.indexOf('\n## Running a service'));
  const line = /^refactor-browser (serve --data-dir ~\/refactorings)\b/m.exec(section);
  assert.ok(line, 'Running a service starts one with serve --data-dir ~/refactorings');
  return line[1].split(' ');
}

/** Runs `script` in sh, -e, in `cwd`; each line's number on stderr after it succeeds. */
function sh(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-e', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), STORAGE_MS * 2);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('README: the contributing examples run, in order, on the service it starts', function () {
  this.timeout(STORAGE_MS * 3);
  let home: string;
  let serve: ServeProcess | undefined;

  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'rb-readme-'));
  });
  afterEach(async () => {
    if (serve && serve.child.exitCode === null && serve.child.pid !== undefined) {
      process.kill(serve.child.pid, 'SIGTERM');
      await serve.exit.catch(() => serve?.kill());
    }
    serve = undefined;
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('the command line README carries the same lines', () => {
    assert.deepEqual(runnableBlock('src/cli/README.md', 'contributing'), runnableBlock('README.md', 'contributing'));
  });

  it('each line of README.md\'s block exits 0', async () => {
    const lines = runnableBlock('README.md', 'contributing');
    assert.ok(lines.some((l) => /refactor-browser rate /.test(l)) && lines.some((l) => /refactor-browser refactor /.test(l)), lines.join('\n'));
    assert.ok(lines.every((l) => !/\b(refactor|rate|delete|show) \d/.test(l)), 'no id a new service does not have');

    const args = readmeServeCommand().map((a) => a.replace(/^~(?=\/)/, home));
    serve = startServe([...args, '--port', '0'], STORAGE_MS);
    const url = /^listening on (http:\/\/\S+)$/.exec(await serve.firstLine)?.[1];
    assert.ok(url, 'serve says where it listens');

    const bin = path.join(home, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'refactor-browser'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`, { mode: 0o755 });
    const work = path.join(home, 'work');
    fs.mkdirSync(work);
    // The README's address is the default port's; this service is on the one the system gave.
    const script = lines.map((l, i) => `${l.replaceAll('http://127.0.0.1:3000', url)}\necho "ran line ${i + 1}" >&2`).join('\n');
    const r = await sh(script, work, { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, HOME: home });
    const ran = [...r.stderr.matchAll(/^ran line (\d+)$/gm)].length;
    assert.equal(r.code, 0, `line ${ran + 1} failed: ${lines[ran]}\n${r.stderr}`);
    assert.equal(ran, lines.length);
    assert.match(r.stdout, /#\d+ {2}Parse a log line\n/, 'show printed the code posted');
    assert.match(r.stdout, /rating 5 \(1 vote\)/, 'show printed the rating given');
    assert.match(r.stdout, /^deleted code #\d+$/m);
  });
});
