// The Catalog view's commands: Refresh, Load More and Retry on its rows, the language filter, the
// saved tags, and the settings behind the gear button. Filter and tags write the settings; the view
// follows them through the settings' change event.
import * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import type { ErrorReporter } from '../common/errorReporting';
import { SECTION, type SettingsSource } from '../common/settings';
import { languageChoices, normalizeLanguageInput } from './languageFilter';
import type { ErrorNode, LoadMoreNode, TagNode } from './nodes';
import { isRow } from '../common/rows';
import { normalizeTag } from './tags';
import type { CatalogTreeProvider } from './tree';

export interface CatalogCommandDeps {
  tree: CatalogTreeProvider;
  settings: SettingsSource;
  /** The language every list is filtered by now. */
  language: () => string;
  errors: ErrorReporter;
}

export function registerCatalogCommands({ tree, settings, language, errors }: CatalogCommandDeps): vscode.Disposable {
  /** Quick pick of the service's languages, All Languages, or free text; with an argument, sets it directly. */
  const filterLanguage = async (arg: unknown): Promise<void> => {
    let chosen: string | undefined = typeof arg === 'string' ? normalizeLanguageInput(arg) : undefined;
    if (chosen === undefined) chosen = await pickLanguage(language());
    if (chosen === undefined) return;
    await vscode.workspace.getConfiguration(SECTION).update('language', chosen, vscode.ConfigurationTarget.Global);
  };

  const addTag = async (arg: unknown): Promise<void> => {
    const typed = typeof arg === 'string' ? arg : await vscode.window.showInputBox({
      title: vscode.l10n.t('Add Tag'),
      prompt: vscode.l10n.t('A tag of the service, e.g. arrays'),
      validateInput: (v) => (normalizeTag(v) === undefined ? vscode.l10n.t('A tag is a non-empty name without "/"') : undefined),
    });
    const tag = typed === undefined ? undefined : normalizeTag(typed);
    if (tag === undefined) return;
    const { tags } = settings.current;
    if (tags.includes(tag)) return;
    await vscode.workspace.getConfiguration(SECTION).update('tags', [...tags, tag], vscode.ConfigurationTarget.Global);
  };

  const removeTag = async (node: unknown, selected: unknown): Promise<void> => {
    const rows = Array.isArray(selected) && selected.length ? selected : [node];
    let gone = rows.filter((r): r is TagNode => isRow(r, 'tag')).map((r) => r.tag);
    if (gone.length === 0 && typeof node === 'string') gone = [node];
    if (gone.length === 0) {
      const pick = await vscode.window.showQuickPick([...settings.current.tags], { title: vscode.l10n.t('Remove Tag') });
      if (pick === undefined) return;
      gone = [pick];
    }
    await vscode.workspace.getConfiguration(SECTION).update('tags', settings.current.tags.filter((t) => !gone.includes(t)),
      vscode.ConfigurationTarget.Global);
  };

  return vscode.Disposable.from(
    errors.command(Commands.refresh, vscode.l10n.t('Could not refresh the Catalog'), () => tree.refresh()),
    errors.command(Commands.loadMore, vscode.l10n.t('Could not load more'), (node?: unknown) =>
      isRow(node, 'loadMore') ? tree.loadMore(node as LoadMoreNode) : undefined),
    errors.command(Commands.retry, vscode.l10n.t('Could not retry'), (node?: unknown) =>
      isRow(node, 'error') ? tree.retry(node as ErrorNode) : tree.refresh()),
    errors.command(Commands.filterLanguage, vscode.l10n.t('Could not filter by language'), (arg?: unknown) => filterLanguage(arg)),
    errors.command(Commands.addTag, vscode.l10n.t('Could not add the tag'), (tag?: unknown) => addTag(tag)),
    errors.command(Commands.removeTag, vscode.l10n.t('Could not remove the tag'), (node?: unknown, selected?: unknown) => removeTag(node, selected)),
    errors.command(Commands.openSettings, vscode.l10n.t('Could not open the settings'), () =>
      vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.baseUrl`)),
  );
}

async function pickLanguage(current: string): Promise<string | undefined> {
  const choices = languageChoices(current, { all: vscode.l10n.t('All Languages'), current: vscode.l10n.t('current') });
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { language: string }>();
  pick.title = vscode.l10n.t('Filter by Language');
  pick.placeholder = vscode.l10n.t('A language of the service, or type another name');
  const base = choices.map((c) => ({ label: c.label, description: c.description, language: c.language }));
  pick.items = base;
  return new Promise<string | undefined>((resolve) => {
    let result: string | undefined;
    pick.onDidChangeValue((value) => {
      const typed = value.trim();
      // A name the list lacks can still be filtered by: the service decides what it knows.
      const known = base.some((c) => c.label.toLowerCase() === typed.toLowerCase());
      pick.items = typed && !known ? [...base, { label: typed, description: vscode.l10n.t('filter by this name'), language: normalizeLanguageInput(typed), alwaysShow: true }] : base;
    });
    pick.onDidAccept(() => {
      result = pick.selectedItems[0]?.language;
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(result);
    });
    pick.show();
  });
}
