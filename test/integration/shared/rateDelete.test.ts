// Rate… and Delete…, in both extension hosts, against a writable service: a rating from a row says
// the service's new rating, which the row then shows; rating again or one's own refactoring is
// refused in one line with the service's reason, a token revoked since Sign In in Sign In's words; deleting asks first in a modal naming what goes,
// then the refactoring leaves its code and the code its lists and its code view; someone else's is
// refused; signed out the commands offer Sign In and go on once signed in, and on the built-in
// sample they say it takes no contributions. No log line ever holds a token.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { isApiError } from '../../../src/core/errors';
import type { Code, Refactor } from '../../../src/core/model';
import { closeAllEditors, codeViewTabs, waitForCodeViewTab } from '../codeViewHelpers';
import { Commands } from '../../../src/extension/common/commandIds';
import { api, assertNoLogHolds, resetState, signIn, signOut, useSettings, waitFor } from '../helpers';
import { startWritable, type WritableTestService } from '../services';

const STARS = ['★★★★★ 5', '★★★★☆ 4', '★★★☆☆ 3', '★★☆☆☆ 2', '★☆☆☆☆ 1'];

describe('Rate and Delete', function () {
  this.timeout(60_000);
  let service: WritableTestService;
  let ana: string;
  let bo: string;
  let host: string;
  let n = 0;

  /** A code of Ana's with a refactoring of Bo's (untitled when `title` is ''), each titled apart from other tests'. */
  async function anaCodeWithBoRefactoring(title = `Use reduce ${++n}`): Promise<{ code: Code; refactor: Refactor }> {
    const code = (await service.as(ana, (c) => c.postCode({ title: `Sum prices ${++n}`, language: 'Ruby', comment: 'Adds them up.', code: 'total = 0\nprices.each { |p| total += p }\n' }))).value;
    const refactor = (await service.as(bo, (c) => c.postRefactor(code.id, { title, comment: 'Shorter.', code: 'total = prices.sum\n' }))).value;
    // What the Catalog held came before these.
    await vscode.commands.executeCommand(Commands.refresh);
    return { code, refactor };
  }

  before(async () => {
    service = await startWritable();
    ana = await service.addPerson('Ana Lima');
    bo = await service.addPerson('Bo Berg');
    host = new URL(service.url).host;
    await resetState();
    // Set once for the suite: each test titles its codes apart, so one service serves them all.
    await useSettings({ baseUrl: service.url });
  });

  afterEach(async () => {
    await useSettings({ baseUrl: service.url });
    await signOut();
    await closeAllEditors();
  });

  after(async () => {
    await resetState();
    await service?.close();
  });

  it('rates a refactoring from its row with one of five choices; the message and the row show its new rating and votes; rating again, or one\'s own, is refused in one line', async () => {
    const browser = await api();
    const { refactor } = await anaCodeWithBoRefactoring();
    await signIn(ana);
    const row = ['Recent Refactorings', refactor.title];
    assert.ok(!(await browser.row(row)).description.startsWith('★'), 'not rated yet');

    const rated = await browser.runAnswering(() => browser.runOnRow(Commands.rate, row), { pick: '★★★★☆ 4' });
    assert.deepStrictEqual(rated.offered, [STARS]);
    assert.deepStrictEqual(rated.said, [`Rated ${refactor.title} 4: it is rated 4 (1 vote) now.`]);
    const shown = await waitFor(async () => {
      const r = await browser.row(row);
      return r.description.startsWith('★ 4 (1)') ? r : undefined;
    }, 'the row to show the new rating');
    assert.match(shown.accessibilityLabel, /rated 4 \(1 vote\)/);

    const again = await browser.runAnswering(() => browser.runOnRow(Commands.rate, row), { pick: '★★☆☆☆ 2' });
    assert.deepStrictEqual(again.said, [`Could not rate ${refactor.title}: You have already rated this refactoring`]);

    await signIn(bo);
    const own = await browser.runAnswering(() => browser.runOnRow(Commands.rate, row), { pick: '★★★★★ 5' });
    assert.deepStrictEqual(own.said, [`Could not rate ${refactor.title}: You can't rate your own refactoring`]);
    assert.ok((await browser.row(row)).description.startsWith('★ 4 (1)'), 'refused ratings change nothing');

    // Escape in the quick pick rates nothing.
    await signIn(ana);
    const escaped = await browser.runAnswering(() => browser.runOnRow(Commands.rate, row), {});
    assert.deepStrictEqual(escaped.said, []);
    await assertNoLogHolds(ana, bo);
  });

  it('says in one line, as Sign In says it, that the service refused a token revoked since signing in', async () => {
    const browser = await api();
    const { refactor } = await anaCodeWithBoRefactoring();
    const dan = await service.addPerson('Dan Eriksen');
    await signIn(dan);
    await service.revoke('Dan Eriksen');
    const refused = await browser.runAnswering(() => browser.runOnRow(Commands.rate, ['Recent Refactorings', refactor.title]), { pick: '★★★★☆ 4' });
    assert.deepStrictEqual(refused.said, [`Could not rate ${refactor.title}: the service refused the token (unknown, revoked or mistyped): sign in again`]);
    await assertNoLogHolds(dan);
  });

  it('rates from the open code view\'s button and from the palette, which asks which of its refactorings', async () => {
    const browser = await api();
    const { code, refactor } = await anaCodeWithBoRefactoring();
    await signIn(ana);
    await vscode.commands.executeCommand(Commands.openCode, code.id);
    await waitForCodeViewTab(code.title);

    const fromView = await browser.runAnswering(() => browser.codeViewMessage(code.id, { type: 'rate', refactorId: refactor.id }), { pick: '★★★☆☆ 3' });
    assert.deepStrictEqual(fromView.said, [`Rated ${refactor.title} 3: it is rated 3 (1 vote) now.`]);

    const carl = await service.addPerson('Carl Diaz');
    await signIn(carl);
    const fromPalette = await browser.runAnswering(Commands.rate, { pick: refactor.title });
    assert.deepStrictEqual(fromPalette.offered[0], [refactor.title], 'the refactorings of the open code view');
    // The quick pick's second question gets no answer that matches: Escape, nothing rated.
    assert.deepStrictEqual(fromPalette.said, []);
    const rows = await browser.treeRows(['Recent Codes', code.title]);
    assert.ok(rows.find((r) => r.label === refactor.title)?.description.startsWith('★ 3 (1)'), JSON.stringify(rows));
    await assertNoLogHolds(carl);
  });

  it('deletes one\'s own refactoring and code after a modal naming it; Cancel keeps it, and someone else\'s is refused in one line', async () => {
    const browser = await api();
    const { code, refactor } = await anaCodeWithBoRefactoring('');
    const untitled = `refactoring #${refactor.id} of ${code.title}`;
    await signIn(bo);
    await vscode.commands.executeCommand(Commands.openCode, code.id);
    await waitForCodeViewTab(code.title);

    const cancelled = await browser.runAnswering(() => browser.runOnRow(Commands.delete, ['Recent Codes', code.title, `Refactoring #${refactor.id}`]), {});
    assert.deepStrictEqual(cancelled.said, [`Delete ${untitled}? This cannot be undone.`]);
    const notHis = await browser.runAnswering(() => browser.runOnRow(Commands.delete, ['Recent Codes', code.title]), { button: 'Delete' });
    assert.deepStrictEqual(notHis.said, [`Delete ${code.title}? This cannot be undone.`, `Could not delete ${code.title}: it is someone else's`]);

    // His own refactoring, from the code view's button.
    const deleted = await browser.runAnswering(() => browser.codeViewMessage(code.id, { type: 'delete', target: { kind: 'refactor', id: refactor.id } }), { button: 'Delete' });
    assert.deepStrictEqual(deleted.said, [`Delete ${untitled}? This cannot be undone.`, `Deleted ${untitled}.`]);
    assert.deepStrictEqual(await service.as(ana, async (c) => (await c.code(code.id)).refactors), []);
    assert.ok(!(await browser.treeRows(['Recent Refactorings'])).some((r) => r.label === `Refactoring #${refactor.id}`), 'gone from Recent Refactorings');

    // Ana's own code, from its row: its code view closes, and it leaves Recent Codes.
    await signIn(ana);
    const gone = await browser.runAnswering(() => browser.runOnRow(Commands.delete, ['Recent Codes', code.title]), { button: 'Delete' });
    assert.deepStrictEqual(gone.said, [`Delete ${code.title}? This cannot be undone.`, `Deleted ${code.title}.`]);
    await waitFor(() => (codeViewTabs().some((t) => t.label === code.title) ? undefined : true), 'the code view of the deleted code to close');
    assert.ok(!(await browser.treeRows(['Recent Codes'])).some((r) => r.label === code.title), 'gone from Recent Codes');
    await assert.rejects(service.as(ana, (c) => c.code(code.id)), (err) => isApiError(err) && err.status === 404);
    await assertNoLogHolds(ana, bo);
  });

  it('signed out, offers Sign In and goes on once signed in; declined, does nothing; on the built-in sample catalog, says it takes no contributions', async () => {
    const browser = await api();
    const { refactor } = await anaCodeWithBoRefactoring();
    const row = ['Recent Refactorings', refactor.title];
    const declined = await browser.runAnswering(() => browser.runOnRow(Commands.delete, row), {});
    assert.deepStrictEqual(declined.said, [`Sign in to ${host} to rate or delete.`]);
    assert.deepStrictEqual(declined.asked, []);

    const signedIn = await browser.runAnswering(() => browser.runOnRow(Commands.rate, row), { button: 'Sign In…', input: ana, pick: '★★★★★ 5' });
    assert.strictEqual(signedIn.asked.length, 1, 'the token asked for');
    assert.deepStrictEqual(signedIn.said, [
      `Sign in to ${host} to rate or delete.`,
      `Signed in to ${host} as Ana Lima.`,
      `Rated ${refactor.title} 5: it is rated 5 (1 vote) now.`,
    ]);

    await useSettings({ baseUrl: undefined });
    const sample = await browser.runAnswering(Commands.rate, {});
    assert.strictEqual(sample.said.length, 1);
    assert.match(sample.said[0], /built-in sample catalog takes no contributions/);
    assert.deepStrictEqual(sample.asked, []);
    await assertNoLogHolds(ana, bo);
  });
});
