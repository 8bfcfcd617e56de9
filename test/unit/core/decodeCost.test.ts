// What decoding a hostile body costs, counted rather than timed: the scan before parsing looks at each
// character once, whatever the body opens and never closes; and a request's deadline ends a decoding
// that outlives it, between stages.
import * as assert from 'node:assert/strict';
import { fetch as undiciFetch } from 'undici';
import { RefactorClient } from '../../../src/client/client';
import { ApiError } from '../../../src/core/errors';
import { decodeCodes, scanMarkup, type MarkupScan } from '../../../src/core/xmlDecode';
import { throwsDecode } from '../../helpers/apiAssert';
import { startServer, type TestServer } from '../../helpers/testServer';

const DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';
const DOCTYPE_REFUSED = /^a <!DOCTYPE> is not accepted/;

/** Characters the scan looked at for `body`, also when it refused the body. */
function stepsFor(body: string): number {
  const scan: MarkupScan = { elements: 0, attributes: 0, steps: 0 };
  try {
    scanMarkup(body, scan);
  } catch {
    // refused: the steps up to the refusal are what it cost
  }
  return scan.steps;
}

function codeItem(id: number): string {
  return `<code><id type="integer">${id}</id><title>t${id}</title><code>x &lt; ${id}</code></code>`;
}

const codesOf = (n: number): string => `${DECL}<codes type="array">${Array.from({ length: n }, (_, i) => codeItem(i + 1)).join('')}</codes>`;

/** Bodies that open `n` of something and close none of it (or close each), then declare a DOCTYPE. */
const HOSTILE: Record<string, (n: number) => string> = {
  'unclosed comments': (n) => `${DECL}<codes type="array">${'<!--'.repeat(n)}<!DOCTYPE codes [<!ENTITY a "b">]><codes/>`,
  'unclosed CDATA sections': (n) => `${DECL}<codes type="array"><code>${'<![CDATA['.repeat(n)}<!DOCTYPE codes [<!ENTITY a "b">]>`,
  'closed comments': (n) => `${DECL}${'<!-- <!DOCTYPE in a comment> -->'.repeat(n)}<!DOCTYPE codes><codes/>`,
  'unclosed quotes': (n) => `${DECL}<codes type="array"><code title="${'<!--'.repeat(n)}<!DOCTYPE x>`,
};

describe('decoding cost', function () {
  this.timeout(20_000);

  for (const [name, bodyOf] of Object.entries(HOSTILE)) {
    it(`${name} before a DOCTYPE: refused, after a scan that grows linearly with the body`, () => {
      const sizes = [16_000, 32_000, 64_000];
      const steps = sizes.map((n) => {
        const body = bodyOf(n);
        throwsDecode(() => decodeCodes(body), 'invalid-xml', DOCTYPE_REFUSED);
        const s = stepsFor(body);
        assert.ok(s <= 2 * body.length, `${s} steps for ${body.length} characters`);
        return s;
      });
      // Doubling the body at most doubles the steps (a little slack for the fixed prefix).
      for (let i = 1; i < steps.length; i++) assert.ok(steps[i] <= 2.05 * steps[i - 1], `steps ${steps.join(', ')}`);
    });
  }

  it('a DOCTYPE in CDATA or a comment is text; one after them is refused', () => {
    const list = `${DECL}<codes type="array"><code><id type="integer">1</id><code><![CDATA[<!DOCTYPE x>]]></code><!-- <!DOCTYPE y> --></code></codes>`;
    assert.equal(decodeCodes(list)[0].code, '<!DOCTYPE x>');
    throwsDecode(() => decodeCodes(list.replace('</codes>', '<!doctype z></codes>')), 'invalid-xml', DOCTYPE_REFUSED);
    throwsDecode(() => decodeCodes(`${DECL}<!DOCTYPE html><html></html>`), 'not-xml', 'expected XML, got an HTML page');
  });

  it('a list is scanned in one step a character and checked against the deadline every 100 items', () => {
    for (const n of [100, 1000, 2000]) {
      const body = codesOf(n);
      assert.ok(stepsFor(body) <= body.length, 'each character once');
      let checks = 0;
      assert.equal(decodeCodes(body, () => void checks++).length, n);
      // Three stages (scan, validation, parse), then the walk's.
      assert.equal(checks, 3 + Math.floor(n / 100));
      // A checkpoint that throws stops the decoding there, with its error.
      const stop = new Error('deadline');
      let allowed = 3;
      assert.throws(() => decodeCodes(body, () => {
        if (allowed-- === 0) throw stop;
      }), (e: unknown) => e === stop);
    }
  });

  describe('the deadline', () => {
    let server: TestServer;
    /** Whether the client's clock jumps past the deadline once the body is sent. */
    let jump = true;
    let sent = false;
    before(async () => {
      server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(codesOf(2000), () => (sent = jump));
      });
    });
    after(() => server.close());

    it('ends a request whose decoding outlives it, with a one-line timeout naming the URL', async () => {
      // The client's clock passes the deadline once the body is sent, as a slow decoding on a busy
      // machine would: decoding stops at its next checkpoint.
      const now = () => Date.now() + (sent ? 2000 : 0);
      const client = new RefactorClient({ baseUrl: server.origin, fetch: undiciFetch as never, timeoutMs: 1000, now });
      const err = await client.recentCodes().then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof ApiError, String(err));
      assert.equal(err.kind, 'timeout');
      assert.equal(err.message, `${server.origin}/codes/recent.xml: timed out after 1 s (decoding the response)`);
      jump = false;
      sent = false;
      assert.equal((await client.recentCodes()).length, 2000, 'within the deadline the same body decodes');
    });
  });
});
