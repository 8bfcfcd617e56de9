// The command line's stderr never shows a URL's user name and password, in any form the URL parser
// reads as credentials: a redirect to one, and one given as --base-url (helpers/credentialForms.ts).
import * as assert from 'node:assert/strict';
import { run } from '../../helpers/cliProcess';
import { FORMS, LEAKS, startRedirectingServer } from '../../helpers/credentialForms';
import type { TestServer } from '../../helpers/testServer';

describe('credentials in URLs, on the command line', function () {
  this.timeout(20_000);
  let server: TestServer;
  before(async () => {
    server = await startRedirectingServer();
  });
  after(() => server.close());

  it("the CLI's stderr names the URL without them, for a redirect and for --base-url", async () => {
    const redirected = await run(['tag', 'x', '--page', '3', '--base-url', server.origin]);
    assert.equal(redirected.code, 1, redirected.stderr);
    assert.match(redirected.stderr, /\*\*\*@127\.0\.0\.1/);
    assert.doesNotMatch(redirected.stderr, LEAKS, redirected.stderr);
    for (const url of FORMS('svc.test')) {
      const given = await run(['recent', '--base-url', url]);
      assert.equal(given.code, 2, given.stderr);
      assert.doesNotMatch(given.stderr, LEAKS, given.stderr);
      assert.match(given.stderr, /\*\*\*@svc\.test/, given.stderr);
    }
  });
});
