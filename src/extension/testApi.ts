// What activate() returns under test (extensionMode Test; never in a user's VS Code, where no other
// extension can reach it): a small view of the extension's state, so tests observe behaviour as a
// person would (rows, their text, what clicking them does) without reaching into internals.
import * as vscode from 'vscode';
import type { CatalogView } from './catalog/view';
import type { CodeViewPanels } from './code/view/panel';
import type { OfflineStore } from './catalog/offlineStore';
import type { ServiceConnection } from './service';
import type { Settings, SettingsSource } from './common/settings';
import type { CatalogNode } from './catalog/nodes';
import { indexCatalogFor, type SearchDeps } from './search/commands';
import type { Stars } from './stars/stars';
import type { Accounts } from './accounts/accounts';
import type { Drafts } from './drafts/drafts';
import type { ShareUi } from './share/commands';
import type { Code } from '../core/model';
import type { SearchHit } from '../search/searchIndex';

/** A tree row as a person sees it. */
export interface TreeRow {
  id: string;
  label: string;
  description: string;
  contextValue: string;
  collapsible: boolean;
  /** The codicon id, e.g. `file-code`. */
  icon: string;
  /** The command clicking the row runs. */
  command: string | undefined;
  /** What a screen reader says of the row ('' when VS Code makes it of the label and description). */
  accessibilityLabel: string;
}

export interface RefactorBrowserApi {
  /** The base URL requests go to (the built-in sample catalog's is answered in process). */
  serviceUrl(): Promise<string>;
  /** The settings the extension currently works with. */
  settings(): Settings;
  /** Fires after the extension has taken a settings change into account (its own parts listen first). */
  readonly onDidChangeSettings: vscode.Event<Settings>;
  /** The rows under the row reached by following `path` (labels) from the top; [] lists the roots. */
  treeRows(path?: readonly string[]): Promise<TreeRow[]>;
  /**
   * The row at `path` as shown on screen (description and tooltip included, resolved as on hover);
   * `tooltipBeforeHover` says whether the row carried a tooltip before it was resolved.
   */
  row(path: readonly string[]): Promise<TreeRow & { tooltip: string; tooltipTrusted: boolean; tooltipHtml: boolean; tooltipBeforeHover: boolean }>;
  /** Runs the command of the row at `path`, as clicking it does, and waits for it. */
  click(path: readonly string[]): Promise<void>;
  /** Reveals and selects the row at `path`; resolves to the ids of the selected rows. */
  reveal(path: readonly string[]): Promise<string[]>;
  /** The view's description (the language filter) and message. */
  view(): { description: string; message: string; unreachable: boolean };
  /** The lines logged lately (bounded), as written to the "Refactor Browser" log channel. */
  recentLog(): readonly string[];
  /** The language every list is filtered by now. */
  language(): string;
  /**
   * Restores a code view into `panel` from the state its webview persisted, as VS Code does after a
   * window reload (a test cannot reload the window it runs in).
   */
  restoreCodeView(panel: vscode.WebviewPanel, state: unknown): Thenable<void>;
  /**
   * Hands `message` to the open code view of `codeId` as if its webview had posted it (checked by the
   * protocol like any); resolves once the action it asks for is done.
   */
  codeViewMessage(codeId: number, message: unknown): Promise<void>;
  /**
   * Forgets the lists kept for offline use, so one test's lists cannot stand in for another's on a
   * service that happens to get the same loopback address.
   */
  forgetOffline(): Promise<void>;
  /** What search knows of the current service, read from its files if not in memory yet. */
  searchIndex(): Promise<{ codes: number; refactors: number; indexedAt: number; loaded: boolean }>;
  /** The current service's search results for `query`, as the quick pick gets them. */
  searchFor(query: string, language?: string): Promise<SearchHit[]>;
  /** Runs Index the Catalog for Search as the command does (its notification shown) and waits for it. */
  indexCatalog(): Promise<{ pages: number; complete: boolean } | undefined>;
  /** Writes what search has pending, then forgets the current service's index in memory, as a new window would start. */
  reloadSearch(): Promise<void>;
  /** Deletes the current service's search index, files and all. */
  forgetSearch(): Promise<void>;
  /** The current service's search index file (a URI), so that a test can damage it. */
  searchFile(): string;
  /** Runs `command` on the row at `path` as its context menu or inline button does. */
  runOnRow(command: string, path: readonly string[]): Promise<void>;
  /** The current service's stars, newest first, each with when its code was kept on this machine ('' if not). */
  stars(): Promise<Array<{ kind: 'code' | 'refactor'; codeId: number; refactorId?: number; title: string; keptAt: string }>>;
  /** Deletes the copy kept of code `codeId`, as on another machine that Settings Sync brought the star to. */
  forgetStarredCopy(codeId: number): Promise<void>;
  /** Forgets every star of every service, with the copies kept. */
  forgetStars(): Promise<void>;
  /**
   * Runs `command` as the palette does (or `command()`, e.g. a row's command or a code view's
   * button), answering each question (input box, comment, pick) with the next of `inputs`, or every
   * one with `input` (undefined: Escape), a quick pick of items with the one labelled `pick`,
   * choosing `button` on whichever message or modal warning offers it and the confirming button of
   * a modal question unless `send` is false; resolves once it is done with the questions asked (a
   * comment's as its prompt and value, a pick's as its title and placeholder), the messages and
   * modal warnings shown, each modal question with its detail, and the labels each quick pick of items offered.
   * With `onlyModals`, only the modal questions and warnings are answered and the rest is left to the
   * real UI, for UI tests: VS Code refuses to show a modal dialog while extension tests run.
   * `meanwhile`, if given, runs before each message or input box is answered, with its message or
   * title, as a person might change a setting while the command waits for them.
   */
  runAnswering(command: string | (() => Thenable<unknown>), answers: {
    input?: string; inputs?: Array<string | undefined>; button?: string; send?: boolean; pick?: string; onlyModals?: boolean;
    meanwhile?: (shown: string) => Thenable<unknown>;
  }):
    Promise<{ asked: vscode.InputBoxOptions[]; said: string[]; confirmed: string[]; offered: string[][] }>;
  /** The code of the code view looked at last, as loaded. */
  currentCode(): Code | undefined;
  /** The current service's session as VS Code's Accounts menu gets it from the provider. */
  session(): Promise<vscode.AuthenticationSession | undefined>;
  /** Signs the session `id` out as VS Code's Accounts menu does (the provider's removeSession). */
  removeSession(id: string): Promise<void>;
  /** Forgets every refactoring draft, so that one test's draft cannot answer for another's code on a reused port. */
  forgetDrafts(): Promise<void>;
}

function labelOf(node: CatalogNode): string {
  const label = node.label;
  return typeof label === 'string' ? label : (label?.label ?? '');
}

function asRow(n: vscode.TreeItem & { id?: string }): TreeRow {
  return {
    id: n.id ?? '',
    label: labelOf(n as CatalogNode),
    description: typeof n.description === 'string' ? n.description : '',
    contextValue: n.contextValue ?? '',
    collapsible: n.collapsibleState !== undefined && n.collapsibleState !== vscode.TreeItemCollapsibleState.None,
    icon: n.iconPath instanceof vscode.ThemeIcon ? n.iconPath.id : '',
    command: n.command?.command,
    accessibilityLabel: n.accessibilityInformation?.label ?? '',
  };
}

/** What the test API looks at. */
export interface TestApiParts {
  service: ServiceConnection;
  catalog: CatalogView;
  offline: OfflineStore;
  codeViews: Pick<CodeViewPanels, 'deserializeWebviewPanel' | 'receive'>;
  settings: SettingsSource;
  recentLog: () => readonly string[];
  /** Search as its commands see it (the store among them). */
  search: SearchDeps;
  stars: Stars;
  accounts: Accounts;
  /** What account and share commands ask and say through, swapped while runAnswering answers them. */
  accountUi: ShareUi;
  currentCode: () => Code | undefined;
  drafts: Drafts;
}

export function createTestApi(parts: TestApiParts): RefactorBrowserApi {
  const { service, catalog, offline, codeViews, settings, recentLog, stars } = parts;
  const search = parts.search.store;
  const tree = catalog.tree;
  let unreachable = false;
  tree.onDidChangeUnreachable((cause) => { unreachable = cause !== undefined; });

  async function find(path: readonly string[]): Promise<CatalogNode | undefined> {
    let parent: CatalogNode | undefined;
    for (const label of path) {
      const next: CatalogNode | undefined = (await tree.getChildren(parent)).find((n) => labelOf(n) === label);
      if (!next) throw new Error(`no row ${JSON.stringify(label)} under ${parent ? JSON.stringify(labelOf(parent)) : 'the top'}`);
      parent = next;
    }
    return parent;
  }

  return {
    serviceUrl: async () => service.baseUrl(),
    settings: () => settings.current,
    onDidChangeSettings: settings.onDidChange,
    async treeRows(path = []) {
      return (await tree.getChildren(await find(path))).map(asRow);
    },
    async row(path) {
      const node = await find(path);
      if (!node) throw new Error('row() needs a path');
      const shown = tree.getTreeItem(node);
      const tooltipBeforeHover = shown.tooltip !== undefined;
      const item = tree.resolveTreeItem(shown, node);
      const tip = item.tooltip;
      const md = tip instanceof vscode.MarkdownString ? tip : undefined;
      return {
        ...asRow(item),
        tooltip: md ? md.value : typeof tip === 'string' ? tip : '',
        tooltipTrusted: md ? md.isTrusted !== false && md.isTrusted !== undefined : false,
        tooltipHtml: md?.supportHtml === true,
        tooltipBeforeHover,
      };
    },
    async click(path) {
      const node = await find(path);
      if (!node?.command) throw new Error(`the row ${JSON.stringify(path)} runs no command`);
      await vscode.commands.executeCommand(node.command.command, ...((node.command.arguments ?? []) as unknown[]));
    },
    async reveal(path) {
      const node = await find(path);
      if (!node) throw new Error('reveal() needs a path');
      await catalog.view.reveal(node, { select: true, focus: false, expand: false });
      return catalog.view.selection.map((n) => n.id ?? '');
    },
    view: () => ({ description: catalog.view.description ?? '', message: catalog.view.message ?? '', unreachable }),
    recentLog,
    language: () => catalog.language(),
    restoreCodeView: (panel, state) => codeViews.deserializeWebviewPanel(panel, state),
    codeViewMessage: (codeId, message) => codeViews.receive(codeId, message),
    forgetOffline: () => offline.clear(),
    async searchIndex() {
      const kept = search.of(service.name());
      const loaded = kept.ifLoaded() !== undefined;
      const index = await kept.index();
      return { ...index.counts(), indexedAt: index.indexedAt, loaded };
    },
    searchFor: async (query, language) => (await search.of(service.name()).index()).search(query, { language }),
    indexCatalog: () => indexCatalogFor(parts.search),
    async reloadSearch() {
      await search.flush();
      search.forget(service.name());
    },
    forgetSearch: () => search.of(service.name()).clear(),
    searchFile: () => search.of(service.name()).file.toString(),
    async runOnRow(command, path) {
      const node = await find(path);
      if (!node) throw new Error('runOnRow() needs a path');
      await vscode.commands.executeCommand(command, node, [node]);
    },
    async stars() {
      const shown = [];
      for (const s of stars.current()) {
        const kept = await stars.offlineCopy(s.codeId);
        const { kind, codeId, refactorId, title } = s;
        shown.push({ kind, codeId, ...(refactorId === undefined ? {} : { refactorId }), title, keptAt: kept ? kept.keptAt.toISOString() : '' });
      }
      return shown;
    },
    forgetStarredCopy: (codeId) => stars.forgetCopy(codeId),
    forgetStars: () => stars.clear(),
    async runAnswering(command, { input, inputs, button, send, pick, onlyModals, meanwhile }) {
      const asked: vscode.InputBoxOptions[] = [];
      const said: string[] = [];
      const confirmed: string[] = [];
      const offered: string[][] = [];
      const queue = inputs && [...inputs];
      const answer = async (question: vscode.InputBoxOptions): Promise<string | undefined> => {
        asked.push(question);
        await meanwhile?.(question.title ?? question.prompt ?? '');
        return queue ? queue.shift() : input;
      };
      const { accountUi: ui } = parts;
      const real = { ...ui };
      ui.confirm = async (message, detail, ok) => (confirmed.push(`${message}\n${detail}`), send === false ? undefined : ok);
      ui.warn = async (message, offers) => (said.push(message), offers === button);
      if (!onlyModals) {
        ui.askToken = ui.ask = async (options) => answer(options);
        ui.askComment = async (value, prompt) => answer({ prompt, value });
        ui.pick = async (_items, { title, placeHolder }) => answer({ title, placeHolder });
        ui.tell = async (_error, message, ...buttons) => {
          said.push(message);
          await meanwhile?.(message);
          return buttons.find((b) => b === button);
        };
        ui.choose = async (items) => (offered.push(items.map((i) => i.label)), items.find((i) => i.label === pick));
      }
      try {
        await (typeof command === 'string' ? vscode.commands.executeCommand(command) : command());
      } finally {
        Object.assign(ui, real);
      }
      return { asked, said, confirmed, offered };
    },
    currentCode: parts.currentCode,
    session: async () => (await parts.accounts.getSessions())[0],
    removeSession: (id) => parts.accounts.removeSession(id),
    forgetDrafts: () => parts.drafts.clear(),
  };
}
