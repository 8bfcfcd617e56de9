// Hostile network (docs/hostile.md, cases 1, 2, 5, 7, 8): servers that stall, drip, fail, flood, redirect
// badly or hang up. For each case the API client and the built CLI (a real process) must end at
// the configured bounds with one clear message, and leave no socket or timer behind.

import { strict as assert } from 'node:assert';
import { Agent } from 'undici';
import { RefactorClient, type ClientOptions } from '../../../src/client/client';
import { fetchVia } from '../../../src/client/dispatcher';
import { HUGE_BYTES } from '../../hostile/cases';
import { apiError, assertCliFailure } from '../../hostile/expect';
import { runCli } from '../../hostile/runCli';
import { startHostileServer, type HostileServer } from '../../hostile/server';
import { certificateOrSkip } from '../../hostile/tls';
import { lookupNothing, NO_RESOLVER_ENV } from '../../helpers/noResolver';
import { waitFor } from '../../helpers/poll';
import { closedPort } from '../../helpers/testServer';

const MiB = 1024 * 1024;

describe('hostile network', function () {
  this.timeout(20_000);
  let server: HostileServer;
  const clients: RefactorClient[] = [];

  before(async () => {
    server = await startHostileServer();
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server.close();
  });

  function client(caseName: string, options: Partial<ClientOptions> = {}): RefactorClient {
    const c = new RefactorClient({ baseUrl: `${server.url}/${caseName}`, timeoutMs: 1000, retryBaseDelayMs: 20, ...options });
    clients.push(c);
    return c;
  }

  const listUrl = (caseName: string) => `${server.url}/${caseName}/codes/recent.xml`;

  describe('case 1: no answer, headers then nothing, a drip of 1 byte a second', () => {
    for (const name of ['never', 'stall-headers', 'drip']) {
      it(`client: ${name} ends at the 1 s deadline with a timeout, and hangs up`, async () => {
        await new Promise(setImmediate); // mocha arms its own test timer once the test has started
        const timersBefore = activeTimers();
        const c = client(name, { timeoutMs: 1000 });
        const started = Date.now();
        const err = await apiError(c.recentCodes());
        const elapsed = Date.now() - started;
        assert.equal(err.kind, 'timeout');
        assert.equal(err.message, `${listUrl(name)}: timed out after 1 s`);
        // Only a lower bound: the message names the 1 s deadline; a loaded machine may run it late.
        assert.ok(elapsed >= 950, `ended after ${elapsed} ms`);
        const [seen] = server.requests(`/${name}/`).slice(-1);
        // This server never closes these sockets itself (its own timeouts are minutes away), so a close
        // within 5 s is the client's hang-up, with room for a loaded machine.
        await waitFor(() => seen.closedAt !== undefined, 'the server to see the socket close', 5000);
        if (name === 'drip') assert.ok(seen.bytesWritten >= 1, 'the drip had started');
        await c.close();
        assert.ok(activeTimers() <= timersBefore, `timers left: ${process.getActiveResourcesInfo().join(', ')}`);
      });

      it(`CLI: ${name} with --timeout 1 exits 1 after about a second, saying timeout`, async () => {
        const run = await runCli(['recent', '--base-url', `${server.url}/${name}`, '--timeout', '1']);
        assertCliFailure(run, listUrl(name), /: timed out after 1 s$/m);
        // A lower bound only: starting a process on a loaded machine takes what it takes (runCli stops it at 10 s).
        assert.ok(run.ms >= 1000, `exited after ${run.ms} ms`);
      });
    }
  });

  describe('case 2: error statuses, retried within bounds', () => {
    it('client: a 500 with an HTML body and a 404 are not retried and name their status', async () => {
      for (const [name, text] of [['status-500', 'HTTP 500 Internal Server Error'], ['status-404', 'HTTP 404 Not Found']]) {
        const err = await apiError(client(name).recentCodes());
        assert.equal(err.kind, 'http-status');
        assert.equal(err.message, `${listUrl(name)}: ${text}`);
        assert.equal(server.requests(`/${name}/`).length, 1, `${name} asked once`);
      }
    });

    it('client: 502, 503 and 504 are tried 3 times in all, then named', async () => {
      for (const status of [502, 503, 504]) {
        const name = `status-${status}`;
        const err = await apiError(client(name).recentCodes());
        assert.equal(err.status, status);
        assert.match(err.message, new RegExp(`: HTTP ${status} [A-Za-z ]+ \\(after 3 tries\\)$`));
        assert.equal(server.requests(`/${name}/`).length, 3);
      }
    });

    it('client: a 429 waits as long as Retry-After says, in seconds and as an HTTP-date', async () => {
      for (const name of ['status-429-seconds-1', 'status-429-date-2']) {
        const err = await apiError(client(name, { timeoutMs: 5000, maxTries: 2 }).recentCodes());
        assert.match(err.message, /: HTTP 429 Too Many Requests \(after 2 tries\)$/);
        const [first, second] = server.requests(`/${name}/`);
        const gap = second.at - first.at;
        // An HTTP-date has whole seconds: "in 2 s" may mean anything from 1 to 2 s from now. No upper
        // bound on the clock: a wait past the 5 s deadline would have ended as a timeout, not "after 2 tries".
        assert.ok(gap >= 900, `${name}: waited ${gap} ms`);
      }
    });

    it('client: a Retry-After past the deadline fails at once, and one failure then success is a success', async () => {
      // This message is given only before waiting: had it waited, the 1 s deadline would have said "timed out".
      const err = await apiError(client('status-429-seconds-100').recentCodes());
      assert.match(err.message, /HTTP 429 Too Many Requests \(Retry-After 100 s exceeds the deadline\)$/);
      assert.equal(server.requests('/status-429-seconds-100/').length, 1);

      const codes = await client('fail-1-503').recentCodes();
      assert.deepEqual(codes, await client('ok').recentCodes());
      assert.equal(server.requests('/fail-1-503/').length, 2);
    });

    it('CLI: each status exits 1 naming it, after the retries the status allows', async () => {
      const cases: [string, RegExp, number][] = [
        ['status-500', /: HTTP 500 Internal Server Error$/m, 1],
        ['status-404', /: HTTP 404 Not Found$/m, 1],
        ['status-502', /: HTTP 502 Bad Gateway \(after 3 tries\)$/m, 3],
        ['status-503', /: HTTP 503 Service Unavailable \(after 3 tries\)$/m, 3],
        ['status-504', /: HTTP 504 Gateway Timeout \(after 3 tries\)$/m, 3],
        ['status-429-seconds-1', /: HTTP 429 Too Many Requests \(after 3 tries\)$/m, 3],
        ['status-429-date-1', /: HTTP 429 Too Many Requests \(after 3 tries\)$/m, 3],
      ];
      // A server of its own, so the counts are this test's; concurrently, as the waits would add up.
      const own = await startHostileServer();
      try {
        const runs = await Promise.all(cases.map(([name]) => runCli(['recent', '--base-url', `${own.url}/${name}`])));
        cases.forEach(([name, cause, tries], i) => {
          assertCliFailure(runs[i], `${own.url}/${name}/codes/recent.xml`, cause);
          assert.equal(own.requests(`/${name}/`).length, tries, name);
        });
        const s429 = own.requests('/status-429-seconds-1/');
        assert.ok(s429[2].at - s429[0].at >= 1900, 'two waits of Retry-After: 1');
      } finally {
        await own.close();
      }

      const recovered = await runCli(['recent', '--json', '--base-url', `${server.url}/fail-1-502`]);
      assert.equal(recovered.code, 0, recovered.stderr);
      assert.deepEqual(JSON.parse(recovered.stdout), JSON.parse(JSON.stringify(await client('ok').recentCodes())));
    });
  });

  describe('case 5: a 500 MiB body, generated lazily', () => {
    for (const name of ['huge-length', 'huge-chunked']) {
      it(`client: ${name} is stopped at the 10 MiB cap and the server stops sending`, async () => {
        // No clock: what the server wrote (below) shows the body was not read to its end.
        const err = await apiError(client(name, { timeoutMs: 10_000 }).recentCodes());
        assert.equal(err.kind, 'too-large');
        assert.equal(err.message, `${listUrl(name)}: response larger than 10 MiB`);
        const [seen] = server.requests(`/${name}/`).slice(-1);
        await waitFor(() => seen.closedAt !== undefined, 'the socket to close', 5000);
        // What sits in socket buffers is a few MiB; anything near 500 MiB would mean it was read.
        assert.ok(seen.bytesWritten < 10 * MiB + 32 * MiB, `server wrote ${seen.bytesWritten} bytes`);
      });

      it(`CLI: ${name} exits 1 at the cap quickly, its peak memory far under 300 MB`, async () => {
        const run = await runCli(['recent', '--base-url', `${server.url}/${name}`], { measureMemory: true });
        assertCliFailure(run, listUrl(name), /: response larger than 10 MiB$/m);
        assert.ok(run.ms < 5000, `exited after ${run.ms} ms`);
        assert.ok(run.peakRssMiB !== undefined && run.peakRssMiB < 300, `peak RSS ${run.peakRssMiB} MiB`);
        const [seen] = server.requests(`/${name}/`).slice(-1);
        assert.ok(seen.bytesWritten < HUGE_BYTES / 10, `server wrote ${seen.bytesWritten} bytes`);
        console.log(`      ${name}: CLI exited in ${run.ms} ms, peak RSS ${run.peakRssMiB} MiB, server wrote ${(seen.bytesWritten / MiB).toFixed(1)} MiB`);
      });
    }
  });

  describe('case 7: redirects', () => {
    it('client: follows 3 redirects to the list, refuses the 6th, ends a loop and a file: redirect', async () => {
      assert.deepEqual(await client('redirect-3').recentCodes(), await client('ok').recentCodes());
      for (const n of [3, 2, 1, 0]) assert.equal(server.requests(`/redirect-${n}/`).length, 1, `hop ${n}`);

      const tooMany = await apiError(client('redirect-6').recentCodes());
      assert.equal(tooMany.kind, 'too-many-redirects');
      assert.match(tooMany.message, /too many redirects \(more than 5\)$/);
      assert.equal(server.requests('/redirect-0/').length, 1, 'the 6th redirect was not followed');

      const loop = await apiError(client('loop-a').recentCodes());
      assert.equal(loop.kind, 'too-many-redirects');
      assert.match(loop.message, /redirect loop back to http:\/\/127\.0\.0\.1:\d+\/loop-a\/codes\/recent\.xml$/);

      const file = await apiError(client('to-file').recentCodes());
      assert.equal(file.kind, 'insecure-redirect');
      assert.match(file.message, /redirect to file: refused$/);
    });

    it('CLI: a redirect chain is followed; too many, a loop and a file: redirect exit 1 with a message', async () => {
      const ok = await runCli(['recent', '--json', '--base-url', `${server.url}/redirect-4`]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.deepEqual(JSON.parse(ok.stdout), JSON.parse(JSON.stringify(await client('ok').recentCodes())));
      const [tooMany, loop, file] = await Promise.all(['redirect-7', 'loop-a', 'to-file'].map((n) => runCli(['recent', '--base-url', `${server.url}/${n}`])));
      assertCliFailure(tooMany, `${server.url}/redirect-2/codes/recent.xml`, /: too many redirects \(more than 5\)$/m);
      assertCliFailure(loop, `${server.url}/loop-b/codes/recent.xml`, /: redirect loop back to /);
      assertCliFailure(file, listUrl('to-file'), /: redirect to file: refused$/m);
    });

    it('CLI: an https service redirecting to http is refused, while the same https service works', async function () {
      const cert = certificateOrSkip(this);
      const tlsServer = await startHostileServer({ tls: cert });
      const plain = await startHostileServer();
      try {
        const env = { NODE_EXTRA_CA_CERTS: cert.certFile };
        const fine = await runCli(['recent', '--json', '--base-url', `${tlsServer.url}/ok`], { env });
        assert.equal(fine.code, 0, `the certificate is trusted: ${fine.stderr}`);
        const run = await runCli(['recent', '--base-url', `${tlsServer.url}/to-http-${plain.port}`], { env });
        assertCliFailure(run, `${tlsServer.url}/to-http-${plain.port}/codes/recent.xml`, /: redirect from https to http refused$/m);
        assert.equal(plain.requests('/').length, 0, 'nothing was sent over http');
      } finally {
        await tlsServer.close();
        await plain.close();
        cert.dispose();
      }
    });
  });

  describe('case 8: refused, reset, unknown host, not http', () => {
    it('client: a refused connection fails at once; a reset is retried 3 times, then named', async () => {
      const port = await closedPort();
      // Exactly this message, without "(after 3 tries)": refused at once, not retried.
      const refused = await apiError(new RefactorClient({ baseUrl: `http://127.0.0.1:${port}` }).recentCodes());
      assert.equal(refused.message, `http://127.0.0.1:${port}/codes/recent.xml: connection refused`);

      for (const name of ['reset', 'reset-mid-body']) {
        const err = await apiError(client(name, { timeoutMs: 5000 }).recentCodes());
        assert.equal(err.kind, 'connection');
        assert.equal(err.message, `${listUrl(name)}: connection reset (after 3 tries)`);
        assert.equal(server.requests(`/${name}/`).length, 3);
      }
    });

    it('client: an unknown host is named; a base URL that is not http(s) is refused before any request', async () => {
      // A resolver that knows no names answers for the machine's (which tests must not ask).
      const noNames = new Agent({ connect: { lookup: lookupNothing } });
      const unknown = await apiError(client('', { baseUrl: 'http://refactor-browser-hostile.invalid/', fetch: fetchVia(noNames) }).recentCodes());
      await noNames.close();
      assert.equal(unknown.kind, 'connection');
      assert.equal(unknown.message, 'http://refactor-browser-hostile.invalid/codes/recent.xml: unknown host refactor-browser-hostile.invalid');
      for (const base of ['ftp://example.org/', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
        assert.throws(() => new RefactorClient({ baseUrl: base }), (e: unknown) => e instanceof Error && (e as { kind?: string }).kind === 'invalid-url', base);
      }
    });

    it('CLI: refused, reset and unknown host exit 1 naming the cause; a base URL that is not http(s) exits 2', async () => {
      const port = await closedPort();
      const [refused, reset, unknown] = await Promise.all([
        runCli(['recent', '--base-url', `http://127.0.0.1:${port}`]),
        runCli(['recent', '--base-url', `${server.url}/reset`]),
        runCli(['recent', '--base-url', 'http://refactor-browser-hostile.invalid', '--timeout', '3'], { env: NO_RESOLVER_ENV }),
      ]);
      assertCliFailure(refused, `http://127.0.0.1:${port}/codes/recent.xml`, /: connection refused$/m);
      assertCliFailure(reset, listUrl('reset'), /: connection reset \(after 3 tries\)$/m);
      assertCliFailure(unknown, 'http://refactor-browser-hostile.invalid/codes/recent.xml', /: unknown host refactor-browser-hostile\.invalid$/m);
      for (const base of ['file:///etc/passwd', 'gopher://example.org/', 'javascript:alert(1)']) {
        const run = await runCli(['recent', '--base-url', base]);
        assert.equal(run.code, 2, base);
        assert.equal(run.stdout, '');
        assert.match(run.stderr, /^refactor-browser: --base-url must be an http or https URL/);
      }
    });
  });
});

/** Timers that keep the event loop alive (unref'd ones are not listed). */
function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}
