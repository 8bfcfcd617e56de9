// Rate… and Delete… as a person clicks them in the code view, in both extension hosts: the buttons
// show only to a signed-in person and only where they apply (Delete… on one's own code and on the
// refactorings of it), each named for a screen reader by what it acts on; after a rating the view
// shows the new rating and votes, after a deletion the refactoring is gone from it.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { Commands } from '../../../src/extension/common/commandIds';
import { endContributingUi, startContributingUi, webviewText } from '../codeViewHelpers';
import { api, signIn, useSettings, waitFor } from '../helpers';
import { startWritable, type WritableTestService } from '../services';
import type { Ui } from '../ui';

describe('Rate and Delete (UI)', function () {
  this.timeout(120_000);
  let ui: Ui;
  let service: WritableTestService | undefined;

  before(async function () {
    ui = await startContributingUi(this);
  });
  afterEach(async () => {
    await endContributingUi();
  });
  after(async () => {
    await service?.close();
  });

  /** The accessible names of the Rate… and Delete… buttons in the view of `title`. */
  async function writeButtons(title: string): Promise<string[]> {
    const buttons = await ui.dom({ css: 'button.action' }, { webview: true, frameText: title, maxText: 50 });
    return buttons.map((b) => b.attributes['aria-label'] ?? '').filter((name) => /^(Rate|Delete)…/.test(name));
  }

  it('offers Rate… and Delete… to the signed-in person where they apply; rating shows the new rating and votes, deleting takes the refactoring away', async () => {
    service = await startWritable();
    const ana = await service.addPerson('Ana Lima');
    const bo = await service.addPerson('Bo Berg');
    const code = (await service.as(ana, (c) => c.postCode({ title: 'Sum prices in the view', language: 'Ruby', comment: 'Adds them up.', code: 'total = 0\n' }))).value;
    const refactor = (await service.as(bo, (c) => c.postRefactor(code.id, { title: 'Use sum', comment: 'Shorter.', code: 'total = prices.sum\n' }))).value;
    await useSettings({ baseUrl: service.url });
    const browser = await api();

    await vscode.commands.executeCommand(Commands.openCode, code.id);
    await webviewText(ui, [code.title, 'not rated']);
    assert.deepStrictEqual(await writeButtons(code.title), [], 'signed out: nothing to rate or delete');

    await signIn(ana);
    const offered = [`Delete…: code #${code.id}`, `Rate…: refactoring #${refactor.id}`, `Delete…: refactoring #${refactor.id}`];
    await waitFor(async () => (JSON.stringify(await writeButtons(code.title)) === JSON.stringify(offered) ? true : undefined),
      `the view to offer ${JSON.stringify(offered)}`);

    const rated = await browser.runAnswering(async () => {
      await ui.webviewClick({ css: `#refactor-${refactor.id} button[aria-label="Rate…: refactoring #${refactor.id}"]` }, code.title);
      await webviewText(ui, [code.title, 'rated 4 (1 vote)']);
    }, { pick: '★★★★☆ 4' });
    assert.deepStrictEqual(rated.said, ['Rated Use sum 4: it is rated 4 (1 vote) now.']);

    const deleted = await browser.runAnswering(async () => {
      await ui.webviewClick({ css: `#refactor-${refactor.id} button[aria-label="Delete…: refactoring #${refactor.id}"]` }, code.title);
      await webviewText(ui, [code.title, 'No refactorings yet']);
    }, { button: 'Delete' });
    assert.deepStrictEqual(deleted.said, ['Delete Use sum? This cannot be undone.', 'Deleted Use sum.']);

    // Bo's view of Ana's code offers him nothing to delete.
    await signIn(bo);
    await waitFor(async () => ((await writeButtons(code.title)).length === 0 ? true : undefined), 'Delete… to leave Bo\'s view');
  });
});
