// The client's write rules as functions (src/client/writes.ts): the token checked before it is sent and
// kept out of every error and log line, each failure status in words a person can act on with the
// service's own reasons kept, and where a POST's Location may point. The client's tests reach these
// through requests; these hold each rule on its own, so that a rule quietly undone is seen.
import { strict as assert } from 'node:assert';
import { ApiError } from '../../../src/core/errors';
import { formatBytes, formatSeconds } from '../../../src/client/httpErrors';
import { MAX_BODY_BYTES, TOKEN_REFUSED } from '../../../src/core/writeContract';
import { createdPage, explainWriteStatus, tokenMaskingLogger, withoutSecret, withoutToken, writeHeaders } from '../../../src/client/writes';

const TOKEN = 'tok-1234.abcd_EF~+/=';
const URL_ = 'http://127.0.0.1:3000/codes.xml';

function errorsBody(...reasons: Array<string | { text: string; field: string }>): string {
  const items = reasons.map((r) => (typeof r === 'string' ? `<error>${r}</error>` : `<error field="${r.field}">${r.text}</error>`));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<errors>${items.join('')}</errors>`;
}

describe('write rules (src/client/writes.ts)', () => {
  describe('writeHeaders', () => {
    it('refuses a missing or empty token and one with characters no token has, without quoting it', () => {
      for (const token of [undefined, '']) {
        assert.throws(() => writeHeaders(token, URL_), (e: unknown) => e instanceof ApiError && e.kind === 'invalid-input' && /needs a token/.test(e.message));
      }
      const pasted = 'abc def"<x>';
      assert.throws(() => writeHeaders(pasted, URL_), (e: unknown) => e instanceof ApiError && e.kind === 'invalid-input'
        && /characters no token has/.test(e.message) && !e.message.includes(pasted));
    });

    it('sends a good token as a bearer with the body typed as XML', () => {
      assert.deepEqual(writeHeaders(TOKEN, URL_), { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/xml' });
    });
  });

  describe('keeping the token out', () => {
    it('withoutSecret masks every occurrence, and leaves text alone without a secret', () => {
      assert.equal(withoutSecret(`a ${TOKEN} b ${TOKEN}`, TOKEN), 'a *** b ***');
      assert.equal(withoutSecret('a b', undefined), 'a b');
      assert.equal(withoutSecret('a b', ''), 'a b');
    });

    it('withoutToken gives back an error that holds no token as it is, the same object', () => {
      const plain = new ApiError('http-status', URL_, 'HTTP 500 Internal Server Error', { status: 500, cause: new Error('boom') });
      assert.equal(withoutToken(plain, TOKEN), plain);
      const error = new Error('nothing secret');
      assert.equal(withoutToken(error, TOKEN), error);
      assert.equal(withoutToken('a string', TOKEN), 'a string');
      const holding = new Error(`has ${TOKEN}`);
      assert.equal(withoutToken(holding, undefined), holding);
      assert.equal(withoutToken(holding, ''), holding);
    });

    it('makes an error whose message holds the token again without it', () => {
      const made = withoutToken(new Error(`Headers.append: Bearer ${TOKEN} is invalid`), TOKEN);
      assert.ok(made instanceof Error);
      assert.equal(made.message, 'Headers.append: Bearer *** is invalid');
    });

    it('drops a cause whose message or stack holds the token, keeping what the error says', () => {
      const cause = new Error(`fetch failed for ${TOKEN}`);
      const byMessage = withoutToken(new ApiError('connection', URL_, 'connection refused', { cause }), TOKEN);
      assert.ok(byMessage instanceof ApiError);
      assert.equal(byMessage.cause, undefined);
      assert.equal(byMessage.options.cause, undefined);
      assert.deepEqual([byMessage.kind, byMessage.message], ['connection', `${URL_}: connection refused`]);

      const stackOnly = new Error('fetch failed');
      stackOnly.stack = `Error: fetch failed\n    at send (${TOKEN})`;
      const byStack = withoutToken(new Error('request failed', { cause: stackOnly }), TOKEN);
      assert.ok(byStack instanceof Error);
      assert.equal(byStack.cause, undefined);
      assert.equal(byStack.message, 'request failed');
    });

    it('masks the token in an ApiError\'s URL, reason and the service\'s reasons, keeping its kind, status and fields', () => {
      const reasons = [{ text: `token ${TOKEN} is not valid here`, field: 'title' }, { text: 'Code can\'t be blank' }];
      const err = new ApiError('http-status', `${URL_}?t=${TOKEN}`, `refused ${TOKEN}`, { status: 422, reasons });
      const made = withoutToken(err, TOKEN);
      assert.ok(made instanceof ApiError);
      assert.equal(made.kind, 'http-status');
      assert.equal(made.status, 422);
      assert.ok(!made.message.includes(TOKEN), made.message);
      assert.equal(made.reason, 'refused ***');
      assert.deepEqual(made.reasons, ['token *** is not valid here', 'Code can\'t be blank']);
      assert.equal(made.reasonFor('title'), 'token *** is not valid here');
      // A token in a reason alone is enough to make it again.
      const onlyInReasons = new ApiError('http-status', URL_, 'HTTP 422', { status: 422, reasons: [{ text: `bad ${TOKEN}` }] });
      const again = withoutToken(onlyInReasons, TOKEN);
      assert.notEqual(again, onlyInReasons);
      assert.deepEqual((again as ApiError).reasons, ['bad ***']);
    });

    it('tokenMaskingLogger masks the token at every level', () => {
      const lines: string[] = [];
      const logger = tokenMaskingLogger({
        trace: (m) => lines.push(`trace ${m}`), info: (m) => lines.push(`info ${m}`),
        warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`),
      }, TOKEN);
      logger.trace(`t ${TOKEN}`);
      logger.info(`i ${TOKEN}`);
      logger.warn(`w ${TOKEN}`);
      logger.error(`e ${TOKEN}`);
      assert.deepEqual(lines, ['trace t ***', 'info i ***', 'warn w ***', 'error e ***']);
    });
  });

  describe('explainWriteStatus', () => {
    const none = new Headers();
    const explain = (status: number, body = '', headers = none, now = 0) => explainWriteStatus(status, headers, body, now);

    it('puts each refusal into words, ours where the service said nothing', () => {
      assert.deepEqual(explain(401), { reason: TOKEN_REFUSED });
      assert.deepEqual(explain(401, errorsBody('whatever it says')), { reason: TOKEN_REFUSED });
      assert.deepEqual(explain(403), { reason: 'only its author may change it' });
      assert.deepEqual(explain(404), { reason: 'no such code or refactoring' });
      assert.deepEqual(explain(405), { reason: 'this service takes no contributions' });
      assert.deepEqual(explain(405, '', new Headers({ allow: 'GET, HEAD' })), { reason: 'this service takes no contributions (it allows GET, HEAD)' });
      assert.deepEqual(explain(413), { reason: `the contribution is larger than the service takes (${formatBytes(MAX_BODY_BYTES)})` });
      assert.deepEqual(explain(415), { reason: 'the service did not take the body as XML' });
      assert.deepEqual(explain(422), { reason: 'the service refused the contribution without saying why', reasons: [] });
      assert.equal(explain(500), undefined);
      assert.equal(explain(502, 'not XML at all'), undefined);
    });

    it('gives the service\'s own reasons instead of ours, once, with their fields', () => {
      const body = errorsBody({ text: 'Only its author can delete a code', field: 'user' });
      for (const status of [403, 404, 405, 422, 500]) {
        assert.deepEqual(explain(status, body), { reason: 'Only its author can delete a code', reasons: [{ text: 'Only its author can delete a code', field: 'user' }] }, String(status));
      }
    });

    it('says when to try again after 429 and 503, from Retry-After', () => {
      assert.deepEqual(explain(429, '', new Headers({ 'retry-after': '5' })), { reason: `too many requests: try again in ${formatSeconds(5000)}` });
      assert.deepEqual(explain(429), { reason: 'too many requests: try again later' });
      assert.deepEqual(explain(503, '', new Headers({ 'retry-after': '2' })), { reason: `the service is busy: try again in ${formatSeconds(2000)}` });
      assert.deepEqual(explain(503), { reason: 'the service is busy: try again later' });
    });

    it('keeps each reason to one line of at most 300 characters, drops empty ones, shows ten and counts the rest, keeps a hundred', () => {
      const long = 'x'.repeat(400);
      const folded = explain(422, errorsBody('Title\n   can\'t\tbe blank  ', '   ', long));
      assert.deepEqual(folded?.reasons?.map((r) => r.text), ['Title can\'t be blank', `${'x'.repeat(299)}…`]);
      assert.equal(folded?.reason, `Title can't be blank; ${'x'.repeat(299)}…`);
      const exactly = explain(422, errorsBody('y'.repeat(300)));
      assert.equal(exactly?.reason, 'y'.repeat(300));

      const ten = explain(422, errorsBody(...Array.from({ length: 10 }, (_, i) => `reason ${i}`)));
      assert.equal(ten?.reason, Array.from({ length: 10 }, (_, i) => `reason ${i}`).join('; '));
      const many = explain(422, errorsBody(...Array.from({ length: 150 }, (_, i) => `reason ${i}`)));
      assert.equal(many?.reasons?.length, 100);
      assert.equal(many?.reason, `${Array.from({ length: 10 }, (_, i) => `reason ${i}`).join('; ')}; and 90 more`);
    });
  });

  describe('createdPage', () => {
    const fallback = 'http://127.0.0.1:3000/codes/7';
    it('follows an http(s) Location, resolved against the URL that answered', () => {
      assert.equal(createdPage('/codes/7-sum', URL_, fallback), 'http://127.0.0.1:3000/codes/7-sum');
      assert.equal(createdPage('https://pages.example.org/codes/7', URL_, fallback), 'https://pages.example.org/codes/7');
      assert.equal(createdPage('http://pages.example.org/codes/7', URL_, fallback), 'http://pages.example.org/codes/7');
    });

    it('takes the page the API\'s rules give when there is no Location, or one that is no http(s) URL', () => {
      assert.equal(createdPage(undefined, URL_, fallback), fallback);
      assert.equal(createdPage('javascript:alert(1)', URL_, fallback), fallback);
      assert.equal(createdPage('file:///etc/passwd', URL_, fallback), fallback);
      assert.equal(createdPage('http://[', URL_, fallback), fallback);
    });
  });
});
