// "The editor used last" (Insert at Cursor, Share Selection and Find Refactorings for This Code when a
// page such as the code view or the walkthrough has the focus) is one a person can still see in a
// tab. VS Code keeps a document an extension opened for minutes after its last editor closed
// (`isClosed` stays false), so a closed file must not come back to take the code. The file is in
// the workspace folder: on disk for the Node host, the server's through vscode-remote: for the
// browser's.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { Commands } from '../../../src/extension/common/commandIds';
import { closeAllEditors, fetchCode, waitForCodeViewTab } from '../codeViewHelpers';
import { resetState, waitFor } from '../helpers';

describe('The editor used last', function () {
  this.timeout(60_000);
  const file = (): vscode.Uri => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'used-last.rb');
  const ORIGINAL = 'class A\nend\n';
  before(resetState);
  afterEach(closeAllEditors);
  after(async () => {
    await vscode.workspace.fs.delete(file()).then(undefined, () => undefined);
    await resetState();
  });

  it('is not a file whose editor was closed, though VS Code still holds its document: Insert at Cursor opens a new one', async () => {
    const code = await fetchCode(1);
    await vscode.workspace.fs.writeFile(file(), new TextEncoder().encode(ORIGINAL));
    const document = await vscode.workspace.openTextDocument(file());
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    await closeAllEditors();
    // What made the mistake possible: the document is not closed for the extension host.
    assert.strictEqual(document.isClosed, false, 'VS Code closed the document with its editor (the case this test needs did not arise)');

    await vscode.commands.executeCommand(Commands.openCode, code.id);
    await waitForCodeViewTab(code.title);
    assert.strictEqual(vscode.window.activeTextEditor, undefined, 'the code view has the focus');
    await vscode.commands.executeCommand(Commands.insertAtCursor);
    const editorNow = await waitFor(() => vscode.window.activeTextEditor, 'an editor with the inserted code');
    assert.strictEqual(editorNow.document.uri.scheme, 'untitled', `inserted into ${editorNow.document.uri.toString()}`);
    assert.strictEqual(editorNow.document.getText(), code.code);
    assert.strictEqual(document.getText(), ORIGINAL, 'the closed file is left as it was');
  });
});
