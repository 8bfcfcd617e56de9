// The write commands run as a process (dist/cli.js): what they refuse before sending anything, and
// how a service's refusal reads, one line on stderr with the token nowhere.
import { strict as assert } from 'node:assert';
import { startServer } from '../../../src/server/http/server';
import { run } from '../../helpers/cliProcess';

const TOKEN = 'cli-t0ken-never-shown';

describe('refactor-browser write commands (process)', function () {
  this.timeout(20000);
  let readOnly: { url: string; close(): Promise<void> };

  before(async () => {
    readOnly = await startServer({ port: 0 });
  });
  after(() => readOnly.close());

  function oneLine(stderr: string): void {
    assert.equal(stderr.split('\n').length, 2, stderr);
    assert.ok(stderr.endsWith('\n'));
    assert.ok(!stderr.includes(TOKEN), stderr);
  }

  it('the built-in sample catalog takes no contributions: exit 1, one line, whatever the token', async () => {
    for (const env of [{ REFACTOR_BROWSER_TOKEN: TOKEN }, {}]) {
      const r = await run(['rate', '1', '1', '5'], env);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, '');
      oneLine(r.stderr);
      assert.match(r.stderr, /^refactor-browser: rate: the built-in sample catalog takes no contributions: give --base-url/);
    }
  });

  it('a write without REFACTOR_BROWSER_TOKEN is bad usage: exit 2, one line saying where a token comes from', async () => {
    for (const args of [['post', 'x.rb', '--title', 'T', '--language', 'ruby', '--comment', 'c'], ['refactor', '1', 'x.rb'], ['rate', '1', '2', '3'], ['delete', '1']]) {
      const r = await run([...args, '--base-url', readOnly.url], { REFACTOR_BROWSER_TOKEN: '' });
      assert.equal(r.code, 2, r.stderr);
      oneLine(r.stderr);
      assert.equal(r.stderr, `refactor-browser: ${args[0]} needs a token: set REFACTOR_BROWSER_TOKEN (the service's owner gives one with "refactor-browser users add NAME")\n`);
    }
  });

  it('a read-only service refuses: exit 1, one line naming the URL and the service\'s words', async () => {
    const r = await run(['delete', '42-x', '7'], { REFACTOR_BROWSER_TOKEN: TOKEN, REFACTOR_BROWSER_BASE_URL: readOnly.url });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, '');
    oneLine(r.stderr);
    assert.match(r.stderr, new RegExp(`^refactor-browser: ${readOnly.url.replace(/[.]/g, '\\.')}/?codes/42/refactors/7\\.xml: HTTP 405 Method Not Allowed: \\S`));
  });

  it('bad usage of a write command: exit 2 and a pointer to its help', async () => {
    const r = await run(['rate', '1', '2', '9'], { REFACTOR_BROWSER_TOKEN: TOKEN });
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'refactor-browser: VALUE must be between 1 and 5, got 9\nRun "refactor-browser rate --help" for usage.\n');
  });

  it('post FILE that is not UTF-8 fails before sending, naming the file', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rb-post-')), 'latin1.rb');
    writeFileSync(file, Buffer.from([0x63, 0xe9, 0x0a]));
    const r = await run(['post', file, '--title', 'T', '--language', 'ruby', '--comment', 'c'], { REFACTOR_BROWSER_TOKEN: TOKEN, REFACTOR_BROWSER_BASE_URL: readOnly.url });
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, `refactor-browser: ${file}: not UTF-8 text\n`);
  });
});
