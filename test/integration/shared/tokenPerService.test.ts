// A token goes only to the service that gave it, even when the service setting changes while a
// write waits for the person: Share and Rate, signed out, offer Sign In; the person then switches
// to another service and signs in there. Each service sits behind a front server that records the
// Authorization header of every request it gets, in both extension hosts.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { api, resetState, useSettings } from '../helpers';
import { startFront, startWritable, type FrontService, type WritableTestService } from '../services';

describe('A token goes only to its own service', function () {
  this.timeout(60_000);
  let a: WritableTestService;
  let b: WritableTestService;
  let frontA: FrontService;
  let frontB: FrontService;
  let anaAtA: string;
  let caiAtA: string;
  let boAtB: string;

  before(async () => {
    a = await startWritable();
    b = await startWritable();
    frontA = await startFront(a.url);
    frontB = await startFront(b.url);
    anaAtA = await a.addPerson('Ana Lima');
    caiAtA = await a.addPerson('Cai Wu');
    boAtB = await b.addPerson('Bo Berg');
    await resetState();
  });

  afterEach(async () => {
    const browser = await api();
    for (const front of [frontA, frontB]) {
      await useSettings({ baseUrl: front.url });
      const session = await browser.session();
      if (session) await browser.removeSession(session.id);
    }
    await resetState();
  });

  after(async () => {
    for (const s of [frontA, frontB, a, b]) await s?.close();
  });

  /** Whether `token` reached `front` in an Authorization header. */
  async function reached(front: FrontService, token: string): Promise<boolean> {
    return (await front.requests()).some((r) => r.authorization?.includes(token) === true);
  }

  /** Answers the offer to sign in to A after switching the setting to B, as a person might. */
  const switchToB = async (shown: string): Promise<void> => {
    if (shown.startsWith(`Sign in to ${new URL(frontA.url).host}`)) await useSettings({ baseUrl: frontB.url });
  };

  async function assertOwnTokensOnly(): Promise<void> {
    assert.ok(!(await reached(frontA, boAtB)), 'B\'s token never reaches A');
    for (const token of [anaAtA, caiAtA]) assert.ok(!(await reached(frontB, token)), 'A\'s tokens never reach B');
  }

  it('Share: switching to another service while it offers Sign In sends neither service the other\'s token', async () => {
    await useSettings({ baseUrl: frontA.url });
    const doc = await vscode.workspace.openTextDocument({ language: 'ruby', content: 'puts 1\n' });
    const editor = await vscode.window.showTextDocument(doc);
    editor.selection = new vscode.Selection(0, 0, 1, 0);
    const { said } = await (await api()).runAnswering('refactorBrowser.shareSelection', {
      inputs: [boAtB, 'Never to A with B\'s token', 'No.', ''], button: 'Sign In…', meanwhile: switchToB,
    });
    assert.ok(said.includes(`Signed in to ${new URL(frontB.url).host} as Bo Berg.`), `signed in to B meanwhile: ${said.join(' | ')}`);
    await assertOwnTokensOnly();
  });

  it('Rate: switching to another service while it offers Sign In sends neither service the other\'s token', async () => {
    const code = (await a.as(anaAtA, (c) => c.postCode({ title: 'Count to three', language: 'Ruby', comment: 'Counts.', code: 'puts 1\nputs 2\nputs 3\n' }))).value;
    await a.as(caiAtA, (c) => c.postRefactor(code.id, { title: 'Use a range', comment: 'Shorter.', code: '(1..3).each { |n| puts n }\n' }));
    await useSettings({ baseUrl: frontA.url });
    const browser = await api();
    await vscode.commands.executeCommand('refactorBrowser.refresh');
    const { said } = await browser.runAnswering(() => browser.runOnRow('refactorBrowser.rate', ['Recent Refactorings', 'Use a range']), {
      inputs: [boAtB], button: 'Sign In…', pick: '★★★★☆ 4', meanwhile: switchToB,
    });
    assert.ok(said.includes(`Signed in to ${new URL(frontB.url).host} as Bo Berg.`), `signed in to B meanwhile: ${said.join(' | ')}`);
    await assertOwnTokensOnly();
  });
});
