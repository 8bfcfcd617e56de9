// Share Selection as Code… as a person does it, against the writable reference service: select lines
// with the keyboard, right-click the selection, answer the title, write a comment of several lines in
// the scratch Markdown editor and finish it as its message says, give tags, read the preview and
// share; the code view opens on the new code and Recent Codes lists it first. A share the service
// refuses (a blank title) says why, and Edit and Send Again asks again with everything typed kept.
// The preview is a modal dialog, which VS Code does not show while extension tests run: the test API
// answers it and the test reads what it would show. Saves media/screenshots/share.png (the comment
// being written) for the README.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { Commands } from '../../src/extension/common/commandIds';
import { closeAllEditors, endContributingUi, showRoot, startContributingUi, TREE_ROWS, untitledEditor, waitForCodeViewTab, webviewText } from './codeViewHelpers';
import { api, signIn, useSettings, waitFor } from './helpers';
import { startWritable, type WritableTestService } from './services';
import type { Ui } from './ui';

const QUICK_INPUT = '.quick-input-widget';
const EDITOR = '.editor-group-container.active .monaco-editor';
const TOAST = '.notifications-toasts .notification-toast';
/** The check mark in the comment editor's title. */
const USE_AS_COMMENT = '.editor-group-container.active .editor-actions .action-label[aria-label^="Use as Comment"]';
const COMMENT_PROMPT = 'Write the comment on';

describe('Share Selection as Code (UI)', function () {
  this.timeout(120_000);
  let ui: Ui;
  let service: WritableTestService;

  before(async function () {
    ui = await startContributingUi(this);
    service = await startWritable();
    const token = await service.addPerson('Ana Lima');
    await useSettings({ baseUrl: service.url });
    await signIn(token);
    assert.ok(await (await api()).session(), 'signed in');
    await vscode.commands.executeCommand('workbench.view.extension.refactorBrowser');
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await closeAllEditors();
  });
  after(async () => {
    await endContributingUi();
    await service?.close();
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  /**
   * Opens `content` in an editor, selects lines `from` to `to` with the keyboard (a click on the first,
   * Home, Shift+Down) and right-clicks the selection for Share Selection as Code…; returns the selection.
   */
  async function shareLines(content: string, language: string, from: number, to: number): Promise<string> {
    const editor = await untitledEditor(content, language);
    const lines = content.split('\n');
    await ui.click({ css: `${EDITOR} .view-line > span`, hasText: lines[from].trim() });
    await ui.press('Home');
    for (let i = from; i <= to; i++) await ui.press('Shift+ArrowDown');
    const wanted = new vscode.Selection(to + 1, 0, from, 0);
    await waitFor(() => (editor.selection.isEqual(wanted) ? true : undefined), `lines ${from + 1} to ${to + 1} selected`)
      .catch((err: Error) => assert.fail(`${err.message}: ${JSON.stringify(editor.selection)}`));
    // On the selection's middle line: a right-click outside a selection would move the cursor there instead.
    await ui.contextMenu({ css: `${EDITOR} .view-line > span`, hasText: lines[Math.floor((from + to) / 2)].trim() }, 'Share Selection as Code…');
    assert.ok(!editor.selection.isEmpty, 'the right-click kept the selection');
    return editor.document.getText(editor.selection);
  }

  /** Answers the quick input titled `title` with `text`, typed over what it holds, and Enter. */
  async function answer(title: string, text: string): Promise<void> {
    await ui.waitFor({ css: `${QUICK_INPUT} .quick-input-title`, hasText: title });
    await ui.press('ControlOrMeta+a');
    if (text) await ui.type(text);
    else await ui.press('Delete');
    await ui.press('Enter');
    await ui.waitFor({ css: `${QUICK_INPUT} .quick-input-title`, hasText: title }, 'hidden');
  }

  /** Waits for the scratch comment editor to be the focused editor, showing `holding`. */
  async function commentEditor(holding: string): Promise<void> {
    await waitFor(() => (vscode.window.activeTextEditor?.document.languageId === 'markdown' ? true : undefined), 'the comment editor');
    await ui.waitFor({ css: `${EDITOR}.focused` });
    let shown = '';
    await waitFor(async () => ((shown = await ui.editorText()) === holding ? true : undefined), `the comment editor to show ${JSON.stringify(holding)}`)
      .catch((err: Error) => assert.fail(`${err.message}: ${JSON.stringify(shown)}`));
  }

  /** Types `lines` into the focused comment editor, checking them on screen. */
  async function writeComment(lines: string[]): Promise<void> {
    for (const [i, line] of lines.entries()) {
      if (i > 0) await ui.press('Enter');
      if (line) await ui.type(line);
    }
    await waitFor(async () => ((await ui.editorText()) === lines.join('\n') ? true : undefined), 'the comment on screen')
      .catch(async (err: Error) => assert.fail(`${err.message}: ${JSON.stringify(await ui.editorText())}`));
  }

  /** Waits for the code view of `title` showing `codeLine`, and Recent Codes headed by it. */
  async function shared(title: string, codeLine: string): Promise<void> {
    await waitForCodeViewTab(title, 20_000);
    await webviewText(ui, [title, codeLine]);
    await showRoot(ui, 'Recent Codes');
    await waitFor(async () => {
      const [first] = await ui.query({ css: `${TREE_ROWS}[aria-level="2"]` }, [], 1);
      return first.text.startsWith(title) ? true : undefined;
    }, `"${title}" first in Recent Codes`, 15_000);
  }

  /**
   * Runs `steps` with the preview answered Share (VS Code refuses to show a modal dialog while
   * extension tests run: the test API answers it, and only it); resolves to each preview's text.
   */
  async function previewsWhile(steps: () => Promise<void>): Promise<string[]> {
    return (await (await api()).runAnswering(steps, { onlyModals: true })).confirmed;
  }

  it('shares the selection picked from the editor\'s context menu, with a comment of several lines written in its editor', async () => {
    const comment = ['A loop where sum would do.', '', 'How would you write it?'];
    let code = '';
    const previews = await previewsWhile(async () => {
      code = await shareLines('# before\ndef total(xs):\n    n = 0\n    for x in xs: n += x\n    return n\n# after\n', 'python', 1, 4);
      await answer('Share Selection as Code (1/3)', 'Sum with a loop');
      await commentEditor('');
      const [prompt] = await ui.query({ css: TOAST, hasText: COMMENT_PROMPT }, [], 1);
      assert.ok(prompt.text.includes('Write the comment on "Sum with a loop" in this editor (several lines are welcome), then choose Use as Comment (✓) above it.'), prompt.text);
      await writeComment(comment);
      await ui.screenshot('share');
      // Escape, as while writing, hides the message: Use as Comment stays where the comment is.
      await ui.press('Escape');
      await ui.waitFor({ css: TOAST, hasText: COMMENT_PROMPT }, 'hidden');
      await ui.click({ css: USE_AS_COMMENT });
      await answer('Share Selection as Code (3/3)', 'loops python');
      await shared('Sum with a loop', 'for x in xs: n += x');
    });
    assert.strictEqual(code, 'def total(xs):\n    n = 0\n    for x in xs: n += x\n    return n\n');
    assert.deepStrictEqual(previews, [
      `Share this code with ${new URL(service.url).host}?\nTitle: Sum with a loop\nLanguage: Python\nTags: loops python\nCode: 4 lines\nComment:\n${comment.join('\n')}`,
    ]);
    const sent = (await api()).currentCode();
    assert.strictEqual(sent?.code, code, 'the selection, verbatim');
    assert.strictEqual(sent?.comment, comment.join('\n'));
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.languageId === 'markdown' && !d.isClosed && d.isDirty), 'the comment editor went without a save prompt');
  });

  it('says why the service refused a blank title, and Edit and Send Again asks again with everything typed kept', async () => {
    const comment = ['Why assign first?', 'The value is used once.'];
    const previews = await previewsWhile(async () => {
      await shareLines('x = 1\nputs x\n', 'ruby', 0, 1);
      await answer('Share Selection as Code (1/3)', '');
      await commentEditor('');
      await writeComment(comment);
      // Ctrl+Enter in the editor takes the comment too, and the message saying what to do goes with it.
      await ui.press('ControlOrMeta+Enter');
      await ui.waitFor({ css: TOAST, hasText: COMMENT_PROMPT }, 'hidden');
      await answer('Share Selection as Code (3/3)', 'ruby');

      const [refusal] = await ui.query({ css: TOAST, hasText: 'Could not share the code' }, [], 1);
      assert.ok(refusal.text.includes("Title can't be blank"), refusal.text);
      await ui.click({ css: `${TOAST} .monaco-button`, hasText: 'Edit and Send Again' });

      // The title asked again with the reason beside it.
      await ui.waitFor({ css: QUICK_INPUT, hasText: "Title can't be blank" });
      await answer('Share Selection as Code (1/3)', 'Printing a number');
      await commentEditor(comment.join('\n'));
      await ui.click({ css: USE_AS_COMMENT });
      await ui.waitFor({ css: `${QUICK_INPUT} .quick-input-title`, hasText: 'Share Selection as Code (3/3)' });
      const [tags] = await ui.dom({ css: `${QUICK_INPUT} input.input` });
      assert.strictEqual(tags.value, 'ruby', 'the tags as typed');
      await ui.press('Enter');
      await shared('Printing a number', 'puts x');
    });
    assert.strictEqual(previews.length, 2);
    assert.ok(previews[0].includes('\nTitle: \n'), previews[0]);
    assert.ok(previews[1].includes('\nTitle: Printing a number\n'), previews[1]);
  });

  it('stops sharing, asking nothing more, when the comment editor is closed or its message\'s Cancel is chosen', async () => {
    for (const stop of ['close the editor', 'Cancel'] as const) {
      const editor = await untitledEditor('a = 1\n', 'ruby');
      editor.selection = new vscode.Selection(0, 0, 1, 0);
      // The command itself, so that its end shows: it must end without asking for the tags.
      const run = (await api()).runAnswering(Commands.shareSelection, { onlyModals: true });
      await answer('Share Selection as Code (1/3)', 'Never finished');
      await commentEditor('');
      await ui.type('Half a thought');
      if (stop === 'Cancel') await ui.click({ css: `${TOAST} .monaco-button`, hasText: 'Cancel' });
      // What Don't Save does when the editor is closed (VS Code shows no save dialog while tests run).
      else await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      let timer: ReturnType<typeof setTimeout> | undefined;
      const { confirmed } = await Promise.race([
        run,
        new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`sharing went on after "${stop}"`)), 15_000); }),
      ]).finally(() => clearTimeout(timer));
      assert.deepStrictEqual(confirmed, [], 'nothing sent');
      await ui.waitFor({ css: TOAST, hasText: COMMENT_PROMPT }, 'hidden');
      assert.ok(!vscode.workspace.textDocuments.some((d) => d.languageId === 'markdown' && !d.isClosed), `the comment editor is gone after "${stop}"`);
      await closeAllEditors();
    }
  });
});
