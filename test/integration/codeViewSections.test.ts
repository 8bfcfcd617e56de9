// A code in sections (`## Title [Language]` lines) inside VS Code, from the code view's messages on:
// Insert at Cursor and Copy of one section take exactly that section's text (in its own language for
// a new document), the whole block stays verbatim, and a section the block does not have is ignored.
// The buttons that send these messages: codeViewSections.ui.test.ts.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import sampleJson from '../../src/server/catalog/sample-catalog.json';
import { Commands } from '../../src/extension/common/commandIds';
import { closeAllEditors, untitledEditor, waitForCodeViewTab } from './codeViewHelpers';
import { api, resetState, useSettings, waitFor } from './helpers';
import { startService, type RunningService } from './services';

const MODEL = 'class Greeter\n  def hi\n    "hi"\n  end\nend\n\n';
const SPEC = 'describe Greeter do\n  it "says hi" do\n    Greeter.new.hi.should == "hi"\n  end\nend\n\n';
const RUN = 'spec greeter_spec.rb\n';
const CODE = `## greeter.rb\n${MODEL}## greeter_spec.rb\n${SPEC}## Run it [Bash]\n${RUN}`;
const REFACTOR = '# One file will do.\n\n## greeter.rb\nclass Greeter\n  def hi = "hi"\nend\n';

function catalog(): unknown {
  return {
    users: sampleJson.users,
    codes: [{ ...sampleJson.codes[0], id: 201, title: 'Greeter and its spec', language: 'Ruby', permalink: 'greeter', code: CODE }],
    refactors: [{ ...sampleJson.refactors[0], id: 202, codeId: 201, title: 'Endless method', code: REFACTOR }],
  };
}

describe('Code view sections', function () {
  this.timeout(60_000);
  let service: RunningService;

  before(async () => {
    await resetState();
    service = await startService(catalog());
    await useSettings({ baseUrl: service.url });
  });
  afterEach(closeAllEditors);
  after(async () => {
    await closeAllEditors();
    await resetState();
    await service.close();
  });

  /** Opens the code's view and waits until it shows the code (its tab then has the code's title). */
  async function openView(): Promise<void> {
    await vscode.commands.executeCommand(Commands.openCode, 201);
    await waitForCodeViewTab('Greeter and its spec');
  }

  /** What the view's buttons send for the code (or, with `refactor`, the refactoring), and waits for it to be done. */
  async function send(type: 'insert' | 'copy' | 'openDocument', section?: unknown, refactor = false): Promise<void> {
    const target = { kind: refactor ? 'refactor' : 'code', id: refactor ? 202 : 201, ...(section === undefined ? {} : { section }) };
    await (await api()).codeViewMessage(201, { type, target });
  }

  it('inserts exactly the second section at the cursor, and the whole code verbatim from the block', async () => {
    const editor = await untitledEditor('', 'ruby');
    await openView();
    await send('insert', 1);
    // As any insertion at an empty line: without the text's final line break.
    assert.strictEqual(editor.document.getText(), SPEC.slice(0, -1));

    // Emptied by an edit, not by Undo: with the code view focused, VS Code sends `undo` to the webview
    // once it has heard of that focus, which on a loaded machine it sometimes has and sometimes not.
    // (Insert at Cursor as one undo step: shared/insert.test.ts here, where the editor has focus.)
    const clear = new vscode.WorkspaceEdit();
    clear.delete(editor.document.uri, new vscode.Range(0, 0, editor.document.lineCount, 0));
    assert.ok(await vscode.workspace.applyEdit(clear));
    assert.strictEqual(editor.document.getText(), '');
    await send('insert');
    assert.strictEqual(editor.document.getText(), CODE.slice(0, -1));
  });

  it('copies a section\'s text, and the whole code from the block', async () => {
    await openView();
    await send('copy', 0);
    assert.strictEqual(await vscode.env.clipboard.readText(), MODEL);
    await send('copy', 2);
    assert.strictEqual(await vscode.env.clipboard.readText(), RUN);
    await send('copy');
    assert.strictEqual(await vscode.env.clipboard.readText(), CODE);
  });

  it('inserts a section into a new document in the section\'s language when no editor is open', async () => {
    await openView();
    assert.strictEqual(vscode.window.activeTextEditor, undefined);
    await send('insert', 2);
    const editor = await waitFor(() => vscode.window.activeTextEditor, 'a new document');
    assert.strictEqual(editor.document.uri.scheme, 'untitled');
    assert.strictEqual(editor.document.languageId, 'shellscript');
    assert.strictEqual(editor.document.getText(), RUN);
  });

  it('takes a refactoring\'s sections the same way: text before the first heading is a section of its own', async () => {
    const editor = await untitledEditor('', 'ruby');
    await openView();
    await send('copy', 0, true);
    assert.strictEqual(await vscode.env.clipboard.readText(), '# One file will do.\n\n');
    await send('insert', 1, true);
    assert.strictEqual(editor.document.getText(), 'class Greeter\n  def hi = "hi"\nend');
  });

  it('ignores a section the block does not have, or one that is no index, and opens the whole block as a document', async () => {
    const editor = await untitledEditor('', 'ruby');
    await openView();
    await send('insert', 3);
    await send('insert', '1');
    await send('insert', -1);
    assert.strictEqual(editor.document.getText(), '');
    const log = (await api()).recentLog();
    assert.ok(log.some((l) => l.includes('ignored insert of section 3 of Greeter and its spec, which has 3')), log.slice(-5).join('\n'));

    await send('openDocument', 1);
    const shown = await waitFor(() => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === 'refactor-browser' ? e : undefined;
    }, 'the code as a document');
    assert.strictEqual(shown.document.getText(), CODE);
  });
});
