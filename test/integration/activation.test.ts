// Lazy activation: the extension costs nothing until its view or one of its commands is used.
// index.ts runs this file first, since any other test activates the extension.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { extension, waitFor } from './helpers';

describe('Activation', () => {
  after(async () => {
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  it('waits for the Catalog view to be shown, then activates', async () => {
    const ext = extension();
    assert.strictEqual(ext.isActive, false, 'activated before anything asked for it (an eager activation event?)');
    // What clicking the activity-bar item does.
    await vscode.commands.executeCommand('workbench.view.extension.refactorBrowser');
    await waitFor(() => ext.isActive || undefined, 'the extension to activate when its view is shown');
    const api = ext.exports;
    assert.ok(api && typeof api.treeRows === 'function', 'activate() returned no test API');
  });
});
