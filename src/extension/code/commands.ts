// Reading and reusing code: the commands that open, insert, compare, copy and link codes and
// refactorings, and what the code view's buttons do. Every command takes a tree row (and, with
// multi-select, the selected rows), or works on the code view a person looked at last when run from
// the command palette.
import * as vscode from 'vscode';
import { showInformationMessage } from '../common/notifications';
import type { Logger } from '../../client/logger';
import type { CodeViewActions, CodeViewPanels } from './view/panel';
import { compareAllRefactorings, compareTwo, compareWithEditor, compareWithOriginal } from './compare';
import type { CodeDocuments } from './documents';
import type { EditorTracker } from './editorTracker';
import { Commands } from '../common/commandIds';
import type { ErrorReporter } from '../common/errorReporting';
import { pickCode, type LoadedItems } from './goToCode';
import { insertAtCursor } from './insert';
import { codeIdOf, itemOf, itemsOf, pageUrlOf, snippetOf, textOf, languageOf, targetOf, type Item } from '../common/items';
import { itemOrCurrent } from '../common/current';
import { snippetTitle, titleOf } from '../common/names';
import { parseOpenInput, type OpenRequest } from './openInput';
import { isHttpUrl } from '../../core/httpUrl';
import type { ServiceConnection } from '../service';
import { writeRefactoringOrder, type SettingsSource } from '../common/settings';
import type { Stars } from '../stars/stars';

export interface CodeCommandDeps {
  service: ServiceConnection;
  docs: CodeDocuments;
  editors: EditorTracker;
  codeViews: CodeViewPanels;
  tree: LoadedItems;
  logger: Logger;
  errors: ErrorReporter;
  /** refactorBrowser.refactoringOrder orders the refactorings. */
  settings: SettingsSource;
}

async function copy(text: string, what: string): Promise<void> {
  await vscode.env.clipboard.writeText(text);
  vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', what), 3000);
}

async function openAsDocument(docs: CodeDocuments, item: Item): Promise<vscode.TextEditor> {
  // Fetched here first, so that a failure reaches the reporter as the client's own error, logged
  // once; from inside the content provider VS Code would hand it back wrapped, and it would be
  // logged again. The document then reads the code the client holds.
  await docs.fetchCode(codeIdOf(item));
  return vscode.window.showTextDocument(await docs.openItem(item), { preview: false });
}

/** What the code view's buttons do, each failure reported as the commands' are. */
export function codeViewActions({ docs, editors, errors, stars }: {
  docs: CodeDocuments; editors: EditorTracker; errors: ErrorReporter; stars: Stars;
}): CodeViewActions {
  return {
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
    openDocument: (item) => errors.run(vscode.l10n.t('Could not open {0}', titleOf(item)), () => openAsDocument(docs, item)),
    setOrder: (order) => errors.run(vscode.l10n.t('Could not change the order of the refactorings'), () => writeRefactoringOrder(order)),
    star: (item, starred) => (starred
      ? errors.run(vscode.l10n.t('Could not star'), () => stars.star(item))
      : errors.run(vscode.l10n.t('Could not unstar'), () => stars.unstar(targetOf(item)))),
    rate: async (item) => { await vscode.commands.executeCommand(Commands.rate, item); },
    delete: async (item) => { await vscode.commands.executeCommand(Commands.delete, item); },
    refactor: async (item) => { await vscode.commands.executeCommand(Commands.refactorCode, item); },
  };
}

export function registerCodeCommands(deps: CodeCommandDeps): vscode.Disposable {
  const { service, docs, editors, codeViews: panels, tree, logger, errors, settings } = deps;
  /** The item's page, or undefined (and the person told why) for the built-in sample catalog, which has none. */
  const pageUrl = async (item: Item): Promise<string | undefined> => {
    if (service.hasWebPages()) return pageUrlOf(item, (await service.getClient()).baseUrl);
    void showInformationMessage(
      vscode.l10n.t('The built-in sample catalog has no web pages. Set Refactor Browser: Base Url to a service (for example one started with `refactor-browser serve`) to open its pages.'));
    return undefined;
  };

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
  const rowOrCurrent = (arg: unknown): Item | undefined => itemOrCurrent(arg, () => panels.currentCode());

  const command = errors.command.bind(errors);

  return vscode.Disposable.from(
    command(Commands.openCode, vscode.l10n.t('Could not open the code'), openCode),
    command(Commands.goToCode, vscode.l10n.t('Could not go to the code'), async () => {
      const request = await pickCode(tree);
      if (request) open(request);
    }),
    command(Commands.insertAtCursor, vscode.l10n.t('Could not insert the code'), async (arg) => {
      const item = rowOrCurrent(arg);
      if (item) await insertAtCursor(textOf(item), languageOf(item), editors);
    }),
    command(Commands.compareWithOriginal, vscode.l10n.t('Could not compare with the original'), async (arg) => {
      const item = itemOf(arg);
      if (item?.kind !== 'refactor') {
        void showInformationMessage(vscode.l10n.t('Compare with Original works on a refactoring.'));
        return;
      }
      await compareWithOriginal(docs, item);
    }),
    command(Commands.compareSelected, vscode.l10n.t('Could not compare the selected rows'), (clicked, selected) =>
      compareTwo(docs, itemsOf(clicked, selected))),
    command(Commands.compareWithEditor, vscode.l10n.t('Could not compare with the active editor'), async (arg) => {
      const item = rowOrCurrent(arg);
      if (item) await compareWithEditor(docs, item, editors);
    }),
    command(Commands.compareAllRefactorings, vscode.l10n.t('Could not compare all refactorings'), async (arg) => {
      const item = rowOrCurrent(arg);
      if (item) await compareAllRefactorings(docs, codeIdOf(item), settings.current.refactoringOrder);
    }),
    command(Commands.copyCode, vscode.l10n.t('Could not copy the code'), async (arg) => {
      const item = rowOrCurrent(arg);
      if (item) await copy(textOf(item), titleOf(item));
    }),
    command(Commands.copyPageUrl, vscode.l10n.t('Could not copy the page URL'), async (arg) => {
      const item = rowOrCurrent(arg);
      const url = item && await pageUrl(item);
      if (item && url) await copy(url, vscode.l10n.t('the page URL of {0}', titleOf(item)));
    }),
    command(Commands.openInBrowser, vscode.l10n.t('Could not open the page'), async (arg) => {
      const item = rowOrCurrent(arg);
      if (!item) return;
      const url = await pageUrl(item);
      if (url === undefined) return;
      if (!isHttpUrl(url)) throw new Error(vscode.l10n.t('not an http(s) page: {0}', url));
      logger.info(`opening ${url} in the browser`);
      await vscode.env.openExternal(vscode.Uri.parse(url, true));
    }),
    command(Commands.openAsDocument, vscode.l10n.t('Could not open the document'), async (arg) => {
      const item = rowOrCurrent(arg);
      if (item) await openAsDocument(docs, item);
    }),
  );
}
