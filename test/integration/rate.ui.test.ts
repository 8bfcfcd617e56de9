// Rate… as a person does it, against the writable reference service: right-click a refactoring's row in
// Recent Refactorings, choose Rate…, click four stars in the quick pick; the message, the row (what it
// shows and what a screen reader says of it) and the code view opened from it then show the new
// rating and votes.
// Saves media/screenshots/rate.png (the stars offered) for the README.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { endContributingUi, showRoot, startContributingUi, TREE_ROWS, waitForCodeViewTab, webviewText } from './codeViewHelpers';
import { api, signIn, useSettings, waitFor } from './helpers';
import { startWritable, type WritableTestService } from './services';
import type { Ui } from './ui';

const QUICK_INPUT = '.quick-input-widget';
const TOAST = '.notifications-toasts .notification-toast';
const ROW = `${TREE_ROWS}[aria-level="2"]`;

describe('Rate (UI)', function () {
  this.timeout(120_000);
  let ui: Ui;
  let service: WritableTestService;

  before(async function () {
    ui = await startContributingUi(this);
    service = await startWritable();
  });
  after(async () => {
    await endContributingUi();
    await service?.close();
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  it('rates a refactoring four stars from its row\'s context menu; the row and the code view show its rating and votes', async () => {
    const ana = await service.addPerson('Ana Lima');
    const bo = await service.addPerson('Bo Berg');
    const code = (await service.as(ana, (c) => c.postCode({ title: 'Sum prices', language: 'Ruby', comment: 'Adds them up.', code: 'total = 0\nprices.each { |p| total += p }\n' }))).value;
    const refactor = (await service.as(bo, (c) => c.postRefactor(code.id, { title: 'Use sum', comment: 'Shorter.', code: 'total = prices.sum\n' }))).value;
    await useSettings({ baseUrl: service.url });
    await signIn(ana);
    assert.ok(await (await api()).session(), 'signed in');

    await showRoot(ui, 'Recent Refactorings');
    const [before] = await ui.query({ css: ROW, hasText: 'Use sum' }, ['aria-label'], 1);
    assert.strictEqual(before.attributes['aria-label'], 'Use sum, a refactoring by Bo Berg, not rated');
    // A click on the row opens its code, the refactoring's block not rated yet.
    await ui.click({ css: ROW, hasText: 'Use sum' });
    await waitForCodeViewTab('Sum prices', 20_000);
    await webviewText(ui, ['Sum prices', 'total = prices.sum', 'not rated']);

    await ui.contextMenu({ css: ROW, hasText: 'Use sum' }, 'Rate…');
    await ui.waitFor({ css: `${QUICK_INPUT} .quick-input-title`, hasText: 'Rate Use sum' });
    const offered = await ui.query({ css: `${QUICK_INPUT} .monaco-list-row` }, [], 5);
    assert.deepStrictEqual(offered.map((o) => o.text.trim()), ['★★★★★ 5', '★★★★☆ 4', '★★★☆☆ 3', '★★☆☆☆ 2', '★☆☆☆☆ 1']);
    await ui.screenshot('rate');
    await ui.click({ css: `${QUICK_INPUT} .monaco-list-row`, hasText: '★★★★☆ 4' });

    await ui.waitFor({ css: TOAST, hasText: 'Rated Use sum 4: it is rated 4 (1 vote) now.' });
    // The list and the open code view are asked again after the rating: each says so once it has come back.
    const view = await webviewText(ui, ['Sum prices', 'total = prices.sum', 'rated 4 (1 vote)']);
    assert.ok(!view.includes('not rated'), view);
    let shown = '';
    await waitFor(async () => {
      const [row] = await ui.query({ css: ROW, hasText: 'Use sum' }, ['aria-label'], 1);
      shown = `${row.text} | ${row.attributes['aria-label']}`;
      return row.text.includes('★ 4 (1)') && row.attributes['aria-label'] === 'Use sum, a refactoring by Bo Berg, rated 4 (1 vote)' ? true : undefined;
    }, 'the row to show the rating', 15_000).catch((err: Error) => assert.fail(`${err.message}: ${shown}`));
    assert.strictEqual((await api()).currentCode()?.refactors?.find((r) => r.id === refactor.id)?.ratingsCount, 1);
  });
});
