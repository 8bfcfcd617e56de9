// Refactor Browser's entry point: a composition root that builds the log channel, the service
// connection and the Catalog tree from the settings, registers them, and hands every Disposable to
// VS Code. Activation is lazy: the Catalog view or one of the commands (package.json).
import * as vscode from 'vscode';
import { CatalogTreeProvider } from './extension/catalogTree';
import { registerCodeFeatures } from './extension/codeFeatures';
import { channelLogger, createLogChannel } from './extension/logChannel';
import { ServiceConnection } from './extension/service';
import { onDidChangeSettings, readSettings, type Settings } from './extension/settings';
import { createTestApi, type RefactorBrowserApi } from './extension/testApi';

export type { RefactorBrowserApi } from './extension/testApi';

export function activate(context: vscode.ExtensionContext): RefactorBrowserApi {
  const channel = createLogChannel();
  const logger = channelLogger(channel);
  let settings = readSettings();
  const service = new ServiceConnection(settings, logger);
  const tree = new CatalogTreeProvider(service, settings, logger);
  const applied = new vscode.EventEmitter<Settings>();

  context.subscriptions.push(
    channel,
    service,
    tree,
    applied,
    vscode.window.createTreeView('refactorBrowser.catalog', { treeDataProvider: tree, showCollapseAll: true }),
    vscode.commands.registerCommand('refactorBrowser.refresh', () => tree.refresh()),
    onDidChangeSettings((next) => {
      settings = next;
      service.update(next);
      tree.update(next);
      applied.fire(next);
    }),
  );
  context.subscriptions.push(registerCodeFeatures({ context, service, tree, logger, showLog: () => channel.show(true) }));
  return createTestApi(service, tree, () => settings, applied.event);
}

export function deactivate(): void {
  // Everything is in context.subscriptions, which VS Code disposes.
}
