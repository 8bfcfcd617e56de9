// What activate() returns: a small read-only view of the extension's state for tests (and other
// extensions), so they observe behaviour without reaching into internals.
import * as vscode from 'vscode';
import type { CatalogTreeProvider } from './catalogTree';
import type { ServiceConnection } from './service';
import type { Settings } from './settings';
import type { CatalogNode } from './treeNodes';

/** A tree row as a person sees it. */
export interface TreeRow {
  label: string;
  description: string;
  contextValue: string;
  collapsible: boolean;
}

export interface RefactorBrowserApi {
  /** The base URL requests go to (starting the built-in sample service when that is what is configured). */
  serviceUrl(): Promise<string>;
  /** The settings the extension currently works with. */
  settings(): Settings;
  /** Fires after the extension has taken a settings change into account. */
  readonly onDidApplySettings: vscode.Event<Settings>;
  /** The rows under the row reached by following `path` (labels) from the top; [] lists the roots. */
  treeRows(path?: readonly string[]): Promise<TreeRow[]>;
}

function labelOf(node: CatalogNode): string {
  const label = node.label;
  return typeof label === 'string' ? label : (label?.label ?? '');
}

export function createTestApi(
  service: ServiceConnection,
  tree: CatalogTreeProvider,
  settings: () => Settings,
  onDidApplySettings: vscode.Event<Settings>,
): RefactorBrowserApi {
  return {
    serviceUrl: () => service.baseUrl(),
    settings,
    onDidApplySettings,
    async treeRows(path = []) {
      let parent: CatalogNode | undefined;
      for (const label of path) {
        const next: CatalogNode | undefined = (await tree.getChildren(parent)).find((n) => labelOf(n) === label);
        if (!next) throw new Error(`no row ${JSON.stringify(label)} under ${parent ? JSON.stringify(labelOf(parent)) : 'the top'}`);
        parent = next;
      }
      return (await tree.getChildren(parent)).map((n) => ({
        label: labelOf(n),
        description: typeof n.description === 'string' ? n.description : '',
        contextValue: n.contextValue ?? '',
        collapsible: n.collapsibleState !== undefined && n.collapsibleState !== vscode.TreeItemCollapsibleState.None,
      }));
    },
  };
}
