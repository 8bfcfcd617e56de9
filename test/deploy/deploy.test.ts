// The deployment of docs/deploy.md, run: two `serve --database` instances over one PostgreSQL behind
// nginx with deploy/nginx.conf, on loopback. What a service's owner relies on: nginx serves the
// instances' own bytes; a repeated read is answered from its cache; a token or a write always
// reaches an instance; a write is in the storage every instance reads at once; one instance dying
// leaves the service answering; everything started is stopped by its pid at the end.
import * as assert from 'node:assert/strict';
import { waitForAnswer } from '../helpers/poll';
import { request, type RawResponse } from '../helpers/referenceService';
import { runCli, startStack, stopStarted, type LogLine, type Stack } from './stack';

/** A small catalog: the test is about the deployment, not the service's pages. */
const CODES = 120;
/** Each instance's --writes-per-minute: above what the other tests write, low enough to reach. */
const WRITES_PER_MINUTE = 10;

describe('deployment: two instances over one PostgreSQL behind nginx', function () {
  this.timeout(120_000);
  let stack: Stack;

  before(async function () {
    this.timeout(240_000);
    stack = await startStack({ generate: CODES, writesPerMinute: WRITES_PER_MINUTE, log: (line) => console.log(`      ${line}`) });
  });

  after(async function () {
    this.timeout(60_000);
    // A start that failed, or outlived its hook, has no stack to stop: whatever it started is stopped by its pid.
    if (!stack) return stopStarted();
    const pids = [stack.nginx.pid!, ...stack.instances.map((i) => i.child.pid!)];
    const { instanceExits, nginxExit } = await stack.stop();
    assert.equal(nginxExit, 0, 'nginx stops on SIGTERM');
    for (const pid of pids) assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `pid ${pid} still runs`);
    // The instance killed on purpose ended by SIGKILL; every other one stopped gracefully, with exit code 0.
    instanceExits.forEach((exit, n) => assert.ok(exit === 0 || (n === 0 && exit === 'SIGKILL'), `instance ${n + 1} ended with ${exit}`));
  });

  const via = (url: string, path: string, headers: Record<string, string> = {}) => request(url, path, { headers });
  const nginx = (path: string, headers: Record<string, string> = {}) => via(stack.nginxUrl, path, headers);
  /** The log lines of requests for `path`, from the `from`th line on. */
  const logged = (path: string, from = 0): LogLine[] => stack.accessLog().slice(from).filter((l) => l.request.split(' ')[1] === path);
  /** The same, once `count` lines are there: nginx logs a request just after answering it. */
  const loggedSoon = async (path: string, from: number, count: number): Promise<LogLine[]> =>
    waitForAnswer(async () => logged(path, from), (lines) => lines.length >= count, `${count} log lines for ${path}`, 2_000);
  /** Every log line from the `from`th on, once there are `count`. */
  const linesSoon = async (from: number, count: number): Promise<LogLine[]> =>
    waitForAnswer(async () => stack.accessLog().slice(from), (lines) => lines.length >= count, `${count} log lines`, 2_000);

  it('each instance answers /healthz with 200; through nginx it is answered by an instance every time, never from the cache', async () => {
    for (const i of stack.instances) assert.equal((await via(i.url, '/healthz')).status, 200, i.url);
    const before = stack.accessLog().length;
    for (let n = 0; n < 3; n++) {
      const res = await nginx('/healthz');
      assert.equal(res.status, 200);
      assert.notEqual(res.headers['x-cache-status'], 'HIT');
    }
    const lines = await loggedSoon('/healthz', before, 3);
    assert.equal(lines.length, 3);
    for (const l of lines) assert.equal(l.upstreams.length, 1, `reached an instance: ${JSON.stringify(l)}`);
  });

  it('serves the instances\' own bytes and headers, XML and HTML, lists, pages and codes', async () => {
    const paths = ['/', '/codes/recent.xml', '/codes/popular.xml?page=2', '/codes/recent/ruby.xml', '/refactorings/recent.xml', '/codes/7.xml', '/codes/7', '/codes/7/refactors/19.xml', '/codes/recent'];
    for (const path of paths) {
      const proxied = await nginx(path);
      assert.equal(proxied.status, 200, path);
      for (const i of stack.instances) {
        const direct = await via(i.url, path);
        assert.ok(proxied.body.equals(direct.body), `${path}: the same bytes as ${i.url}`);
        for (const h of ['etag', 'cache-control', 'content-type', 'access-control-allow-origin', 'access-control-expose-headers']) {
          assert.equal(proxied.headers[h], direct.headers[h], `${path}: ${h}`);
        }
      }
    }
  });

  it('answers a second identical read from its cache (HIT), and a conditional one with 304', async () => {
    const path = '/codes/popular.xml?page=3';
    const first = await nginx(path);
    assert.equal(first.headers['x-cache-status'], 'MISS');
    await loggedSoon(path, 0, 1);
    const before = stack.accessLog().length;
    const second = await nginx(path);
    assert.equal(second.headers['x-cache-status'], 'HIT');
    assert.ok(second.body.equals(first.body));
    const conditional = await nginx(path, { 'If-None-Match': first.headers.etag as string });
    assert.equal(conditional.status, 304);
    assert.deepEqual((await loggedSoon(path, before, 2)).map((l) => l.upstreams.length), [0, 0], 'neither reached an instance');
  });

  it('shares the requests the cache cannot answer between both instances', async () => {
    const before = stack.accessLog().length;
    for (let id = 30; id < 40; id++) assert.equal((await nginx(`/codes/${id}.xml`)).headers['x-cache-status'], 'MISS');
    const asked = new Set((await linesSoon(before, 10)).flatMap((l) => l.upstreams));
    assert.deepEqual([...asked].sort(), stack.instances.map((i) => i.address).sort());
  });

  it('passes a request with Authorization through to an instance every time, and keeps it out of the cache', async () => {
    const auth = { Authorization: `Bearer ${stack.token}` };
    const before = stack.accessLog().length;
    for (let n = 0; n < 2; n++) {
      const account = await nginx('/account.xml', auth);
      assert.equal(account.status, 200);
      assert.match(account.text, /Deploy Writer/);
      assert.equal(account.headers['x-cache-status'], 'BYPASS');
      const list = await nginx('/codes/recent.xml?page=4', auth);
      assert.equal(list.headers['x-cache-status'], 'BYPASS');
    }
    // Not stored either: the same read without a token is the cache's first.
    assert.equal((await nginx('/codes/recent.xml?page=4')).headers['x-cache-status'], 'MISS');
    const lines = [...(await loggedSoon('/account.xml', before, 2)), ...(await loggedSoon('/codes/recent.xml?page=4', before, 3))];
    assert.equal(lines.length, 5);
    for (const l of lines) assert.equal(l.upstreams.length, 1, JSON.stringify(l));
  });

  it('takes a write through nginx into the storage: the other instance shows it at once; a DELETE passes through too', async () => {
    const before = stack.accessLog().length;
    const body = '<code><title>Written through the proxy</title><language>Ruby</language><comment>c</comment><code>p 1</code><tag-list>deploy</tag-list></code>';
    const res = await request(stack.nginxUrl, '/codes.xml', {
      method: 'POST',
      headers: { 'Content-Type': 'application/xml', Authorization: `Bearer ${stack.token}` },
      body,
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers['x-cache-status'], undefined, 'the cache had no part in it');
    const location = res.headers.location!;
    assert.ok(location.startsWith(`${stack.nginxUrl}/codes/`), `Location names the proxy's address: ${location}`);
    const [line] = await loggedSoon('/codes.xml', before, 1);
    assert.equal(line.upstreams.length, 1);
    const other = stack.instances.find((i) => i.address !== line.upstreams[0])!;
    const id = /\/codes\/(\d+)-/.exec(location)![1];
    const direct = await via(other.url, `/codes/${id}.xml`);
    assert.equal(direct.status, 200, `${other.url} reads code ${id} right after the write`);
    assert.match(direct.text, /Written through the proxy/);
    // The other instance drops what it rendered when PostgreSQL tells it (LISTEN/NOTIFY): within moments.
    await waitForAnswer(() => via(other.url, '/codes/recent.xml'), (r: RawResponse) => r.text.includes('Written through the proxy'), 'the new code first in the other instance\'s recent list', 2_000);

    const deleted = await request(stack.nginxUrl, `/codes/${id}.xml`, { method: 'DELETE', headers: { Authorization: `Bearer ${stack.token}` } });
    assert.equal(deleted.status, 204);
    for (const i of stack.instances) assert.equal((await via(i.url, `/codes/${id}.xml`)).status, 404, `${i.url} no longer has code ${id}`);
  });

  it('counts a person\'s writes in the database: --writes-per-minute in all across both instances, not each', async () => {
    const token = (await runCli(['users', 'add', 'Rate Writer', '--database', stack.databaseUrl])).trim();
    const post = (url: string) => request(url, '/codes.xml', {
      method: 'POST',
      headers: { 'Content-Type': 'application/xml', Authorization: `Bearer ${token}` },
      body: '<code><title>Counted once</title><language>Ruby</language><comment>c</comment><code>p 3</code><tag-list>deploy</tag-list></code>',
    });
    const statuses: number[] = [];
    for (let n = 0; n < WRITES_PER_MINUTE + 2; n++) statuses.push((await post(stack.instances[n % 2].url)).status);
    assert.deepEqual(statuses, [...Array<number>(WRITES_PER_MINUTE).fill(201), 429, 429]);
    assert.equal((await post(stack.nginxUrl)).status, 429, 'through nginx too');
  });

  it('keeps answering when an instance is killed mid-run: reads under way, new reads, writes, /healthz', async () => {
    const victim = stack.instances[0];
    // Reads the cache has not seen, so each must reach an instance; some are under way when it dies.
    const reads: Array<Promise<RawResponse>> = [];
    for (let id = 50; id < 90; id++) {
      reads.push(nginx(`/codes/${id}`));
      if (id === 60) process.kill(victim.child.pid!, 'SIGKILL');
    }
    assert.equal(await victim.exited, 'SIGKILL');
    const statuses = (await Promise.all(reads)).map((r) => r.status);
    assert.deepEqual(statuses, statuses.map(() => 200));
    for (let id = 90; id < 100; id++) assert.equal((await nginx(`/codes/${id}.xml`)).status, 200);
    for (let n = 0; n < 4; n++) assert.equal((await nginx('/healthz')).status, 200);
    const write = await request(stack.nginxUrl, '/codes.xml', {
      method: 'POST',
      headers: { 'Content-Type': 'application/xml', Authorization: `Bearer ${stack.token}` },
      body: '<code><title>After the loss</title><language>Ruby</language><comment>c</comment><code>p 2</code><tag-list>deploy</tag-list></code>',
    });
    assert.equal(write.status, 201, write.text);
  });
});
