// Read-only virtual documents for codes, refactorings and editor-selection snapshots (scheme
// `refactor-browser`), used by Open as Document and by every compare. A code's URI names the
// service it came from (`?service=`), so an open document or diff keeps showing that service's
// code after the base URL changes, and two services' code 20 are two documents. Content is fetched
// by id through that service's RefactorClient, whose cache makes a second look cheap. A
// TextDocumentContentProvider has no save, so VS Code shows these documents read-only.
import * as vscode from 'vscode';
import type { Code } from '../../core/model';
import {
  DOCUMENT_SCHEME, documentPath, documentPathOfQuery, namedQuery, parseDocumentPath, serviceOfQuery, serviceQuery, type DocumentTarget,
} from './documentPaths';
import { languageOf, targetOf, type Item } from '../common/items';
import { namedPath } from '../common/labels';
import { toVsCodeLanguageId } from '../../core/languages';
import { Disposable, toDisposable } from '../common/dispose';
import type { ServiceConnection } from '../service';

/** Snapshots kept for Compare with Active Editor; old ones go first. */
const MAX_SELECTIONS = 50;

export class CodeDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly selections = new Map<number, string>();
  private nextSelection = 1;

  constructor(private readonly service: ServiceConnection) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(DOCUMENT_SCHEME, this));
    this._register(toDisposable(() => this.selections.clear()));
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    // A named document (a compare entry) carries its own path in the query.
    const target = parseDocumentPath(uri.path) ?? parseDocumentPath(documentPathOfQuery(uri.query) ?? '');
    if (!target) throw new Error(vscode.l10n.t('not a Refactor Browser document: {0}', uri.toString()));
    if (target.kind === 'selection') {
      const text = this.selections.get(target.id);
      if (text === undefined) throw new Error(vscode.l10n.t('this selection snapshot is gone; compare again'));
      return text;
    }
    const service = serviceOfQuery(uri.query);
    if (service === undefined) throw new Error(vscode.l10n.t('not a Refactor Browser document: {0}', uri.toString()));
    const code = await (await this.service.clientFor(service)).code(target.codeId);
    if (target.kind === 'code') return code.code;
    const refactor = code.refactors?.find((r) => r.id === target.refactorId);
    if (!refactor) throw new Error(vscode.l10n.t('code #{0} has no refactoring #{1}', target.codeId, target.refactorId));
    return refactor.code;
  }

  /** The code with its refactorings from the current service, as the single-code endpoint returns it. */
  async fetchCode(codeId: number): Promise<Code> {
    return (await this.service.getClient()).code(codeId);
  }

  /** A code's or refactoring's document names the current service; a selection's names none. */
  uriOf(target: DocumentTarget, serviceLanguage: string): vscode.Uri {
    const query = target.kind === 'selection' ? '' : serviceQuery(this.service.name());
    return vscode.Uri.from({ scheme: DOCUMENT_SCHEME, path: documentPath(target, serviceLanguage), query });
  }

  itemUri(item: Item): vscode.Uri {
    return this.uriOf(targetOf(item), languageOf(item));
  }

  /** The item's document under a file name a person reads (`namedPath`): the same text as `itemUri`'s. */
  namedItemUri(item: Item, name: string): vscode.Uri {
    const uri = this.itemUri(item);
    return uri.with({ path: namedPath(name), query: namedQuery(uri.query, uri.path) });
  }

  /** A read-only document holding `text`, e.g. an editor's selection at the time of a compare. */
  snapshotUri(text: string, serviceLanguage: string): vscode.Uri {
    const id = this.nextSelection++;
    this.selections.set(id, text);
    for (const old of this.selections.keys()) {
      if (this.selections.size <= MAX_SELECTIONS) break;
      this.selections.delete(old);
    }
    return this.uriOf({ kind: 'selection', id }, serviceLanguage);
  }

  /**
   * Opens the item's document and gives it the VS Code language of its service language, explicitly:
   * the file extension is only a hint, and languages without a built-in grammar map to plaintext
   * unless an installed extension provides one.
   */
  async openItem(item: Item): Promise<vscode.TextDocument> {
    return this.open(this.itemUri(item), languageOf(item));
  }

  async open(uri: vscode.Uri, serviceLanguage: string): Promise<vscode.TextDocument> {
    const doc = await vscode.workspace.openTextDocument(uri);
    const languageId = toVsCodeLanguageId(serviceLanguage, new Set(await vscode.languages.getLanguages()));
    return doc.languageId === languageId ? doc : vscode.languages.setTextDocumentLanguage(doc, languageId);
  }
}
