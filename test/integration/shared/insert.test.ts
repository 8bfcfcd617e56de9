// Insert at Cursor inside VS Code against the reference service: the exact text an editor holds
// afterwards, with the cursor line's indentation, the document's line endings, `$` kept literal,
// several cursors and a selection in one undo step, an untitled document when no editor is open,
// and the palette command working on the code view's code.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { Code } from '../../../src/core/model';
import sampleJson from '../../../src/server/catalog/sample-catalog.json';
import { Commands } from '../../../src/extension/common/commandIds';
import { closeAllEditors, codeRow, fetchCode, untitledEditor, waitForCodeViewTab } from '../codeViewHelpers';
import { resetState, useSettings } from '../helpers';
import { startService, type RunningService } from '../services';

const GREET = 'def greet(name)\n  puts "Hi #{name}"\nend\n';
const DOLLARS = 'echo "$1 ${name} $$ \\${x} `date`"\nprintf "%s" "${TM_FILENAME}"\n';

function catalog(): unknown {
  const base = sampleJson.codes[0];
  return {
    users: sampleJson.users,
    codes: [
      { ...base, id: 101, title: 'Greet a person', language: 'Ruby', permalink: 'greet-a-person', code: GREET },
      { ...base, id: 102, title: 'Echo with dollars', language: 'Bash', permalink: 'echo-with-dollars', code: DOLLARS },
    ],
    refactors: [],
  };
}

describe('Insert at Cursor', function () {
  this.timeout(60_000);
  let service: RunningService;
  let greet: Code;
  let dollars: Code;

  before(async () => {
    await resetState();
    service = await startService(catalog());
    await useSettings({ baseUrl: service.url });
    [greet, dollars] = await Promise.all([fetchCode(101), fetchCode(102)]);
  });
  afterEach(closeAllEditors);
  after(async () => {
    await closeAllEditors();
    await resetState();
    await service.close();
  });

  const insert = (code: Code): Thenable<unknown> => vscode.commands.executeCommand(Commands.insertAtCursor, codeRow(code));

  it('re-indents lines 2..n to the cursor line and adds no blank line at the end of a line', async () => {
    const editor = await untitledEditor('class A\n    \nend\n', 'ruby');
    editor.selection = new vscode.Selection(1, 4, 1, 4);
    await insert(greet);
    assert.strictEqual(editor.document.getText(), 'class A\n    def greet(name)\n      puts "Hi #{name}"\n    end\nend\n');
  });

  it("writes the document's CRLF line endings and moves text after the cursor to its own line", async () => {
    const editor = await untitledEditor('a\r\n  b\r\n');
    assert.strictEqual(editor.document.eol, vscode.EndOfLine.CRLF);
    editor.selection = new vscode.Selection(1, 2, 1, 2);
    await insert(greet);
    assert.strictEqual(editor.document.getText(), 'a\r\n  def greet(name)\r\n    puts "Hi #{name}"\r\n  end\r\n  b\r\n');
  });

  it('keeps $1, ${name}, $$ and backticks literal (never a snippet)', async () => {
    const editor = await untitledEditor('');
    await insert(dollars);
    assert.strictEqual(editor.document.getText(), DOLLARS.slice(0, -1));
  });

  it('inserts at every cursor, replacing a selection, as one undo step', async () => {
    const original = 'x = 1\n  y = 2\n    z\n';
    const editor = await untitledEditor(original);
    editor.selections = [new vscode.Selection(1, 2, 1, 2), new vscode.Selection(2, 4, 2, 5)];
    await insert(greet);
    assert.strictEqual(editor.document.getText(),
      'x = 1\n  def greet(name)\n    puts "Hi #{name}"\n  end\n  y = 2\n    def greet(name)\n      puts "Hi #{name}"\n    end\n');
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), original);
  });

  it('opens an untitled document in the code\'s language when no editor is open', async () => {
    await closeAllEditors();
    const active = (): vscode.TextEditor | undefined => vscode.window.activeTextEditor;
    assert.strictEqual(active(), undefined);
    await insert(dollars);
    const editor = active();
    assert.ok(editor, 'an editor should be open');
    assert.strictEqual(editor.document.uri.scheme, 'untitled');
    assert.strictEqual(editor.document.languageId, 'shellscript');
    assert.strictEqual(editor.document.getText(), DOLLARS);
  });

  it("from the command palette, inserts the code view's code into the editor used last", async () => {
    const editor = await untitledEditor('# here:\n', 'ruby');
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    await vscode.commands.executeCommand(Commands.openCode, greet.id);
    await waitForCodeViewTab(greet.title);
    // The code view has focus: VS Code has no active text editor now.
    assert.strictEqual(vscode.window.activeTextEditor, undefined);
    await vscode.commands.executeCommand(Commands.insertAtCursor);
    assert.strictEqual(editor.document.getText(), `# here:\n${GREET.slice(0, -1)}`);
  });
});
