// A user name and password in a URL never reach a message or a log line, in any form the URL parser
// reads as credentials: without slashes, with backslashes, with one slash in capitals, and with an
// `@` in the password (the last `@` ends them). credentialsCli.test.ts holds the CLI's stderr to it.
import * as assert from 'node:assert/strict';
import { fetch as undiciFetch } from 'undici';
import { RefactorClient } from '../../../src/client/client';
import { ApiError, withoutCredentials } from '../../../src/core/errors';
import type { Logger } from '../../../src/client/logger';
import { FORMS, LEAKS, REDIRECTS, startRedirectingServer } from '../../helpers/credentialForms';
import type { TestServer } from '../../helpers/testServer';

describe('credentials in URLs', function () {
  this.timeout(20_000);

  it('masks them in a text wherever the URL parser finds them, and only there', () => {
    for (const url of FORMS('svc.test')) {
      const parsed = new URL(url);
      assert.ok(parsed.username !== '' && parsed.password !== '', `the parser reads credentials in ${url}`);
      const shown = withoutCredentials(`GET ${url}: HTTP 404 Not Found`);
      assert.doesNotMatch(shown, LEAKS, shown);
      assert.match(shown, /^GET [A-Za-z]+:[/\\]*\*\*\*@svc\.test\/codes\/1\.xml: HTTP 404 Not Found$/, shown);
      assert.equal(new URL(shown.split(' ')[1].slice(0, -1)).host, 'svc.test', 'the host is as it was');
    }
    for (const text of ['mail ana@svc.test', 'mailto:ana:s3cret@svc.test', 'see http://svc.test/a@b?c=d@e#f@g', 'http://:@svc.test/', 'user:s3cret@host']) {
      assert.equal(withoutCredentials(text), text);
    }
    // Read once per character: a long run of scheme-like words and `@` is still quick to mask.
    const long = `${'http:a'.repeat(20_000)}@h ${'x'.repeat(100_000)}`;
    assert.equal(withoutCredentials(long), 'http:***@h ' + 'x'.repeat(100_000));
  });

  describe('in what the client says', () => {
    let server: TestServer;
    before(async () => {
      server = await startRedirectingServer();
    });
    after(() => server.close());

    it('the error and the log name the URL without them', async () => {
      for (const [form, url] of REDIRECTS(`127.0.0.1:${server.port}`).entries()) {
        assert.notEqual(new URL(url, server.origin).password, '', `the parser reads credentials in ${url}`);
        const lines: string[] = [];
        const log = (l: string) => lines.push(l);
        const logger: Logger = { trace: log, info: log, warn: log, error: log };
        const client = new RefactorClient({ baseUrl: server.origin, fetch: undiciFetch as never, logger, maxTries: 1 });
        const err = await client.taggedCodes('x', { page: form + 2 }).then(() => undefined, (e: unknown) => e);
        assert.ok(err instanceof ApiError, String(err));
        assert.ok(lines.length > 0, 'something logged');
        for (const said of [err.message, err.url, err.reason, ...lines]) assert.doesNotMatch(said, LEAKS, `${url}: ${said}`);
        assert.match(err.message, /\*\*\*@127\.0\.0\.1/, err.message);
      }
    });
  });
});
