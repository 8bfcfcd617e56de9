// The Catalog tree (view `refactorBrowser.catalog`): four roots, whose children are fetched through
// the RefactorClient when a root is expanded. Failures become an error row, never a popup.
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { Logger } from '../api/logger';
import type { Code, Refactor } from '../api/model';
import type { ServiceConnection } from './service';
import type { Settings } from './settings';
import { CatalogNode, CodeNode, EmptyNode, ErrorNode, RefactorNode, ROOTS, RootNode, TagNode, type RootKind } from './treeNodes';

export class CatalogTreeProvider implements vscode.TreeDataProvider<CatalogNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<CatalogNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly roots = ROOTS.map((r) => new RootNode(r.kind, r.label));
  /** What each root showed last, for Go to Code. */
  private readonly loaded = new Map<RootKind, { codes: Code[]; refactors: Refactor[] }>();

  constructor(
    private readonly service: ServiceConnection,
    private settings: Settings,
    private readonly logger: Logger,
  ) {}

  getTreeItem(node: CatalogNode): vscode.TreeItem {
    return node;
  }

  getParent(node: CatalogNode): CatalogNode | undefined {
    return node.parent;
  }

  async getChildren(node?: CatalogNode): Promise<CatalogNode[]> {
    if (!node) return this.roots;
    if (!(node instanceof RootNode)) return [];
    try {
      return await this.childrenOf(node);
    } catch (err) {
      this.logger.error(`loading ${String(node.label)} failed: ${err instanceof Error ? err.message : String(err)}`);
      const reason = isApiError(err) ? err.reason : err instanceof Error ? err.message : String(err);
      return [new ErrorNode(`Could not load: ${reason}`, node)];
    }
  }

  private async childrenOf(root: RootNode): Promise<CatalogNode[]> {
    const query = { language: this.settings.language || undefined };
    switch (root.kind) {
      case 'recentCodes':
      case 'popularCodes': {
        const client = await this.service.getClient();
        const codes = root.kind === 'recentCodes' ? await client.recentCodes(query) : await client.popularCodes(query);
        this.loaded.set(root.kind, { codes, refactors: [] });
        return codes.length ? codes.map((c) => new CodeNode(c, root)) : [new EmptyNode('No codes', root)];
      }
      case 'recentRefactorings': {
        const refactors = await (await this.service.getClient()).recentRefactorings(query);
        this.loaded.set(root.kind, { codes: [], refactors });
        return refactors.length ? refactors.map((r) => new RefactorNode(r, root)) : [new EmptyNode('No refactorings', root)];
      }
      case 'tags':
        return this.settings.tags.length ? this.settings.tags.map((t) => new TagNode(t, root)) : [new EmptyNode('No saved tags', root)];
    }
  }

  /** Every code and refactoring the tree has loaded (Go to Code picks from these). */
  loadedItems(): { codes: Code[]; refactors: Refactor[] } {
    const all = [...this.loaded.values()];
    return { codes: all.flatMap((l) => l.codes), refactors: all.flatMap((l) => l.refactors) };
  }

  /** New settings: everything shown may be stale. */
  update(settings: Settings): void {
    this.settings = settings;
    this.refresh();
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
