// Refactor Browser's entry point: a composition root that builds the log channel, the service
// connection, the offline store and the Catalog view from the settings, registers them, and hands
// every Disposable to VS Code. Activation is lazy: the Catalog view or one of the commands
// (package.json); nothing is fetched before the view asks for its rows.
import * as vscode from 'vscode';
import { CatalogView } from './extension/catalog/view';
import { registerCodeCommands } from './extension/code/commands';
import { channelLogger, createLogChannel } from './extension/logChannel';
import { OfflineStore } from './extension/catalog/offlineStore';
import { ServiceConnection } from './extension/service';
import { onDidChangeSettings, readSettings, type Settings } from './extension/settings';
import { createTestApi, type RefactorBrowserApi } from './extension/testApi';

export type { RefactorBrowserApi } from './extension/testApi';

export function activate(context: vscode.ExtensionContext): RefactorBrowserApi {
  const channel = createLogChannel();
  const logger = channelLogger(channel);
  let settings = readSettings();
  const service = new ServiceConnection(settings, logger);
  const offline = new OfflineStore(context.globalState);
  const catalog = new CatalogView(service, settings, offline, logger);
  const tree = catalog.tree;
  const applied = new vscode.EventEmitter<Settings>();

  context.subscriptions.push(
    channel,
    service,
    catalog,
    applied,
    onDidChangeSettings((next) => {
      settings = next;
      service.update(next);
      catalog.update(next);
      applied.fire(next);
    }),
  );
  const codeCommands = registerCodeCommands({ context, service, tree, logger, showLog: () => channel.show(true) });
  context.subscriptions.push(codeCommands);
  return createTestApi({
    service, catalog, offline, codeViews: codeCommands.serializer, settings: () => settings, onDidApplySettings: applied.event,
    recentLog: () => logger.recent(),
  });
}

export function deactivate(): void {
  // Everything is in context.subscriptions, which VS Code disposes.
}
