// `serve` stopped by SIGTERM, as a service manager or an orchestrator stops it while a write is under
// way: it says so, stops accepting connections, finishes that write (which reaches the storage), then
// closes the storage (its folder's lock released) and exits 0. The process is stopped by its pid, the
// folder removed.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseDataset } from '../../../src/server/catalog/dataset';
import { request } from '../../helpers/referenceService';
import { run, startServe, type ServeProcess } from '../../helpers/cliProcess';
import { waitFor } from '../../helpers/poll';

/** Opening the embedded PostgreSQL takes seconds, more on a loaded machine. */
const STORAGE_MS = 60_000;

describe('refactor-browser serve stopped by SIGTERM (process)', function () {
  this.timeout(240_000);
  let work: string;
  let serve: ServeProcess | undefined;

  beforeEach(() => {
    work = mkdtempSync(path.join(tmpdir(), 'rb-stop-'));
  });
  afterEach(async () => {
    serve?.kill();
    await serve?.exit.catch(() => undefined);
    serve = undefined;
    rmSync(work, { recursive: true, force: true });
  });

  it('finishes the write it is reading, refuses new connections meanwhile, then closes its storage and exits 0', async () => {
    const dir = path.join(work, 'data');
    const added = await run(['users', 'add', 'Ana', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(added.code, 0, added.stderr);
    const token = added.stdout.trim();
    serve = startServe(['serve', '--data-dir', dir, '--port', '0'], STORAGE_MS);
    const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(await serve.firstLine)?.[1];
    assert.ok(url);
    const port = Number(new URL(url).port);
    const health = await request(url, '/healthz');
    assert.equal(health.status, 200, 'its storage answers');

    // A write whose body is still coming when the signal does.
    const body = Buffer.from('<code><title>Sent across a stop</title><language>Ruby</language><comment>c</comment><code>p 1</code><tag-list>x</tag-list></code>');
    const answer = new Promise<{ status: number; connection?: string }>((resolve, reject) => {
      const req = http.request(`${url}/codes.xml`, {
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': 'application/xml', 'Content-Length': body.length, Authorization: `Bearer ${token}` },
      }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      });
      req.on('error', reject);
      req.write(body.subarray(0, 20));
      // The rest after the signal, once the server has stopped listening.
      setTimeout(() => {
        process.kill(serve!.child.pid!, 'SIGTERM');
        void refusedSoon(port).then(() => req.end(body.subarray(20)), reject);
      }, 300);
    });
    const written = await answer;
    assert.equal(written.status, 201, 'the write under way is answered');
    assert.equal(written.connection, 'close');
    assert.equal(await serve.exit, 0, serve.stderr());
    assert.match(serve.stderr(), /\nstopping: finishing 1 request…\n$/, 'it says it stops, and what it is finishing');
    assert.equal(existsSync(path.join(dir, 'lock')), false, 'the storage is closed, its folder free');

    const exported = await run(['export', '--data-dir', dir], {}, STORAGE_MS);
    assert.equal(exported.code, 0, exported.stderr);
    const titles = [...parseDataset(JSON.parse(exported.stdout), 'export').codes.values()].map((c) => c.title);
    assert.deepEqual(titles, ['Sent across a stop'], 'the write reached the storage before it closed');
  });
});

/** Resolves once a new connection to `port` is refused (within 10 s): the server has stopped accepting. */
async function refusedSoon(port: number): Promise<void> {
  await waitFor(() => new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  }), `port ${port} to refuse connections after SIGTERM`, 10_000, 50);
}
