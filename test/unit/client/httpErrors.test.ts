// How network failures read: the one-line reason a user sees after the URL, whether the client tries
// again, and which failures say nothing at all. Failures that loopback can produce are produced for
// real (a reset, a short body, a self-signed certificate, a response that is not HTTP); the others
// (unknown hosts, unreachable networks, broken pipes) are given to the mapping as undici and Node
// shape them: undici's fetch throws `TypeError('fetch failed')` whose `cause` is Node's socket error
// (`code`, `errno`, `syscall`), and a browser's fetch throws a bare `TypeError('Failed to fetch')`.

import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import { createDispatcher, fetchVia } from '../../../src/client/dispatcher';
import { fetchXml } from '../../../src/client/http';
import { describeNetworkError, formatBytes } from '../../../src/client/httpErrors';
import { certificateOrSkip } from '../../hostile/tls';
import { rejectsWith } from '../../helpers/apiAssert';
import { startServer, type TestServer } from '../../helpers/testServer';

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n<codes type="array"></codes>\n';
const URL_ = 'https://catalog.example/codes/recent.xml';

/** A Node socket error as `net`/`dns` make it, wrapped as undici's fetch throws it. */
function undiciFailure(message: string, code: string, syscall: string): TypeError {
  const cause = Object.assign(new Error(message), { code, syscall, errno: -1 });
  return new TypeError('fetch failed', { cause });
}

/** A raw TCP server that answers each connection with `answer` (anything, HTTP or not). */
async function rawServer(answer: (socket: Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => answer(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}

describe('network failures in words', function () {
  this.timeout(8000);
  let dispatcher: Dispatcher;
  const closers: (() => Promise<void>)[] = [];
  beforeEach(() => { dispatcher = createDispatcher({ env: {} }); });
  afterEach(async () => {
    while (closers.length) await closers.pop()!();
    await dispatcher.destroy();
  });
  const get = (url: string, maxTries = 1) => fetchXml(url, { fetch: fetchVia(dispatcher), maxTries, retryBaseDelayMs: 5 });

  describe('produced on loopback', () => {
    it('a connection the server resets (TCP RST) is "connection reset", and retried', async () => {
      let connections = 0;
      const raw = await rawServer((socket) => { connections++; socket.resetAndDestroy(); });
      closers.push(() => raw.close());
      const url = `http://127.0.0.1:${raw.port}/codes/recent.xml`;
      await rejectsWith(get(url, 2), 'connection', `${url}: connection reset (after 2 tries)`);
      assert.equal(connections, 2, 'a reset is worth a second try');
    });

    it('a body cut short of its Content-Length says so, and is retried', async () => {
      let answered = 0;
      const raw = await rawServer((socket) => {
        answered++;
        socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: 100\r\nConnection: close\r\n\r\n<codes');
      });
      closers.push(() => raw.close());
      const url = `http://127.0.0.1:${raw.port}/codes/recent.xml`;
      await rejectsWith(get(url, 2), 'connection', `${url}: response shorter than its Content-Length (after 2 tries)`);
      assert.equal(answered, 2);
    });

    it('an answer that is not HTTP gives undici\'s own innermost words, and is not retried', async () => {
      let answered = 0;
      const raw = await rawServer((socket) => { answered++; socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'); });
      closers.push(() => raw.close());
      const url = `http://127.0.0.1:${raw.port}/codes/recent.xml`;
      // undici 7 gives its parser errors no code (it looks the name up in a map the wrong way round),
      // so the reason is the message of the innermost cause, not the outer "fetch failed".
      await rejectsWith(get(url, 3), 'connection', `${url}: Response does not match the HTTP/1.1 protocol (Expected HTTP/, RTSP/ or ICE/)`);
      assert.equal(answered, 1);
    });

    it('an error with a code of no known kind (headers too large for undici) is given in undici\'s words', async () => {
      let answered = 0;
      const raw = await rawServer((socket) => {
        answered++;
        socket.end(`HTTP/1.1 200 OK\r\nX-Padding: ${'a'.repeat(70_000)}\r\nContent-Length: 0\r\n\r\n`);
      });
      closers.push(() => raw.close());
      const url = `http://127.0.0.1:${raw.port}/codes/recent.xml`;
      await rejectsWith(get(url, 3), 'connection', `${url}: Headers Overflow Error`);
      assert.equal(answered, 1, 'not retried');
    });

    it('Node\'s own HTTP parser error (code HPE_*) is "malformed HTTP response"', async () => {
      const raw = await rawServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
      closers.push(() => raw.close());
      const err = await new Promise<Error>((resolve) => {
        http.get(`http://127.0.0.1:${raw.port}/`, (res) => { res.resume(); resolve(new Error('answered')); }).on('error', resolve);
      });
      assert.match((err as { code?: string }).code ?? '', /^HPE_/, 'Node names parser errors HPE_*');
      assert.deepEqual(describeNetworkError(new TypeError('fetch failed', { cause: err }), URL_),
        { kind: 'connection', reason: 'malformed HTTP response', retry: false, unexplained: false });
    });

    it('a self-signed certificate is a TLS error naming the certificate\'s problem', async function () {
      this.timeout(20_000);
      const cert = certificateOrSkip(this);
      let secure: TestServer | undefined;
      try {
        secure = await startServer((_req, res) => res.end(XML), { tls: cert });
        const url = `${secure.origin}/codes/recent.xml`;
        await rejectsWith(get(url, 3), 'connection', `${url}: TLS error: self-signed certificate`);
        assert.equal(secure.requests.length, 0, 'nothing was asked over a connection that is not trusted');
      } finally {
        await secure?.close();
        cert.dispose();
      }
    });
  });

  describe('as undici and Node shape the rest', () => {
    const cases: [string, Error, { kind: string; reason: string; retry: boolean }][] = [
      ['a refused connection', undiciFailure('connect ECONNREFUSED 10.0.0.1:443', 'ECONNREFUSED', 'connect'), { kind: 'connection', reason: 'connection refused', retry: false }],
      ['a reset', undiciFailure('read ECONNRESET', 'ECONNRESET', 'read'), { kind: 'connection', reason: 'connection reset', retry: true }],
      ['a broken pipe (the server closed while we wrote)', undiciFailure('write EPIPE', 'EPIPE', 'write'), { kind: 'connection', reason: 'connection reset', retry: true }],
      ['undici\'s "other side closed"', new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) }), { kind: 'connection', reason: 'connection reset', retry: true }],
      ['a name that does not exist', undiciFailure('getaddrinfo ENOTFOUND catalog.example', 'ENOTFOUND', 'getaddrinfo'), { kind: 'connection', reason: 'unknown host catalog.example', retry: false }],
      ['a resolver that did not answer', undiciFailure('getaddrinfo EAI_AGAIN catalog.example', 'EAI_AGAIN', 'getaddrinfo'), { kind: 'connection', reason: 'unknown host catalog.example', retry: false }],
      ['a name with no address', undiciFailure('getaddrinfo EAI_NONAME catalog.example', 'EAI_NONAME', 'getaddrinfo'), { kind: 'connection', reason: 'unknown host catalog.example', retry: false }],
      ['a host with no route', undiciFailure('connect EHOSTUNREACH 10.0.0.1:443', 'EHOSTUNREACH', 'connect'), { kind: 'connection', reason: 'host catalog.example unreachable', retry: false }],
      ['a network with no route', undiciFailure('connect ENETUNREACH 10.0.0.1:443', 'ENETUNREACH', 'connect'), { kind: 'connection', reason: 'host catalog.example unreachable', retry: false }],
      ['the kernel\'s connect timeout', undiciFailure('connect ETIMEDOUT 10.0.0.1:443', 'ETIMEDOUT', 'connect'), { kind: 'timeout', reason: 'could not connect to catalog.example in time', retry: false }],
      ['undici\'s connect timeout', new TypeError('fetch failed', { cause: Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }) }), { kind: 'timeout', reason: 'could not connect to catalog.example in time', retry: false }],
      // Node tries every address of a name (autoSelectFamily) and reports them all in an AggregateError.
      ['all addresses refused (AggregateError)', new TypeError('fetch failed', { cause: new AggregateError([undiciFailure('connect ECONNREFUSED ::1:443', 'ECONNREFUSED', 'connect').cause, new Error('connect ECONNREFUSED 127.0.0.1:443')], '') }), { kind: 'connection', reason: 'connection refused', retry: false }],
      ['an expired certificate', undiciFailure('certificate has expired', 'CERT_HAS_EXPIRED', 'connect'), { kind: 'connection', reason: 'TLS error: certificate has expired', retry: false }],
    ];
    for (const [what, err, expected] of cases) {
      it(`${what}: "${expected.reason}"${expected.retry ? ', retried' : ''}`, () => {
        assert.deepEqual(describeNetworkError(err, URL_), { ...expected, unexplained: false });
      });
    }

    it('an unknown host is named even when the URL does not parse', () => {
      assert.equal(describeNetworkError(undiciFailure('getaddrinfo ENOTFOUND x', 'ENOTFOUND', 'getaddrinfo'), 'catalog without scheme').reason,
        'unknown host catalog without scheme');
    });
  });

  describe('failures without a code', () => {
    it('a browser\'s bare TypeError is unexplained: the caller may say why (CORS, offline, DNS)', () => {
      assert.deepEqual(describeNetworkError(new TypeError('Failed to fetch'), URL_),
        { kind: 'connection', reason: 'request failed (Failed to fetch)', retry: false, unexplained: true });
      assert.deepEqual(describeNetworkError(new TypeError(''), URL_),
        { kind: 'connection', reason: 'request failed (no reason given)', retry: false, unexplained: true });
    });

    it('an error with a cause, or one that is not a TypeError, is explained by its innermost message', () => {
      const wrapped = new TypeError('fetch failed', { cause: new Error('outer', { cause: new Error('the real reason') }) });
      assert.deepEqual(describeNetworkError(wrapped, URL_), { kind: 'connection', reason: 'the real reason', retry: false, unexplained: false });
      assert.deepEqual(describeNetworkError(new Error('proxy said no'), URL_), { kind: 'connection', reason: 'proxy said no', retry: false, unexplained: false });
      assert.deepEqual(describeNetworkError(Object.assign(new Error('a null cause is no cause'), { cause: null }), URL_),
        { kind: 'connection', reason: 'a null cause is no cause', retry: false, unexplained: false });
    });

    it('a TypeError that carries a code (Node\'s ERR_INVALID_URL) is explained by its own message', () => {
      const err = (() => { try { new URL('http://['); } catch (e) { return e; } return assert.fail('parsed'); })();
      assert.equal((err as { code?: string }).code, 'ERR_INVALID_URL');
      assert.deepEqual(describeNetworkError(err, URL_), { kind: 'connection', reason: 'Invalid URL', retry: false, unexplained: false });
    });

    it('says "request failed" when nothing at all was said, and a thrown non-error by its text', () => {
      assert.equal(describeNetworkError(new Error(''), URL_).reason, 'request failed');
      assert.equal(describeNetworkError('socket hang up', URL_).reason, 'socket hang up');
    });

    it('keeps a message to its first line, trimmed', () => {
      assert.equal(describeNetworkError(new Error('  first line  \nsecond line'), URL_).reason, 'first line');
      assert.equal(describeNetworkError(new Error('first line\r\nsecond line'), URL_).reason, 'first line');
    });

    it('does not loop on an error that is its own cause', () => {
      const cyclic = new Error('cyclic');
      (cyclic as { cause?: unknown }).cause = cyclic;
      assert.deepEqual(describeNetworkError(cyclic, URL_), { kind: 'connection', reason: 'cyclic', retry: false, unexplained: false });
    });
  });
});

describe('sizes in messages (formatBytes)', () => {
  it('says MiB or KiB for whole multiples, bytes below a MiB otherwise, two decimals above', () => {
    const cases: [number, string][] = [
      [0, '0 bytes'], [1000, '1000 bytes'], [1024, '1 KiB'], [1025, '1025 bytes'], [65_536, '64 KiB'],
      [1_000_000, '1000000 bytes'], [1_048_576, '1 MiB'], [1_572_864, '1536 KiB'], [10_485_760, '10 MiB'],
      [1_048_577, '1 MiB'], [1_310_721, '1.25 MiB'],
    ];
    assert.deepEqual(cases.map(([bytes]) => [bytes, formatBytes(bytes)]), cases);
  });

  it('names the cap in the message of a response that passes it', async () => {
    const server = await startServer((_req, res) => res.end('x'.repeat(2000)));
    const dispatcher = createDispatcher({ env: {} });
    try {
      const url = `${server.origin}/codes/recent.xml`;
      await rejectsWith(fetchXml(url, { fetch: fetchVia(dispatcher), maxResponseBytes: 1500 }), 'too-large', `${url}: response larger than 1500 bytes`);
    } finally {
      await dispatcher.destroy();
      await server.close();
    }
  });
});
