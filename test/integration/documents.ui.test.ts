// A virtual document as a person meets it: typing into it changes nothing.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { Commands } from '../../src/extension/common/commandIds';
import { closeAllEditors, codeRow, fetchCode } from './codeViewHelpers';
import { resetState, waitFor } from './helpers';
import { uiOrSkip, type Ui } from './ui';

describe('Virtual documents (UI)', function () {
  this.timeout(60_000);
  let ui: Ui;

  before(async function () {
    ui = uiOrSkip(this);
    await resetState();
  });
  after(async () => {
    await closeAllEditors();
    await resetState();
  });

  it('cannot be typed into', async () => {
    const code = await fetchCode(1);
    await vscode.commands.executeCommand(Commands.openAsDocument, codeRow(code));
    const editor = await waitFor(() => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === 'refactor-browser' ? e : undefined;
    }, 'the document');
    // What the editor shows, once it has rendered the document.
    const firstLine = code.code.split('\n')[0];
    const before = await waitFor(async () => {
      const text = await ui.editorText();
      return text.replace(/\u00a0/g, ' ').startsWith(firstLine) ? text : undefined;
    }, 'the document on screen');
    await ui.click({ css: '.editor-group-container.active .monaco-editor .view-lines' });
    await ui.type('typed');
    await ui.waitFor({ css: '.monaco-editor-overlaymessage', hasText: 'read-only' });
    assert.strictEqual(editor.document.getText(), code.code);
    assert.strictEqual(await ui.editorText(), before);
  });
});
