// Remote windows (SSH, WSL, containers, Codespaces): package.json's extensionKind puts the extension
// beside the workspace ([workspace, ui]). VS Code's server here is such a remote: the workspace
// folder is on the server (the browser's workbench reaches it as vscode-remote:), and the extension
// runs in the server's extension host, where those files are its own. Insert at Cursor and Compare with Active Editor act on an editor of a file in that
// remote workspace: the edit is saved to the server's file, the diff shows that file.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { Commands } from '../../src/extension/common/commandIds';
import { closeAllEditors, codeRow, fetchCode, waitForDiff } from './codeViewHelpers';
import { extension, resetState, waitFor } from './helpers';

describe('In a remote window', function () {
  this.timeout(60_000);
  const file = (): vscode.Uri => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'remote-insert.rb');
  before(resetState);
  afterEach(closeAllEditors);
  after(async () => {
    await vscode.workspace.fs.delete(file()).then(undefined, () => undefined);
    await resetState();
  });

  it('runs beside the workspace, in the remote extension host', () => {
    assert.ok(vscode.env.remoteName, 'a remote window');
    // Beside the workspace, the extension sees the remote's files as its own `file:` URIs.
    assert.strictEqual(vscode.workspace.workspaceFolders?.[0].uri.scheme, 'file');
    assert.strictEqual(extension().extensionKind, vscode.ExtensionKind.Workspace);
    assert.deepStrictEqual((extension().packageJSON as { extensionKind: string[] }).extensionKind, ['workspace', 'ui']);
  });

  it('inserts into, and compares with, an editor of a file in the remote workspace', async () => {
    const code = await fetchCode(1);
    await vscode.workspace.fs.writeFile(file(), new TextEncoder().encode('class A\nend\n'));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file()));
    editor.selection = new vscode.Selection(1, 0, 1, 0);
    await vscode.commands.executeCommand(Commands.insertAtCursor, codeRow(code));
    const expected = `class A\n${code.code}end\n`;
    await waitFor(() => (editor.document.getText() === expected ? true : undefined), 'the inserted code');
    assert.ok(await editor.document.save(), 'saved');
    assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(file())), expected, 'the server\'s file holds the code');

    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand(Commands.compareWithEditor, codeRow(code));
    const diff = await waitForDiff(`${code.title} ↔ remote-insert.rb`);
    assert.strictEqual(diff.modified.toString(), file().toString(), 'the right side is the remote file itself');
  });
});
