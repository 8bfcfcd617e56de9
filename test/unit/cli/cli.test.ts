// The built command line (dist/cli.js) run as a process against the reference service on loopback.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import * as path from 'node:path';
import { RefactorClient } from '../../../src/client/client';
import type { Code, Refactor } from '../../../src/core/model';
import { sortRefactorings } from '../../../src/core/ratings';
import { parseCommandLine } from '../../../src/cli/args';
import { cacheFolder } from '../../../src/cli/search';
import { startServer } from '../../../src/server/http/server';
import { closedPort, startServer as startHttpServer } from '../../helpers/testServer';
import { run, startServe, type ServeProcess } from '../../helpers/cliProcess';

/** Whether this machine has an IPv6 loopback to listen on (a port of the system's choosing, closed at once). */
function hasIPv6Loopback(): Promise<boolean> {
  const s = createServer();
  return new Promise((resolve) => {
    s.once('error', () => resolve(false));
    s.listen(0, '::1', () => s.close(() => resolve(true)));
  });
}

/** An open TCP connection, or the connect error (e.g. ECONNREFUSED). */
function openConnection(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    socket.setTimeout(5000, () => socket.destroy(new Error(`no connection to ${host}:${port} within 5 s`)));
    socket.once('connect', () => { socket.setTimeout(0); resolve(socket); });
    socket.once('error', reject);
  });
}

const CODE_FIELDS = ['id', 'title', 'language', 'permalink', 'code', 'comment', 'createdAt', 'updatedAt', 'refactorsCount', 'trackbackUrl', 'userId'];
const USER_FIELDS = ['id', 'name', 'identityUrl', 'rating', 'refactorsCount', 'website'];
const REFACTOR_FIELDS = ['id', 'codeId', 'title', 'language', 'code', 'comment', 'createdAt', 'rating', 'ratingsCount', 'userId', 'userName', 'userWebsite'];

describe('refactor-browser (command line)', function () {
  this.timeout(20000);
  let service: { url: string; close(): Promise<void> };
  let client: RefactorClient;

  before(async () => {
    service = await startServer({ port: 0 });
    client = new RefactorClient({ baseUrl: service.url });
  });
  after(async () => {
    await client.close();
    await service.close();
  });

  it('recent --json prints exactly the decoded list, with the contract field names', async () => {
    const r = await run(['recent', '--json', '--base-url', service.url]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const printed = JSON.parse(r.stdout) as Record<string, unknown>[];
    const expected = await client.recentCodes();
    assert.ok(printed.length > 0);
    assert.deepEqual(printed, JSON.parse(JSON.stringify(expected)));
    for (const item of printed) {
      // `tags`: the reference service's own, which the spec's code lacks.
      assert.deepEqual(Object.keys(item).sort(), [...CODE_FIELDS, 'tags', 'user'].sort());
      assert.deepEqual(Object.keys(item.user as object).sort(), [...USER_FIELDS].sort());
      assert.match(String(item.createdAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it('the base URL can come from REFACTOR_BROWSER_BASE_URL', async () => {
    const r = await run(['popular', '--json'], { REFACTOR_BROWSER_BASE_URL: service.url });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(await client.popularCodes())));
  });

  it('without a base URL it browses the built-in sample catalog', async () => {
    const r = await run(['recent', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const ids = (JSON.parse(r.stdout) as { id: number }[]).map((c) => c.id);
    assert.deepEqual(ids, (await client.recentCodes()).map((c) => c.id));
  });

  it('names the built-in sample catalog in a failure instead of its made-up address, which no one can open', async () => {
    const r = await run(['show', '999999']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, "refactor-browser: the built-in sample catalog's /codes/999999.xml: HTTP 404 Not Found\n");
  });

  it('recent --language and --page reach the service', async () => {
    const all = await client.recentCodes();
    const language = all[0].language;
    const r = await run(['recent', '--json', '--language', language.toLowerCase(), '--base-url', service.url]);
    assert.equal(r.code, 0, r.stderr);
    const printed = JSON.parse(r.stdout) as { language: string }[];
    assert.ok(printed.length > 0);
    assert.ok(printed.every((c) => c.language === language));
    const page2 = await run(['recent', '--json', '--page', '2', '--base-url', service.url]);
    assert.equal(page2.code, 0, page2.stderr);
    assert.deepEqual(JSON.parse(page2.stdout), JSON.parse(JSON.stringify(await client.recentCodes({ page: 2 }))));
  });

  it('tag TAG lists the tagged codes and refactorings lists refactorings with their field names', async () => {
    const tag = await run(['tag', 'speed', '--language', 'ruby', '--json', '--base-url', service.url]);
    assert.equal(tag.code, 0, tag.stderr);
    const tagged = JSON.parse(tag.stdout) as { language: string }[];
    assert.ok(tagged.length > 0, 'the sample catalog has Ruby codes tagged speed');
    assert.ok(tagged.every((c) => c.language === 'Ruby'));

    const refs = await run(['refactorings', '--json', '--base-url', service.url]);
    assert.equal(refs.code, 0, refs.stderr);
    const printed = JSON.parse(refs.stdout) as Record<string, unknown>[];
    assert.ok(printed.length > 0);
    for (const item of printed) {
      const keys = Object.keys(item).filter((k) => k !== 'user').sort();
      assert.deepEqual(keys, [...REFACTOR_FIELDS].sort());
      if (item.userId === null) assert.equal('user' in item, false, 'an anonymous refactoring has no user');
    }
    assert.ok(printed.some((r) => r.userId === null), 'the list shows an anonymous refactoring as userId null');
  });

  it('show prints one code as an object with its refactorings, and as text with every refactoring', async () => {
    const [first] = await client.popularCodes();
    const answered = await client.code(first.id);
    assert.equal(answered.user, undefined, 'the single code names its author by user-id alone');
    // The author as /users/<id>.xml names them: every User field.
    const expected = { ...answered, user: await client.user(first.userId!) };
    const json = await run(['show', `${first.id}-${first.permalink}`, '--json', '--base-url', service.url]);
    assert.equal(json.code, 0, json.stderr);
    const printed = JSON.parse(json.stdout) as Record<string, unknown>;
    const bestFirst = { ...expected, refactors: sortRefactorings(expected.refactors ?? [], 'bestRated') };
    assert.deepEqual(printed, JSON.parse(JSON.stringify(bestFirst)));
    assert.deepEqual(Object.keys(printed).sort(), [...CODE_FIELDS, 'tags', 'user', 'refactors'].sort(), 'the reference service names the author and the tags');

    const text = await run(['show', String(first.id), '--base-url', service.url]);
    assert.equal(text.code, 0, text.stderr);
    assert.ok(text.stdout.includes(expected.title));
    assert.ok(text.stdout.includes(` · ${first.user!.name} · created `), 'the author by name, as the lists name them');
    const firstCodeLine = expected.code.split('\n').find((l) => l.trim() !== '')!;
    assert.ok(text.stdout.includes(firstCodeLine), 'the code is printed with its indentation');
    for (const r of expected.refactors ?? []) assert.ok(text.stdout.includes(`--- #${r.id} `), `refactoring ${r.id} is printed`);
  });

  it('show lists the refactorings best rated first, as the code view does, and --order takes its other orders', async () => {
    // A code whose refactorings the service answers (oldest first) in another order than the best rated.
    const codes = await Promise.all((await client.popularCodes()).map((c) => client.code(c.id)));
    const ids = (refactors: readonly Refactor[]): number[] => refactors.map((r) => r.id);
    const code = codes.find((c) => ids(sortRefactorings(c.refactors!, 'bestRated')).join() !== ids(c.refactors!).join());
    assert.ok(code, 'the sample catalog has a code whose best refactoring is not its first');
    for (const [args, order] of [[[], 'bestRated'], [['--order', 'bestRated'], 'bestRated'], [['--order', 'newest'], 'newest'], [['--order=Oldest'], 'oldest']] as const) {
      const expected = ids(sortRefactorings(code.refactors!, order));
      const json = await run(['show', String(code.id), ...args, '--json', '--base-url', service.url]);
      assert.equal(json.code, 0, json.stderr);
      assert.deepEqual(ids((JSON.parse(json.stdout) as Code).refactors!), expected, `--json ${args.join(' ')}`);
      const text = await run(['show', String(code.id), ...args, '--base-url', service.url]);
      assert.equal(text.code, 0, text.stderr);
      assert.deepEqual([...text.stdout.matchAll(/^--- #(\d+) /gm)].map((m) => Number(m[1])), expected, `text ${args.join(' ')}`);
    }
    const bad = await run(['show', String(code.id), '--order', 'best', '--base-url', service.url]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stdout, '');
    assert.equal(bad.stderr.split('\n')[0], 'refactor-browser: --order must be bestRated, newest or oldest, got "best"');
    const help = await run(['show', '--help']);
    assert.match(help.stdout, /--order ORDER .*\n.*bestRated/);
  });

  it('a readable listing shows title, language, author, date, id and refactorings count', async () => {
    const r = await run(['recent', '--base-url', service.url]);
    assert.equal(r.code, 0, r.stderr);
    const [c] = await client.recentCodes();
    assert.ok(r.stdout.startsWith(`#${c.id}  ${c.title.replace(/\s+/g, ' ').trim()}\n`), r.stdout.slice(0, 200));
    const n = c.refactorsCount ?? 0;
    const meta = `${c.language} · ${c.user?.name} · ${c.createdAt!.toISOString().slice(0, 10)} · ${n} refactoring${n === 1 ? '' : 's'}`;
    assert.ok(r.stdout.includes(meta), `expected "${meta}"`);
  });

  it('sends the User-Agent refactor-browser/<version of package.json> from the bundle', async () => {
    const { version } = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as { version: string };
    const plain = await startHttpServer((_req, res) => res.end('<?xml version="1.0" encoding="UTF-8"?>\n<codes type="array"></codes>\n'));
    try {
      const r = await run(['recent', '--json', '--base-url', plain.origin]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(plain.requests.map((q) => q.headers['user-agent']), [`refactor-browser/${version}`]);
    } finally {
      await plain.close();
    }
  });

  it('a failure exits 1 with one line on stderr naming the URL and the cause', async () => {
    const missing = await run(['show', '999999', '--base-url', service.url]);
    assert.equal(missing.code, 1);
    assert.equal(missing.stdout, '');
    assert.equal(missing.stderr.trimEnd().split('\n').length, 1, missing.stderr);
    assert.match(missing.stderr, new RegExp(`${service.url.replace(/[.]/g, '\\.')}/codes/999999\\.xml`));
    assert.match(missing.stderr, /404/);

    // Held by this process, bound but never listening: it refuses, and nobody else can take it meanwhile.
    const port = await closedPort();
    const dead = await run(['recent', '--base-url', `http://127.0.0.1:${port}`, '--timeout', '3']);
    assert.equal(dead.code, 1);
    assert.equal(dead.stderr.trimEnd().split('\n').length, 1, dead.stderr);
    assert.match(dead.stderr, new RegExp(`http://127\\.0\\.0\\.1:${port}/codes/recent\\.xml`));
    assert.match(dead.stderr, /refused/);
    assert.doesNotMatch(dead.stderr, /\n\s+at /, 'no stack trace');
  });

  it('keeps terminal control characters from the response out of stderr too', async () => {
    // Each body makes the decoder name something from the response in its error line.
    const bodies = [
      '<?xml version="1.0"?><codes type="array"></codes><x\u001b]0;pwned\u0007>',
      '<?xml version="1.0"?><codes type="array"><code><id type="integer">&#155;1</id></code></codes>',
      '<?xml version="1.0"?><codes\u009b31m type="array"></codes>',
    ];
    const hostile = await startHttpServer((req, res) => {
      const i = Number(/\/b(\d)\//.exec(req.url ?? '')?.[1] ?? 0);
      res.writeHead(200, { 'content-type': 'application/xml' }).end(bodies[i]);
    });
    try {
      for (const [i] of bodies.entries()) {
        const r = await run(['recent', '--base-url', `${hostile.origin}/b${i}/`]);
        assert.equal(r.code, 1, r.stderr);
        assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
        assert.match(r.stderr, new RegExp(`/b${i}/codes/recent\\.xml`), 'still names the URL');
        assert.doesNotMatch(r.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, JSON.stringify(r.stderr));
      }
    } finally {
      await hostile.close();
    }
  });

  it('refuses a base URL with a user name or password without repeating it (exit 2)', async () => {
    for (const [args, env] of [
      [['recent', '--base-url', 'http://ana:s3cret@127.0.0.1:9/'], {}],
      [['recent', '--base-url', 'https://token-x9@svc.test/api'], {}],
      [['recent'], { REFACTOR_BROWSER_BASE_URL: 'http://ana:s3cret@127.0.0.1:9/' }],
    ] as const) {
      const r = await run([...args], env);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /must not contain a user name or password/);
      assert.doesNotMatch(r.stderr, /s3cret|token-x9|ana/, r.stderr);
    }
  });

  it('takes a --timeout in seconds to the millisecond, however it is written; less than a millisecond is bad usage', async () => {
    // 1.001 s is 1000.9999999999999 ms in floating point, which the client would refuse as no whole number.
    for (const seconds of ['1.001', '2.5', '3600']) {
      const r = await run(['recent', '--timeout', seconds, '--json']);
      assert.equal(r.code, 0, `--timeout ${seconds}: ${r.stderr}`);
      assert.equal((JSON.parse(r.stdout) as unknown[]).length, 25);
    }
    // A millisecond is taken; the deadline covers decoding too, which may take longer than that.
    const shortest = await run(['recent', '--timeout', '0.001', '--json']);
    assert.ok(shortest.code === 0 || /timed out after/.test(shortest.stderr), `--timeout 0.001: ${shortest.stderr}`);
    const tooShort = await run(['recent', '--timeout', '0.0005']);
    assert.equal(tooShort.code, 2);
    assert.equal(tooShort.stderr.split('\n')[0], 'refactor-browser: --timeout must be a number of seconds from 0.001 to 3600, got "0.0005"');
  });

  it('bad usage exits 2: unknown command, unknown option, bad page, a base URL that is not http(s)', async () => {
    for (const args of [
      ['frobnicate'],
      ['recent', '--colour'],
      ['recent', '--page', '0'],
      ['recent', '--page', 'two'],
      ['recent', '--base-url', 'ftp://example.org/'],
      ['recent', '--base-url', 'javascript:alert(1)'],
      ['recent', '--timeout', '-1'],
      ['recent', '--timeout', '0.0005'],
      ['tag'],
      ['show'],
      ['show', 'not a ref', '--base-url', service.url],
      ['serve', '--port', '70000'],
    ]) {
      const r = await run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^refactor-browser: /);
    }
  });

  it('--help works for the program and for every command', async () => {
    const main = await run(['--help']);
    assert.equal(main.code, 0);
    for (const c of ['recent', 'popular', 'tag', 'refactorings', 'show', 'serve']) {
      assert.ok(main.stdout.includes(`  ${c} `), `main help lists ${c}`);
      const r = await run([c, '--help']);
      assert.equal(r.code, 0, c);
      assert.match(r.stdout, new RegExp(`^Usage: refactor-browser ${c}`));
    }
  });

  it('--version prints the version of package.json, before or after a command', async () => {
    const { version } = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as { version: string };
    for (const args of [['--version'], ['recent', '--version'], ['--json', '--version'], ['serve', '--version']]) {
      const r = await run(args);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, `${version}\n`, ''], args.join(' '));
    }
    // After `--` it is a word like any other: a search for it.
    const searched = parseCommandLine(['search', '--', '--version'], {});
    assert.deepEqual(searched.name === 'search' && searched.query, '--version');
  });

  it('takes the global options before the command as after it, the last one given winning', async () => {
    const after = await run(['recent', '--json', '--timeout', '5', '--base-url', service.url]);
    assert.equal(after.code, 0, after.stderr);
    for (const args of [
      ['--json', '--timeout', '5', '--base-url', service.url, 'recent'],
      ['--base-url', service.url, '--json', 'recent', '--timeout=5'],
      [`--base-url=${service.url}`, 'recent', '--json'],
      ['--base-url', 'http://127.0.0.1:1/', '--json', 'recent', '--base-url', service.url],
    ]) {
      const r = await run(args);
      assert.deepEqual([r.code, r.stderr, r.stdout], [0, '', after.stdout], args.join(' '));
    }
    const shown = await run(['--json', '--base-url', service.url, 'show', '1']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal((JSON.parse(shown.stdout) as { id: number }).id, 1);
    assert.deepEqual(parseCommandLine(['--timeout', '2.5', 'search', 'parse', 'log']),
      parseCommandLine(['search', 'parse', 'log', '--timeout', '2.5']));
  });

  it('says where an option before the command goes wrong: a command\'s option, an unknown one, serve, no command', async () => {
    for (const [args, message] of [
      [['--language', 'ruby', 'recent'], 'refactor-browser: --language is an option of a command: put it after the command'],
      [['--colour', 'recent'], 'refactor-browser: unknown option --colour'],
      [['--json', 'serve'], 'refactor-browser: --json is an option of the browsing commands, not of serve'],
      [['--base-url', service.url], `refactor-browser: expected a command after --base-url`],
      [['recent', '--base-url'], undefined],
      [['--timeout'], 'refactor-browser: --timeout needs a value'],
    ] as Array<[string[], string | undefined]>) {
      const r = await run(args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, '');
      if (message) assert.equal(r.stderr.split('\n')[0], message, args.join(' '));
    }
    // --help before the command is the command's help.
    const help = await run(['--help', 'search']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: refactor-browser search/);
  });

  it('--help shows examples that run as written, and the project\'s address', async () => {
    const { homepage } = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as { homepage: string };
    const main = await run(['--help']);
    assert.equal(main.code, 0);
    assert.ok(main.stdout.includes(homepage), `names ${homepage}`);
    const examples = main.stdout.split('Examples:\n')[1]?.split('\n\n')[0]?.split('\n') ?? [];
    assert.ok(examples.length >= 3, main.stdout);
    for (const line of examples) {
      // Each example up to a pipe or the comment beside it, split as a shell would split these.
      const command = line.trim().split(/\s{2,}|\s\|\s/)[0];
      const words = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
      assert.equal(words.shift(), 'refactor-browser', line);
      assert.doesNotThrow(() => parseCommandLine(words, {}), line);
    }
  });

  it('search --help names the cache folder on Linux, macOS and Windows, and the one it uses here', async () => {
    const lines = (env: NodeJS.ProcessEnv) => run(['search', '--help'], env).then((r) => r.stdout.split('\n'));
    const plain = await lines({});
    for (const folder of ['$XDG_CACHE_HOME/refactor-browser, or ~/.cache/refactor-browser', '~/Library/Caches/refactor-browser',
      '%LOCALAPPDATA%\\refactor-browser\\Cache', 'REFACTOR_BROWSER_CACHE']) {
      assert.ok(plain.some((l) => l.includes(folder)), `${folder} in ${plain.join('\n')}`);
    }
    assert.deepEqual(plain.filter((l) => /^\s*(Linux|macOS|Windows)\s/.test(l)).map((l) => l.trim().split(/\s/)[0]), ['Linux', 'macOS', 'Windows']);
    // Here: what search itself uses, as the environment decides it.
    const here = (await lines({ REFACTOR_BROWSER_CACHE: path.join(path.sep, 'tmp', 'rb-cache') })).find((l) => l.startsWith('On this machine: '));
    assert.equal(here, `On this machine: ${cacheFolder({ REFACTOR_BROWSER_CACHE: path.join(path.sep, 'tmp', 'rb-cache') })}`);
    if (process.platform === 'linux') {
      const xdg = (await lines({ XDG_CACHE_HOME: '/tmp/xdg' })).find((l) => l.startsWith('On this machine: '));
      assert.equal(xdg, 'On this machine: /tmp/xdg/refactor-browser');
    }
  });

  it('help for a topic named like an Object.prototype member is bad usage, like any unknown topic', async () => {
    for (const topic of ['frob', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const r = await run(['help', topic]);
      assert.equal(r.code, 2, `${topic}: ${r.stdout}`);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `refactor-browser: no help for "${topic}"\n`);
    }
  });

  describe('serve', () => {
    const started: ServeProcess[] = [];
    afterEach(() => {
      for (const p of started.splice(0)) p.kill();
    });
    const serve = (args: string[]) => {
      const p = startServe(args);
      started.push(p);
      return p;
    };

    it('prints its address once it accepts connections, serves the catalog and stops on SIGTERM', async () => {
      const p = serve(['serve', '--port', '0']);
      const line = await p.firstLine;
      const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(line);
      assert.ok(m, line);
      const r = await run(['recent', '--json', '--base-url', m[1]]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(await client.recentCodes())));
      p.child.kill('SIGTERM');
      assert.equal(await p.exit, 0);
    });

    it('stops cleanly on SIGINT (Ctrl-C), sent as soon as it is listening or with a connection open: exit 0, the port released', async () => {
      for (const withConnection of [false, true]) {
        const p = serve(['serve', '--port', '0']);
        const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(await p.firstLine)?.[1];
        assert.ok(url);
        const port = Number(new URL(url).port);
        const idle = withConnection ? await openConnection('127.0.0.1', port) : undefined;
        try {
          p.child.kill('SIGINT');
          assert.equal(await p.exit, 0, `exit status (signal ${p.child.signalCode}), connection open: ${withConnection}`);
        } finally {
          idle?.destroy();
        }
        // An idle connection is no request: nothing is left to finish.
        assert.equal(p.stderr(), 'stopping: finishing 0 requests…\n');
        // Released: nothing listens there any more. Probed by connecting, not by listening on it again,
        // which would take the port from whoever the system gives it to next.
        await assert.rejects(openConnection('127.0.0.1', port), { code: 'ECONNREFUSED' }, `port ${port} is released`);
      }
    });

    // The default is read from the parsed command line, not by listening on 3000: another process on
    // this machine may hold that port. Listening on what was parsed is the --port 0 tests' part.
    it('listens on 127.0.0.1, port 3000, by default', () => {
      assert.deepEqual(parseCommandLine(['serve'], {}), { name: 'serve', port: 3000, host: '127.0.0.1', catalog: undefined, generate: undefined, storage: undefined, writesPerMinute: 30, trustProxy: false });
    });

    it('exits 1 with one line naming the address when the port is taken', async () => {
      const holder = createServer();
      await new Promise<void>((r) => holder.listen(0, '127.0.0.1', r));
      const port = (holder.address() as { port: number }).port;
      try {
        const p = serve(['serve', '--port', String(port)]);
        assert.equal(await p.exit, 1);
        assert.equal(p.stdout(), '');
        assert.equal(p.stderr(), `refactor-browser: 127.0.0.1:${port} is in use by another program (another serve?): stop it, or give another --port\n`);
      } finally {
        await new Promise<void>((r) => holder.close(() => r()));
      }
    });

    it('--host ::1 listens on the IPv6 loopback only, with the address in brackets', async function () {
      if (!(await hasIPv6Loopback())) this.skip(); // no IPv6 loopback on this machine
      const p = serve(['serve', '--port', '0', '--host', '::1']);
      const m = /^listening on (http:\/\/\[::1\]:(\d+))$/.exec(await p.firstLine);
      assert.ok(m, 'printed address');
      const served = new RefactorClient({ baseUrl: m[1], timeoutMs: 5000 });
      try {
        assert.deepEqual((await served.recentCodes()).map((c) => c.id), (await client.recentCodes()).map((c) => c.id));
      } finally {
        await served.close();
      }
      await assert.rejects(openConnection('127.0.0.1', Number(m[2])), { code: 'ECONNREFUSED' }, 'nothing on 127.0.0.1');
      p.child.kill('SIGINT');
      assert.equal(await p.exit, 0);
    });
  });

  it('serve --catalog names the file, the entry and the field of a bad catalog, and exits 1', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rb-cli-'));
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, JSON.stringify({ users: [], codes: [{ id: 1, title: 'x' }], refactors: [] }));
    try {
      const r = await run(['serve', '--port', '0', '--catalog', file]);
      assert.equal(r.code, 1);
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
      assert.ok(r.stderr.includes('broken.json'), r.stderr);
      assert.match(r.stderr, /codes\[0\]/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
