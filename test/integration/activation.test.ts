// Lazy activation: the extension costs nothing until its view or one of its commands is used, and it
// asks nothing of the network (nor starts the sample service) until the Catalog view is shown.
// index.ts runs this file first, since any other test activates the extension.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { RefactorBrowserApi } from '../../src/extension/testApi';
import { Commands } from '../../src/extension/common/commandIds';
import { extension, waitFor } from './helpers';

/** What the log says went over the network: requests, and the sample service starting. */
function networkLines(api: RefactorBrowserApi): string[] {
  return api.recentLog().filter((l) => /\bGET\b|listening on/.test(l));
}

describe('Activation', () => {
  after(async () => {
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  it('activates on one of its commands, and fetches nothing while the view is hidden', async () => {
    const ext = extension();
    assert.strictEqual(ext.isActive, false, 'activated before anything asked for it (an eager activation event?)');
    // Refresh from the palette, before the Catalog was ever shown.
    await vscode.commands.executeCommand(Commands.refresh);
    await waitFor(() => ext.isActive || undefined, 'the extension to activate when its command runs');
    const api = ext.exports;
    assert.ok(api && typeof api.treeRows === 'function', 'activate() returned no test API');
    // Give a stray eager fetch the time it would need on loopback.
    await new Promise((r) => setTimeout(r, 500));
    assert.deepStrictEqual(networkLines(api), [], 'nothing may be fetched before the view is shown');
  });

  it('fetches a list, from the sample catalog answered in process, only once the list is expanded', async () => {
    const api = extension().exports;
    // What clicking the activity-bar item does: the four roots need nothing from the network.
    await vscode.commands.executeCommand('workbench.view.extension.refactorBrowser');
    assert.strictEqual((await api.treeRows()).length, 4);
    assert.deepStrictEqual(networkLines(api), [], 'showing the roots fetched something');
    const rows = await api.treeRows(['Recent Codes']);
    assert.ok(rows.length > 0, 'Recent Codes lists the sample');
    const lines = networkLines(api);
    assert.ok(lines.some((l) => l.startsWith('info GET the built-in sample catalog\'s /codes/recent.xml -> 200')), lines.join('\n'));
  });
});
