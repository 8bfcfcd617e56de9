// Refactoring drafts: each an editable file of our own scheme (draftPaths.ts) whose record lives under
// the extension's global storage (vscode.workspace.fs, so the browser's extension host keeps it too),
// never in the synced state. The record holds the service's normalized base URL and the code's id, so
// a draft restored after a reload still submits to its own code on its own service, and the code's
// text as it was drafted from, to tell an edited draft from an untouched one. Save writes the record;
// VS Code's hot exit keeps unsaved edits; a file that is not a draft's does not exist.
import * as vscode from 'vscode';
import { toVsCodeLanguageId } from '../../core/languages';
import type { Code } from '../../core/model';
import { fnv1a64 } from '../../core/hash';
import { Disposable } from '../common/dispose';
import { readTextFile } from '../common/files';
import { DRAFT_SCHEME, draftPath, parseDraftPath, placeOf } from './draftPaths';

export interface Draft {
  /** The service's base URL as the client normalizes it: the only service this draft is sent to. */
  service: string;
  codeId: number;
  codeTitle: string;
  /** The code's language on the service. */
  language: string;
  /** The draft's URI path. */
  path: string;
  /** The code's text when the draft was made. */
  base: string;
  text: string;
  /** What was typed when it was last sent and refused, to start from when sending again. */
  title: string;
  comment: string;
  ctime: number;
  mtime: number;
}

function isDraft(v: unknown): v is Draft {
  const d = v as Partial<Draft> | null;
  return typeof d === 'object' && d !== null
    && ['service', 'codeTitle', 'language', 'path', 'base', 'text', 'title', 'comment'].every((k) => typeof d[k as keyof Draft] === 'string')
    && [d.codeId, d.ctime, d.mtime].every((n) => typeof n === 'number' && Number.isSafeInteger(n));
}

export class Drafts extends Disposable implements vscode.FileSystemProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this.changed.event;

  constructor(private readonly storage: vscode.Uri) {
    super();
    this._register(vscode.workspace.registerFileSystemProvider(DRAFT_SCHEME, this, { isCaseSensitive: true }));
    // A draft restored after a reload is given its code's language again.
    this._register(vscode.workspace.onDidOpenTextDocument((doc) => void this.giveLanguage(doc)));
  }

  uriOf(draft: Draft): vscode.Uri {
    return vscode.Uri.from({ scheme: DRAFT_SCHEME, path: draft.path });
  }

  /** The draft of `code` on the service `serviceKey`, made from the code's text if there is none yet. */
  async draftOf(serviceKey: string, code: Code): Promise<{ draft: Draft; made: boolean }> {
    const kept = await this.read(placeOf(serviceKey), code.id);
    if (kept?.service === serviceKey) return { draft: kept, made: false };
    const now = Date.now();
    const draft: Draft = {
      service: serviceKey, codeId: code.id, codeTitle: code.title, language: code.language,
      path: draftPath(serviceKey, code.id, code.title || `#${code.id}`, code.language),
      base: code.code, text: code.code, title: '', comment: '', ctime: now, mtime: now,
    };
    await this.write(draft);
    this.changed.fire([{ type: vscode.FileChangeType.Created, uri: this.uriOf(draft) }]);
    return { draft, made: true };
  }

  /** The draft `uri` names; undefined when it names none (any more). */
  async get(uri: vscode.Uri): Promise<Draft | undefined> {
    const where = uri.scheme === DRAFT_SCHEME ? parseDraftPath(uri.path) : undefined;
    const draft = where && await this.read(where.place, where.codeId);
    return draft?.path === uri.path ? draft : undefined;
  }

  /** Keeps what was typed for the draft's submission. */
  async remember(draft: Draft, typed: { title: string; comment: string }): Promise<void> {
    const now = await this.get(this.uriOf(draft));
    if (now) await this.write({ ...now, ...typed });
  }

  /** Forgets the draft; its editors see the file deleted. */
  async remove(draft: Draft): Promise<void> {
    await vscode.workspace.fs.delete(this.fileOf(placeOf(draft.service), draft.codeId), { useTrash: false }).then(undefined, () => undefined);
    this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri: this.uriOf(draft) }]);
  }

  /** Forgets every draft of every service. */
  async clear(): Promise<void> {
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.storage, 'drafts'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
  }

  // The file system VS Code's editors read and save drafts through.

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    if (uri.path === '/') return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const draft = await this.found(uri);
    return { type: vscode.FileType.File, ctime: draft.ctime, mtime: draft.mtime, size: new TextEncoder().encode(draft.text).byteLength };
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return new TextEncoder().encode((await this.found(uri)).text);
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    // Only Refactor… makes a draft: a save writes one that exists.
    const draft = await this.found(uri);
    await this.write({ ...draft, text: new TextDecoder().decode(content), mtime: Math.max(Date.now(), draft.mtime + 1) });
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  async delete(uri: vscode.Uri): Promise<void> {
    await this.remove(await this.found(uri));
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  private async found(uri: vscode.Uri): Promise<Draft> {
    const draft = await this.get(uri);
    if (!draft) throw vscode.FileSystemError.FileNotFound(uri);
    return draft;
  }

  private fileOf(place: string, codeId: number): vscode.Uri {
    // A hash, never the place itself, which may hold characters no file name may.
    return vscode.Uri.joinPath(this.storage, 'drafts', fnv1a64(new TextEncoder().encode(place)), `code-${codeId}.json`);
  }

  private async read(place: string, codeId: number): Promise<Draft | undefined> {
    try {
      const draft: unknown = JSON.parse(await readTextFile(this.fileOf(place, codeId)));
      return isDraft(draft) && draft.codeId === codeId && placeOf(draft.service) === place ? draft : undefined;
    } catch {
      return undefined; // none, or damaged: as good as none
    }
  }

  private async write(draft: Draft): Promise<void> {
    const file = this.fileOf(placeOf(draft.service), draft.codeId);
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(file, '..'));
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify(draft)));
  }

  private async giveLanguage(doc: vscode.TextDocument): Promise<void> {
    if (doc.uri.scheme !== DRAFT_SCHEME) return;
    const draft = await this.get(doc.uri);
    if (!draft) return;
    const languageId = toVsCodeLanguageId(draft.language, new Set(await vscode.languages.getLanguages()));
    if (doc.languageId !== languageId && !doc.isClosed) await vscode.languages.setTextDocumentLanguage(doc, languageId).then(undefined, () => undefined);
  }
}
