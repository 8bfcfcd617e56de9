// Signing in to a writable service, in both extension hosts: Sign In… asks for the token the
// service's owner gave, checks it with the service and keeps it for that service only; a refused
// token or an unreachable service keeps nothing; Sign Out and VS Code's Accounts menu remove it; a
// token never goes to another service, not even by a redirect; the built-in sample catalog takes no
// contributions. No log line ever holds a token.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { Commands } from '../../../src/extension/common/commandIds';
import { expectedHost } from '../bridgeClient';
import { api, assertNoLogHolds, resetState, signIn, signOut, useSettings, waitFor } from '../helpers';
import { refusedUrl, startFront, startWritable, type FrontService, type WritableTestService } from '../services';

function hostOf(url: string): string {
  return new URL(url).host;
}

describe('Accounts: Sign In and Sign Out', function () {
  this.timeout(60_000);
  let service: WritableTestService;
  let front: FrontService | undefined;
  let ana: string;
  let bo: string;

  before(async () => {
    service = await startWritable();
    ana = await service.addPerson('Ana Lima');
    bo = await service.addPerson('Bo Berg');
  });

  beforeEach(async () => {
    await resetState();
    await useSettings({ baseUrl: service.url });
  });

  afterEach(async () => {
    // Tokens are kept across windows: sign out of every service a test used.
    for (const url of [service.url, front?.url]) {
      if (!url) continue;
      await useSettings({ baseUrl: url });
      await signOut();
    }
    await front?.close();
    front = undefined;
    await resetState();
  });

  after(async () => {
    await service?.close();
  });

  it('signs in with the token from the service\'s owner: a password box naming the host, an account of the person\'s name and the host, and VS Code hears of it; signing in again replaces it', async () => {
    const host = hostOf(service.url);
    let heard = 0;
    const listening = vscode.authentication.onDidChangeSessions((e) => { if (e.provider.id === 'refactor-browser') heard++; });
    try {
      const { asked, said } = await signIn(ana);
      assert.strictEqual(asked.length, 1);
      assert.strictEqual(asked[0].password, true, 'the token is typed unseen');
      assert.ok(asked[0].prompt?.includes(host), `the prompt names ${host}: ${asked[0].prompt}`);
      assert.deepStrictEqual(said, [`Signed in to ${host} as Ana Lima.`]);
      const session = await (await api()).session();
      assert.strictEqual(session?.account.label, `Ana Lima (${host})`);
      assert.strictEqual(session.accessToken, ana);
      await waitFor(() => (heard > 0 ? true : undefined), 'VS Code to hear of the new session');

      await signIn(bo);
      const replaced = await (await api()).session();
      assert.strictEqual(replaced?.account.label, `Bo Berg (${host})`, 'one account per service: the new token replaces the old');
      assert.strictEqual(replaced.accessToken, bo);
    } finally {
      listening.dispose();
    }
    await assertNoLogHolds(ana, bo);
  });

  it('keeps nothing when the service refuses the token or cannot be reached, and says so in one line', async () => {
    const wrong = 'not-a-token-of-this-service';
    const { said } = await signIn(wrong);
    assert.strictEqual(said.length, 1);
    assert.strictEqual(said[0], `Could not sign in to ${hostOf(service.url)}: the service refused the token (unknown, revoked or mistyped): sign in again`);
    assert.ok(!said[0].includes(wrong), 'the message does not show the token');
    assert.strictEqual(await (await api()).session(), undefined);

    await useSettings({ baseUrl: await refusedUrl() });
    const { said: refused } = await signIn(ana);
    assert.strictEqual(refused.length, 1);
    assert.match(refused[0], /^Could not sign in to 127\.0\.0\.1:\d+: .+/);
    assert.ok(!refused[0].includes(ana));
    assert.strictEqual(await (await api()).session(), undefined);
    await assertNoLogHolds(wrong, ana);
  });

  it('signs out with Sign Out and with the Accounts menu\'s Sign Out, and Escape keeps what was there', async () => {
    await signIn(ana);
    const { said } = await (await api()).runAnswering(Commands.signOut, {});
    assert.deepStrictEqual(said, [`Signed out of ${hostOf(service.url)}.`]);
    assert.strictEqual(await (await api()).session(), undefined);

    await signIn(ana);
    const session = await (await api()).session();
    assert.ok(session);
    await signIn(undefined);
    assert.strictEqual((await (await api()).session())?.id, session.id, 'Escape in the input box changes nothing');
    await (await api()).removeSession(session.id);
    assert.strictEqual(await (await api()).session(), undefined);
  });

  it('sends a token only to its own service: another service\'s address gets no session and no token, until signed in there', async () => {
    await signIn(ana);
    // Another address before the same store: another service as far as the extension can tell.
    front = await startFront(service.url);
    await useSettings({ baseUrl: front.url });
    assert.strictEqual(await (await api()).session(), undefined, 'the session belongs to the other service');
    await (await api()).treeRows(['Recent Codes']);
    await signIn(undefined);
    assert.ok((await front.requests()).length > 0);
    assert.deepStrictEqual((await front.requests()).filter((r) => r.authorization !== null), [], 'no token reached this service');

    await signIn(bo);
    assert.deepStrictEqual((await front.requests()).filter((r) => r.authorization !== null).map((r) => [r.path, r.authorization]),
      [['/account.xml', `Bearer ${bo}`]], 'only the token given for it, only to check it');
    assert.strictEqual((await (await api()).session())?.account.label, `Bo Berg (${hostOf(front.url)})`);

    await useSettings({ baseUrl: service.url });
    assert.strictEqual((await (await api()).session())?.account.label, `Ana Lima (${hostOf(service.url)})`, 'each service keeps its own account');
    await assertNoLogHolds(ana, bo);
  });

  it('refuses a service that redirects Sign In to another address, in one line: the token never gets there and nobody is signed in', async () => {
    // Elsewhere answers as the service would, so a token that reached it would sign Bo in.
    const elsewhere = await startFront(service.url);
    try {
      front = await startFront(service.url, { redirectTo: elsewhere.url });
      await useSettings({ baseUrl: front.url });
      const { said } = await signIn(bo);
      // A browser's fetch does not show where a redirect leads, so there no redirect is followed with a token.
      const why = expectedHost() === 'web'
        ? 'redirected, and the browser does not say where'
        : `redirect to ${new URL(elsewhere.url).origin} refused`;
      assert.deepStrictEqual(said, [`Could not sign in to ${hostOf(front.url)}: ${front.url}account.xml: ${why} (a token goes only to the service it was given for)`]);
      assert.strictEqual(await (await api()).session(), undefined);
      assert.deepStrictEqual((await elsewhere.requests()).map((r) => r.authorization), [], 'elsewhere is never asked');
      assert.deepStrictEqual((await front.requests()).map((r) => [r.path, r.authorization]), [['/account.xml', `Bearer ${bo}`]]);
    } finally {
      await elsewhere.close();
    }
    await assertNoLogHolds(bo);
  });

  it('refuses on the built-in sample catalog, which takes no contributions, and offers to set a service', async () => {
    await useSettings({ baseUrl: undefined });
    const { asked, said } = await (await api()).runAnswering(Commands.signIn, { input: ana, button: 'Set a Service' });
    assert.deepStrictEqual(asked, [], 'no token asked for');
    assert.strictEqual(said.length, 1);
    assert.match(said[0], /built-in sample catalog takes no contributions/);
    assert.strictEqual(await (await api()).session(), undefined);
    await waitFor(() => (vscode.window.tabGroups.activeTabGroup.activeTab?.label === 'Settings' ? true : undefined), 'the settings to open');
  });
});
