// Reading and reusing code: registers the code view (panels and their serializer), the virtual
// documents, and the commands that open, insert, compare, copy and link codes and refactorings.
// Every command takes a tree row (and, with multi-select, the selected rows), or works on the code
// view a person looked at last when run from the command palette.
import * as vscode from 'vscode';
import { showInformationMessage } from '../notifications';
import type { Logger } from '../../api/logger';
import { CodeViewPanels, type CodeViewActions } from './view/panel';
import { compareAllRefactorings, compareTwo, compareWithEditor, compareWithOriginal } from './compare';
import { CodeDocuments } from './documents';
import { EditorTracker } from './editorTracker';
import type { ErrorReporter } from '../errorReporting';
import { pickCode, type LoadedItems } from './goToCode';
import { insertAtCursor } from './insert';
import { codeIdOf, itemOf, itemsOf, pageUrlOf, snippetOf, textOf, languageOf, type Item } from './items';
import { itemTitle as titleOf, snippetTitle } from '../names';
import { parseOpenInput, type OpenRequest } from './openInput';
import { isWebUrl } from '../../protocol/codeView';
import type { ServiceConnection } from '../service';
import { writeRefactoringOrder, type SettingsSource } from '../settings';
import { targetOf, type Stars } from '../stars/stars';

export interface CodeCommandDeps {
  context: vscode.ExtensionContext;
  service: ServiceConnection;
  tree: LoadedItems;
  logger: Logger;
  errors: ErrorReporter;
  /** refactorBrowser.refactoringOrder orders the refactorings. */
  settings: SettingsSource;
  stars: Stars;
}

/** The registrations, and the code views (their serializer is what VS Code calls to restore them after a reload). */
export interface CodeCommands extends vscode.Disposable {
  readonly codeViews: CodeViewPanels;
}

export function registerCodeCommands(deps: CodeCommandDeps): CodeCommands {
  const { context, service, tree, logger, errors, settings, stars } = deps;
  const docs = new CodeDocuments(service);
  const editors = new EditorTracker();

  const copy = async (text: string, what: string): Promise<void> => {
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', what), 3000);
  };
  /** The item's page, or undefined (and the person told why) for the built-in sample catalog, which has none. */
  const pageUrl = async (item: Item): Promise<string | undefined> => {
    if (service.hasWebPages()) return pageUrlOf(item, (await service.getClient()).baseUrl);
    void showInformationMessage(
      vscode.l10n.t('The built-in sample catalog has no web pages. Set Refactor Browser: Base Url to a service (for example one started with `refactor-browser serve`) to open its pages.'));
    return undefined;
  };

  const actions: CodeViewActions = {
    insert: (item, section) => {
      const snippet = snippetOf(item, section);
      return errors.run(vscode.l10n.t('Could not insert {0}', snippetTitle(item, snippet)), () => insertAtCursor(snippet.text, snippet.language, editors));
    },
    compareWithOriginal: (refactor, original) =>
      errors.run(vscode.l10n.t('Could not compare {0}', titleOf(refactor)), () => compareWithOriginal(docs, refactor, original)),
    copy: (item, section) => {
      const snippet = snippetOf(item, section);
      const title = snippetTitle(item, snippet);
      return errors.run(vscode.l10n.t('Could not copy {0}', title), () => copy(snippet.text, title));
    },
    openDocument: (item) => errors.run(vscode.l10n.t('Could not open {0}', titleOf(item)), () => openAsDocument(item)),
    setOrder: (order) => errors.run(vscode.l10n.t('Could not change the order of the refactorings'), () => writeRefactoringOrder(order)),
    star: (item, starred) => (starred
      ? errors.run(vscode.l10n.t('Could not star'), () => stars.star(item))
      : errors.run(vscode.l10n.t('Could not unstar'), () => stars.unstar(targetOf(item)))),
  };
  const panels = new CodeViewPanels(context.extensionUri, service, logger, actions, settings, stars);

  async function openAsDocument(item: Item): Promise<vscode.TextEditor> {
    // Fetched here first, so that a failure reaches the reporter as the client's own error, logged
    // once; from inside the content provider VS Code would hand it back wrapped, and it would be
    // logged again. The document then reads the code the client holds.
    await docs.fetchCode(codeIdOf(item));
    return vscode.window.showTextDocument(await docs.openItem(item), { preview: false });
  }

  function open(request: OpenRequest): void {
    panels.open(request.codeId, request.refactorId, request.listed);
  }

  async function openCode(arg?: unknown): Promise<void> {
    const item = itemOf(arg);
    if (item?.kind === 'code') return open({ ref: String(item.code.id), codeId: item.code.id, listed: item.code });
    if (item) return open({ ref: String(item.refactor.codeId), codeId: item.refactor.codeId, refactorId: item.refactor.id });
    if (typeof arg === 'number') {
      if (!Number.isSafeInteger(arg) || arg < 0) throw new Error(vscode.l10n.t('not a code id: {0}', arg));
      return open({ ref: String(arg), codeId: arg });
    }
    const input = typeof arg === 'string' ? arg : await vscode.window.showInputBox({
      title: vscode.l10n.t('Open Code'),
      prompt: vscode.l10n.t('A code id, a code_ref (42-some-title) or the page URL of a code'),
      validateInput: (v) => (v.trim() === '' || parseOpenInput(v) ? undefined : vscode.l10n.t('Not a code id, code_ref or code page URL')),
    });
    if (input === undefined) return;
    const request = parseOpenInput(input);
    if (!request) throw new Error(vscode.l10n.t('not a code id, code_ref or code page URL: {0}', JSON.stringify(input)));
    open(request);
  }

  /** A row's item, or the code of the code view a person looked at last. */
  function itemOrCurrent(arg: unknown): Item | undefined {
    const item = itemOf(arg);
    if (item) return item;
    const code = panels.currentCode();
    if (code) return { kind: 'code', code };
    void showInformationMessage(vscode.l10n.t('Open a code first (Refactor Browser: Open Code…), or use this command on a row of the Catalog.'));
    return undefined;
  }

  const command = errors.command.bind(errors);

  const registrations = vscode.Disposable.from(
    docs,
    editors,
    panels,
    command('refactorBrowser.openCode', vscode.l10n.t('Could not open the code'), openCode),
    command('refactorBrowser.goToCode', vscode.l10n.t('Could not go to the code'), async () => {
      const request = await pickCode(tree);
      if (request) open(request);
    }),
    command('refactorBrowser.insertAtCursor', vscode.l10n.t('Could not insert the code'), async (arg) => {
      const item = itemOrCurrent(arg);
      if (item) await insertAtCursor(textOf(item), languageOf(item), editors);
    }),
    command('refactorBrowser.compareWithOriginal', vscode.l10n.t('Could not compare with the original'), async (arg) => {
      const item = itemOf(arg);
      if (item?.kind !== 'refactor') {
        void showInformationMessage(vscode.l10n.t('Compare with Original works on a refactoring.'));
        return;
      }
      await compareWithOriginal(docs, item);
    }),
    command('refactorBrowser.compareSelected', vscode.l10n.t('Could not compare the selected rows'), (clicked, selected) =>
      compareTwo(docs, itemsOf(clicked, selected))),
    command('refactorBrowser.compareWithEditor', vscode.l10n.t('Could not compare with the active editor'), async (arg) => {
      const item = itemOrCurrent(arg);
      if (item) await compareWithEditor(docs, item, editors);
    }),
    command('refactorBrowser.compareAllRefactorings', vscode.l10n.t('Could not compare all refactorings'), async (arg) => {
      const item = itemOrCurrent(arg);
      if (item) await compareAllRefactorings(docs, codeIdOf(item), settings.current.refactoringOrder);
    }),
    command('refactorBrowser.copyCode', vscode.l10n.t('Could not copy the code'), async (arg) => {
      const item = itemOrCurrent(arg);
      if (item) await copy(textOf(item), titleOf(item));
    }),
    command('refactorBrowser.copyPageUrl', vscode.l10n.t('Could not copy the page URL'), async (arg) => {
      const item = itemOrCurrent(arg);
      const url = item && await pageUrl(item);
      if (item && url) await copy(url, vscode.l10n.t('the page URL of {0}', titleOf(item)));
    }),
    command('refactorBrowser.openInBrowser', vscode.l10n.t('Could not open the page'), async (arg) => {
      const item = itemOrCurrent(arg);
      if (!item) return;
      const url = await pageUrl(item);
      if (url === undefined) return;
      if (!isWebUrl(url)) throw new Error(vscode.l10n.t('not an http(s) page: {0}', url));
      logger.info(`opening ${url} in the browser`);
      await vscode.env.openExternal(vscode.Uri.parse(url, true));
    }),
    command('refactorBrowser.openAsDocument', vscode.l10n.t('Could not open the document'), async (arg) => {
      const item = itemOrCurrent(arg);
      if (item) await openAsDocument(item);
    }),
  );
  return { dispose: () => registrations.dispose(), codeViews: panels };
}
