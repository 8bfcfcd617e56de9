// Refactor… and Submit Refactoring, in both extension hosts, against a writable service: a draft
// opens as a diff with the code read-only on the left and the editable draft on the right, both in
// the code's language; submitted, it becomes a refactoring of its own code, which the code view then
// shows, and its tab closes without asking to save; refused, it stays with its text and the service's
// reasons, and sends again once fixed. Two drafts of two codes each go to their own code. A draft
// kept in the extension's storage outlives its editor (a test cannot reload its own window: it closes
// the draft's tabs and opens its address again, which reads it back from storage). Signed out, Refactor…
// offers Sign In; the built-in sample catalog takes no contributions. No log line holds a token.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { Code } from '../../../src/core/model';
import { closeAllEditors, waitForCodeViewTab, waitForDiff } from '../codeViewHelpers';
import { Commands } from '../../../src/extension/common/commandIds';
import { api, assertNoLogHolds, resetState, signIn, signOut, useSettings, waitFor } from '../helpers';
import { startWritable, type WritableTestService } from '../services';

const DRAFT_SCHEME = 'refactor-browser-draft';

describe('Refactor and Submit Refactoring', function () {
  this.timeout(60_000);
  let service: WritableTestService;
  let ana: string;
  let bo: string;
  let host: string;
  let n = 0;

  /** A Ruby code of Ana's, titled apart from other tests', in the Catalog's Recent Codes. */
  async function anaCode(): Promise<Code> {
    const code = (await service.as(ana, (c) => c.postCode({ title: `Sum prices ${++n}`, language: 'Ruby', comment: 'Adds them up.', code: 'total = 0\nprices.each { |p| total += p }\n' }))).value;
    await vscode.commands.executeCommand(Commands.refresh);
    return code;
  }

  /** Runs Refactor… on the code's row and waits for the diff it opens. */
  async function refactorRow(code: Code): Promise<vscode.TabInputTextDiff> {
    const browser = await api();
    await browser.runOnRow(Commands.refactorCode, ['Recent Codes', code.title]);
    return waitForDiff(`${code.title} ↔ Your Refactoring`);
  }

  /** Replaces the draft's whole text in its editor, unsaved. */
  async function edit(uri: vscode.Uri, text: string): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(uri);
    const change = new vscode.WorkspaceEdit();
    change.replace(uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
    assert.ok(await vscode.workspace.applyEdit(change), 'the draft takes the edit');
    return doc;
  }

  function draftTabs(uri: vscode.Uri): vscode.Tab[] {
    return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter(({ input }) =>
      input instanceof vscode.TabInputTextDiff && input.modified.toString() === uri.toString());
  }

  async function refactorsOf(code: Code): Promise<Array<{ title: string; comment: string; code: string }>> {
    const refactors = (await service.as(ana, (c) => c.code(code.id))).refactors ?? [];
    return refactors.map((r) => ({ title: r.title, comment: r.comment, code: r.code }));
  }

  before(async () => {
    service = await startWritable();
    ana = await service.addPerson('Ana Lima');
    bo = await service.addPerson('Bo Berg');
    host = new URL(service.url).host;
    await resetState();
    await (await api()).forgetDrafts();
    await useSettings({ baseUrl: service.url });
  });

  afterEach(async () => {
    await useSettings({ baseUrl: service.url });
    await signOut();
    await closeAllEditors();
  });

  after(async () => {
    await (await api()).forgetDrafts();
    await resetState();
    await service?.close();
  });

  it('opens a draft beside the code, both in its language; submitted, it is a refactoring of that code, the code view shows it and the draft closes without asking', async () => {
    const browser = await api();
    const code = await anaCode();
    await signIn(bo);
    const diff = await refactorRow(code);
    assert.strictEqual(diff.modified.scheme, DRAFT_SCHEME);
    const original = await vscode.workspace.openTextDocument(diff.original);
    const draft = await vscode.workspace.openTextDocument(diff.modified);
    assert.strictEqual(original.getText(), code.code, 'the code on the left');
    assert.strictEqual(draft.getText(), code.code, 'the draft starts as the code');
    assert.strictEqual(original.languageId, 'ruby');
    assert.strictEqual(draft.languageId, 'ruby');

    const unchanged = await browser.runAnswering(Commands.submitRefactoring, { inputs: ['Same', 'Nothing.'] });
    assert.deepStrictEqual(unchanged.said, [`The draft is still the code of ${code.title}: change it before you submit it.`]);
    assert.deepStrictEqual(unchanged.asked, []);

    const better = 'total = prices.sum\n';
    assert.ok((await edit(diff.modified, better)).isDirty, 'edited, not saved');
    const sent = await browser.runAnswering(Commands.submitRefactoring, { inputs: ['Use sum', 'Array#sum says it.'] });
    assert.strictEqual(sent.asked.length, 2, 'a title and a comment');
    assert.deepStrictEqual(sent.said, [`Submitted Use sum as a refactoring of ${code.title}.`]);
    assert.deepStrictEqual(await refactorsOf(code), [{ title: 'Use sum', comment: 'Array#sum says it.', code: better }]);

    await waitForCodeViewTab(code.title);
    await waitFor(() => (browser.currentCode()?.refactors?.some((r) => r.title === 'Use sum') ? true : undefined), 'the code view to show the new refactoring');
    await waitFor(() => (draftTabs(diff.modified).length === 0 ? true : undefined), 'the draft\'s tab to close');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(diff.modified)), 'the draft is gone');
    const rows = await browser.treeRows(['Recent Codes', code.title]);
    assert.ok(rows.some((r) => r.label === 'Use sum'), `the Catalog lists it: ${JSON.stringify(rows.map((r) => r.label))}`);
    await assertNoLogHolds(ana, bo);
  });

  it('a refused submission keeps the draft and its text, says the service\'s reasons in one line, and sends again from what was typed', async () => {
    const browser = await api();
    const code = await anaCode();
    await signIn(bo);
    await vscode.commands.executeCommand(Commands.openCode, code.id);
    await waitForCodeViewTab(code.title);
    // The code view's Refactor… button.
    await browser.codeViewMessage(code.id, { type: 'refactor' });
    const diff = await waitForDiff(`${code.title} ↔ Your Refactoring`);
    const better = 'total = prices.inject(0, :+)\n';
    await edit(diff.modified, better);

    const long = 'T'.repeat(201);
    const refused = await browser.runAnswering(() => vscode.commands.executeCommand(Commands.submitRefactoring, diff.modified), { inputs: [long, 'Inject.'] });
    assert.deepStrictEqual(refused.said, [`Could not submit your refactoring of ${code.title}: Title is too long (maximum is 200 characters)`]);
    assert.deepStrictEqual(await refactorsOf(code), []);
    assert.strictEqual(draftTabs(diff.modified).length, 1, 'the draft stays open');
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.modified)).getText(), better, 'with its text');

    const again = await browser.runAnswering(Commands.submitRefactoring, { inputs: [long, 'Inject.', 'Inject', 'Inject.'], button: 'Edit and Send Again' });
    assert.strictEqual(again.asked[0].value, long, 'the title typed last time');
    assert.strictEqual(again.asked[1].value, 'Inject.', 'the comment typed last time');
    assert.strictEqual(again.asked[2].value, long, 'sent again from what was refused');
    assert.deepStrictEqual(again.said, [
      `Could not submit your refactoring of ${code.title}: Title is too long (maximum is 200 characters)`,
      `Submitted Inject as a refactoring of ${code.title}.`,
    ]);
    assert.deepStrictEqual(await refactorsOf(code), [{ title: 'Inject', comment: 'Inject.', code: better }]);
    await waitFor(() => (draftTabs(diff.modified).length === 0 ? true : undefined), 'the draft\'s tab to close');
    await assertNoLogHolds(ana, bo);
  });

  it('keeps drafts of two codes at once, each submitting to its own code', async () => {
    const browser = await api();
    const [first, second] = [await anaCode(), await anaCode()];
    await signIn(bo);
    const one = await refactorRow(first);
    const two = await refactorRow(second);
    assert.notStrictEqual(one.modified.toString(), two.modified.toString());
    await edit(one.modified, 'total = prices.sum # one\n');
    await edit(two.modified, 'total = prices.sum # two\n');

    // The second (active) from the palette, then the first by its editor title's button.
    const sentTwo = await browser.runAnswering(Commands.submitRefactoring, { inputs: ['Two', 'Second.'] });
    assert.deepStrictEqual(sentTwo.said, [`Submitted Two as a refactoring of ${second.title}.`]);
    const sentOne = await browser.runAnswering(() => vscode.commands.executeCommand(Commands.submitRefactoring, one.modified), { inputs: ['One', 'First.'] });
    assert.deepStrictEqual(sentOne.said, [`Submitted One as a refactoring of ${first.title}.`]);
    assert.deepStrictEqual((await refactorsOf(first)).map((r) => [r.title, r.code]), [['One', 'total = prices.sum # one\n']]);
    assert.deepStrictEqual((await refactorsOf(second)).map((r) => [r.title, r.code]), [['Two', 'total = prices.sum # two\n']]);
    await assertNoLogHolds(ana, bo);
  });

  it('a saved draft outlives its editors: Refactor… again and its address both give it back, edits and code, and it still submits to its own code', async () => {
    const browser = await api();
    const code = await anaCode();
    await signIn(bo);
    const diff = await refactorRow(code);
    const kept = 'total = prices.sum # kept\n';
    const doc = await edit(diff.modified, kept);
    assert.ok(await doc.save(), 'saved');
    await closeAllEditors();
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(diff.modified)), kept, 'read back from storage');

    const again = await refactorRow(code);
    assert.strictEqual(again.modified.toString(), diff.modified.toString(), 'the same draft, not a second one');
    assert.strictEqual((await vscode.workspace.openTextDocument(again.modified)).getText(), kept);
    await closeAllEditors();

    // Its address alone (as a restored editor has after a reload) knows its code and its language.
    const reopened = await vscode.window.showTextDocument(diff.modified);
    assert.strictEqual(reopened.document.getText(), kept);
    await waitFor(() => (reopened.document.languageId === 'ruby' ? true : undefined), 'the draft in Ruby');
    const sent = await browser.runAnswering(Commands.submitRefactoring, { inputs: ['', 'Kept.'] });
    assert.strictEqual(sent.said.length, 1);
    assert.match(sent.said[0], new RegExp(`^Submitted Refactoring #\\d+ as a refactoring of ${code.title}\\.$`));
    assert.deepStrictEqual((await refactorsOf(code)).map((r) => r.code), [kept]);
    await waitFor(() => (vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === DRAFT_SCHEME) ? undefined : true), 'the draft\'s editor to close');
  });

  it('signed out offers Sign In; a draft of another service than the one configured now is not sent; on the built-in sample there is nothing to refactor', async () => {
    const browser = await api();
    const code = await anaCode();
    const declined = await browser.runAnswering(() => browser.runOnRow(Commands.refactorCode, ['Recent Codes', code.title]), {});
    assert.deepStrictEqual(declined.said, [`Sign in to ${host} to refactor its codes.`]);
    assert.strictEqual(vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff, false, 'no draft');

    const signedIn = await browser.runAnswering(() => browser.runOnRow(Commands.refactorCode, ['Recent Codes', code.title]), { button: 'Sign In…', input: bo });
    assert.deepStrictEqual(signedIn.said, [`Sign in to ${host} to refactor its codes.`, `Signed in to ${host} as Bo Berg.`]);
    const diff = await waitForDiff(`${code.title} ↔ Your Refactoring`);
    await edit(diff.modified, 'total = prices.sum\n');

    await useSettings({ baseUrl: undefined });
    const elsewhere = await browser.runAnswering(() => vscode.commands.executeCommand(Commands.submitRefactoring, diff.modified), { inputs: ['x', 'y'] });
    assert.deepStrictEqual(elsewhere.said, [
      `This draft refactors ${code.title} on ${host}, which is not the service configured now: set Refactor Browser: Base Url to ${new URL(service.url).href} to submit it.`,
    ]);
    assert.deepStrictEqual(elsewhere.asked, []);
    assert.deepStrictEqual(await refactorsOf(code), []);

    const sample = await browser.runAnswering(Commands.refactorCode, {});
    assert.strictEqual(sample.said.length, 1);
    assert.match(sample.said[0], /built-in sample catalog takes no contributions/);
    await closeAllEditors();
    const none = await browser.runAnswering(Commands.submitRefactoring, {});
    assert.deepStrictEqual(none.said, ['Open a draft first: Refactor… on a code makes one.']);
    await assertNoLogHolds(ana, bo);
  });
});
