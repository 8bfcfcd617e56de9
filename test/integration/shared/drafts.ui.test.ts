// Refactor… and Submit Refactoring as a person does them, in both extension hosts: Refactor… from a
// code row's context menu opens the code beside its draft, the draft is typed into on screen, and
// the Submit Refactoring button in the draft's editor title sends it; the code view then shows the
// new refactoring and the draft's tab is gone. Saves media/screenshots/refactor-draft.png.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { expectedHost } from '../bridgeClient';
import { endContributingUi, showRoot, startContributingUi, TREE_ROWS, waitForDiff, webviewText } from '../codeViewHelpers';
import { api, signIn, useSettings, waitFor } from '../helpers';
import { startWritable, type WritableTestService } from '../services';
import type { Ui } from '../ui';

const DIFF_EDITORS = '.editor-group-container.active .monaco-diff-editor .monaco-editor .view-lines';

describe('Refactor and Submit Refactoring (UI)', function () {
  this.timeout(120_000);
  let ui: Ui;
  let service: WritableTestService | undefined;

  before(async function () {
    ui = await startContributingUi(this);
    await (await api()).forgetDrafts();
  });
  after(async () => {
    await endContributingUi();
    await (await api()).forgetDrafts();
    await service?.close();
  });

  it('Refactor… on a code row opens the code beside its draft; typed into and sent with the editor title\'s button, it shows in the code view and the draft closes', async () => {
    service = await startWritable();
    const ana = await service.addPerson('Ana Lima');
    const bo = await service.addPerson('Bo Berg');
    const code = (await service.as(ana, (c) => c.postCode({
      title: 'Sum the prices', language: 'Ruby', comment: 'Adds them up.', code: 'total = 0\nprices.each do |price|\n  total += price\nend\n',
    }))).value;
    await useSettings({ baseUrl: service.url });
    const browser = await api();
    await signIn(bo);

    await showRoot(ui, 'Recent Codes');
    await ui.contextMenu({ css: `${TREE_ROWS}[aria-level="2"]`, hasText: code.title }, 'Refactor…');
    const diff = await waitForDiff(`${code.title} ↔ Your Refactoring`);

    // Typed into the draft, the right-hand editor.
    const [, draftLines] = await ui.query({ css: DIFF_EDITORS }, [], 2);
    assert.ok(draftLines, 'two editors');
    await ui.click({ css: DIFF_EDITORS, nth: 1 });
    await ui.press('ControlOrMeta+A');
    await ui.type('total = prices.sum');
    const draft = await vscode.workspace.openTextDocument(diff.modified);
    await waitFor(() => (draft.getText() === 'total = prices.sum' ? true : undefined), 'the typed draft')
      .catch((err: Error) => assert.fail(`${err.message}: ${JSON.stringify(draft.getText())}`));
    let shown: string[] = [];
    await waitFor(async () => {
      shown = (await ui.query({ css: DIFF_EDITORS }, [], 2)).map((e) => e.text.replace(/\u00a0/g, ' '));
      return shown[0]?.includes('prices.each do |price|') && shown[1]?.includes('total = prices.sum') ? true : undefined;
    }, 'the code and the draft on screen').catch((err: Error) => assert.fail(`${err.message}: ${JSON.stringify(shown)}`));
    // The diff marks what changed once it has compared the two.
    await ui.waitFor({ css: '.editor-group-container.active .monaco-diff-editor .line-insert, .editor-group-container.active .monaco-diff-editor .char-insert' }, 'attached');
    await vscode.commands.executeCommand('notifications.clearAll');
    // The README's screenshot, taken once: by the Node host's run.
    if (expectedHost() === 'node') await ui.screenshot('refactor-draft');

    const sent = await browser.runAnswering(async () => {
      await ui.click({ css: '.editor-group-container.active .editor-actions .action-label[aria-label="Submit Refactoring"]' });
      await webviewText(ui, [code.title, 'Use sum', 'Array#sum adds them.']);
    }, { inputs: ['Use sum', 'Array#sum adds them.'] });
    assert.deepStrictEqual(sent.said, [`Submitted Use sum as a refactoring of ${code.title}.`]);
    await waitFor(() => (vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputTextDiff
      && t.input.modified.toString() === diff.modified.toString()) ? undefined : true), 'the draft\'s tab to close');
    const refactors = (await service.as(ana, (c) => c.code(code.id))).refactors ?? [];
    assert.deepStrictEqual(refactors.map((r) => [r.title, r.code]), [['Use sum', 'total = prices.sum']]);
  });
});
