// Refactor Browser's entry point: a composition root that builds the log channel, the service
// connection, the offline store and the Catalog view from the settings, registers them, and hands
// every Disposable to VS Code. Activation is lazy: the Catalog view or one of the commands
// (package.json); nothing is fetched before the view asks for its rows.
import * as vscode from 'vscode';
import { CatalogView } from './extension/catalog/view';
import { registerCodeCommands } from './extension/code/commands';
import { ErrorReporter } from './extension/errorReporting';
import { channelLogger, createLogChannel, recordingLogger } from './extension/logChannel';
import { OfflineStore } from './extension/catalog/offlineStore';
import { sampleCatalogReader, ServiceConnection } from './extension/service';
import { QueuedMemento } from './extension/globalStore';
import { ExtensionSettings } from './extension/settings';
import { createTestApi, type RefactorBrowserApi } from './extension/testApi';
import { SearchCommands } from './extension/search/commands';
import { SearchStore } from './extension/search/store';
import { registerStarCommands } from './extension/stars/commands';
import { Stars } from './extension/stars/stars';

export type { RefactorBrowserApi } from './extension/testApi';

/** The test API under test (extensionMode Test); nothing for other extensions in a user's VS Code. */
export function activate(context: vscode.ExtensionContext): RefactorBrowserApi | undefined {
  const underTest = context.extensionMode === vscode.ExtensionMode.Test;
  const channel = createLogChannel();
  const recording = underTest ? recordingLogger(channelLogger(channel)) : undefined;
  const logger = recording ?? channelLogger(channel);
  const errors = new ErrorReporter(logger, () => channel.show(true));
  // Every part that depends on a setting listens to this one object; the service subscribes first,
  // so that whatever the others do on a change reaches the service as now configured.
  const settings = new ExtensionSettings();
  const service = new ServiceConnection(settings, logger, sampleCatalogReader(context.extensionUri));
  // Every writer of the global state through one queue: overlapping writes can lose a key.
  const globalState = new QueuedMemento(context.globalState);
  const offline = new OfflineStore(globalState, {}, logger);
  // The list in the global state, synced to a person's other machines; the codes kept in files.
  const stars = new Stars(globalState, context.globalStorageUri, service, logger);
  const catalog = new CatalogView(service, settings, offline, stars, logger, errors);
  // Under the extension's global storage: big, per machine, and never synced.
  const search = new SearchStore(context.globalStorageUri, logger, underTest ? { saveDelayMs: 100 } : {});

  context.subscriptions.push(
    channel,
    settings,
    service,
    catalog,
    search,
    stars,
    service.onDidSight(({ service: name, sighting }) => search.sight(name, sighting)),
  );
  const codeCommands = registerCodeCommands({ context, service, tree: catalog.tree, logger, errors, stars, settings });
  const searchCommands = new SearchCommands({
    service, store: search, errors,
    language: () => catalog.language(),
    tags: () => settings.current.tags,
    open: (codeId, refactorId) => codeCommands.codeViews.open(codeId, refactorId),
  });
  const starCommands = registerStarCommands({ stars, errors, currentCode: () => codeCommands.codeViews.currentCode() });
  context.subscriptions.push(codeCommands, searchCommands, starCommands);
  if (!recording) return undefined;
  return createTestApi({
    service, catalog, offline, codeViews: codeCommands.codeViews, settings,
    search, searchCommands, stars,
    recentLog: () => recording.recent(),
  });
}

export function deactivate(): void {
  // Everything is in context.subscriptions, which VS Code disposes.
}
