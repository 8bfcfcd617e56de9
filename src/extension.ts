// Refactor Browser's entry point: a composition root that builds the settings, the log channel, the
// service connection, the stores, the Catalog view and the code views, registers each feature's
// commands, and hands every Disposable to VS Code. Activation is lazy: the Catalog view or one of
// the commands (package.json); nothing is fetched before the view asks for its rows.
import * as vscode from 'vscode';
import { Accounts } from './extension/accounts/accounts';
import { registerAgentTools } from './extension/agents/tools';
import { accountUi, registerAccountCommands } from './extension/accounts/commands';
import { sessionAsker } from './extension/accounts/session';
import { registerWriteCommands } from './extension/rateDelete/commands';
import { registerCatalogCommands } from './extension/catalog/commands';
import { CatalogView } from './extension/catalog/view';
import { codeViewActions, registerCodeCommands } from './extension/code/commands';
import { CodeDocuments } from './extension/code/documents';
import { EditorTracker } from './extension/code/editorTracker';
import { CodeViewPanels } from './extension/code/view/panel';
import { registerDraftCommands } from './extension/drafts/commands';
import { Drafts } from './extension/drafts/drafts';
import { ErrorReporter } from './extension/common/errorReporting';
import { channelLogger, createLogChannel, recordingLogger } from './extension/common/logChannel';
import { OfflineStore } from './extension/catalog/offlineStore';
import { sampleCatalogReader, ServiceConnection } from './extension/service';
import { QueuedMemento } from './extension/common/globalStore';
import { ExtensionSettings } from './extension/common/settings';
import { createTestApi, type RefactorBrowserApi } from './extension/testApi';
import { CommentEditors } from './extension/share/commentEditor';
import { registerShareCommands, shareUi } from './extension/share/commands';
import { registerSearchCommands, type SearchDeps } from './extension/search/commands';
import { SearchStore } from './extension/search/store';
import { registerSimilarCommands, SimilarLoader } from './extension/similar/commands';
import { registerStarCommands } from './extension/stars/commands';
import { Stars } from './extension/stars/stars';

export type { RefactorBrowserApi } from './extension/testApi';

/**
 * The test API under test (extensionMode Test) in a test build; nothing for other extensions in a
 * user's VS Code, whose bundle has no test API at all.
 */
export function activate(context: vscode.ExtensionContext): RefactorBrowserApi | undefined {
  const underTest = context.extensionMode === vscode.ExtensionMode.Test;
  const channel = createLogChannel();
  // Under test in a test build only: the packaging build leaves the test API out (TEST_API false).
  const recording = TEST_API && underTest ? recordingLogger(channelLogger(channel)) : undefined;
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
  const catalog = new CatalogView(service, settings, offline, stars, logger);
  // Under the extension's global storage: big, per machine, and never synced.
  const search = new SearchStore(context.globalStorageUri, logger, underTest ? { saveDelayMs: 100 } : {});
  const docs = new CodeDocuments(service);
  const editors = new EditorTracker();
  // Tokens in SecretStorage only: never in settings or the (synced) global state.
  const accounts = new Accounts(context.secrets, service, settings);
  // Their serializer is what VS Code calls to restore the code views after a reload.
  const codeViews = new CodeViewPanels(context.extensionUri, service, logger, codeViewActions({ docs, editors, errors, stars }), settings, stars, accounts,
    () => search.of(service.name()).index());
  // Sign In's questions and Share's in one object, which the test API answers.
  const comments = new CommentEditors(errors);
  const ui = shareUi(accountUi(), comments);
  const signedIn = sessionAsker(accounts, service, ui);
  // Drafts of refactorings, kept under global storage: they outlive a window reload.
  const drafts = new Drafts(context.globalStorageUri);
  /** After a write: what the client held may show the old rating or the deleted item, so every answer is asked for again. */
  const afterWrite = async (codeId: number, codeDeleted: boolean): Promise<void> => {
    (await service.getClient()).expire();
    catalog.tree.refresh();
    // Asked here, so that search hears the change even with no code view open.
    if (!codeDeleted) await (await service.getClient()).code(codeId).catch(() => undefined);
    await codeViews.changed(codeId, codeDeleted);
  };
  // Fingerprints beside each service's search index; the engine and its grammars load on first use.
  const similar = new SimilarLoader({ extensionUri: context.extensionUri, store: search, service, logger });
  const searchDeps: SearchDeps = {
    service, store: search, errors,
    language: () => catalog.language(),
    settings,
    open: (codeId, refactorId) => codeViews.open(codeId, refactorId),
  };

  context.subscriptions.push(
    channel,
    settings,
    service,
    catalog,
    search,
    stars,
    docs,
    editors,
    codeViews,
    service.onDidFetch(({ service: name, items }) => search.addFetched(name, items)),
    registerCatalogCommands({ tree: catalog.tree, settings, language: () => catalog.language(), errors }),
    registerCodeCommands({ service, docs, editors, codeViews, tree: catalog.tree, logger, errors, settings }),
    registerSearchCommands(searchDeps),
    registerSimilarCommands({
      extensionUri: context.extensionUri, store: search, service, logger, errors,
      editor: () => editors.selecting(),
      open: (codeId, refactorId) => codeViews.open(codeId, refactorId),
      snapshot: async (text, serviceLanguage, languageId) => {
        const uri = docs.snapshotUri(text, serviceLanguage);
        const doc = await vscode.workspace.openTextDocument(uri);
        if (doc.languageId !== languageId) await vscode.languages.setTextDocumentLanguage(doc, languageId);
        return uri;
      },
      refactorDocument: async (refactor) => (await docs.openItem({ kind: 'refactor', refactor })).uri,
    }, similar),
    registerAgentTools({ service, search, similar: (code, language) => similar.matches(code, language) }),
    registerStarCommands({ stars, errors, currentCode: () => codeViews.currentCode() }),
    accounts,
    comments,
    registerAccountCommands({ accounts, service, errors, logger, ui }),
    registerShareCommands({
      signedIn, settings, errors, logger, ui,
      editor: () => editors.selecting(),
      open: (codeId) => codeViews.open(codeId),
      refreshCatalog: () => catalog.tree.refresh(),
    }),
    registerWriteCommands({ signedIn, service, errors, logger, ui, currentCode: () => codeViews.currentCode(), changed: afterWrite }),
    drafts,
    registerDraftCommands({
      drafts, accounts, signedIn, docs, errors, logger, ui,
      currentCode: () => codeViews.currentCode(),
      changed: (codeId) => afterWrite(codeId, false),
      show: (codeId, refactorId) => codeViews.open(codeId, refactorId),
    }),
  );
  // A block esbuild drops whole from the packaging build, and with it all that only the test API uses.
  if (TEST_API) {
    if (recording) {
      return createTestApi({
        service, catalog, offline, codeViews, settings, search: searchDeps, stars, accounts, accountUi: ui,
        currentCode: () => codeViews.currentCode(),
        recentLog: () => recording.recent(),
        drafts,
      });
    }
  }
  return undefined;
}

export function deactivate(): void {
  // Everything is in context.subscriptions, which VS Code disposes.
}
