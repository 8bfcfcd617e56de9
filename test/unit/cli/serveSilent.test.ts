// `serve` with its default limits, as a process, against clients that connect and never send a
// byte: each connection is closed by the server within the headers timeout, so a crowd of them
// cannot hold its connections. The clients read their sockets, or a closed connection would go
// unseen: a socket nobody reads never learns of the server's FIN. Stopped by its pid.
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { DEFAULT_SERVER_LIMITS } from '../../../src/server/http/server';
import { request } from '../../helpers/referenceService';
import { startServe, type ServeProcess } from '../../helpers/cliProcess';

/** The check runs about every second; the rest is a loaded machine's slack. */
const SLACK_MS = 4000;

describe('refactor-browser serve closes connections that send nothing (process)', function () {
  this.timeout(DEFAULT_SERVER_LIMITS.headersTimeoutMs + 30_000);
  let serve: ServeProcess | undefined;
  const sockets: net.Socket[] = [];

  after(async () => {
    for (const s of sockets) s.destroy();
    serve?.kill();
    await serve?.exit.catch(() => undefined);
  });

  it('closes each silent connection within the headers timeout and keeps answering', async () => {
    serve = startServe(['serve', '--port', '0']);
    const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(await serve.firstLine)?.[1];
    assert.ok(url);
    const port = Number(new URL(url).port);
    const start = Date.now();
    const closedAfter = await Promise.all(Array.from({ length: 5 }, () => new Promise<number>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      sockets.push(socket);
      socket.on('error', reject);
      socket.resume();
      socket.once('close', () => resolve(Date.now() - start));
      setTimeout(() => reject(new Error('a silent connection was still open')), DEFAULT_SERVER_LIMITS.headersTimeoutMs + SLACK_MS).unref();
    })));
    for (const ms of closedAfter) assert.ok(ms >= DEFAULT_SERVER_LIMITS.headersTimeoutMs - 1000, `closed after ${ms} ms, before its time`);
    assert.equal((await request(url, '/healthz')).status, 200);
  });
});
