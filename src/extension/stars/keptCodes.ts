// The whole codes (with their refactorings) kept for reading offline because something of theirs is
// starred: one file a code under the extension's global storage, in a folder per service, so they
// never enter the synced state and work in the browser's extension host too (vscode.workspace.fs).
// A file read back is checked field by field: a damaged one is as good as none.
import * as vscode from 'vscode';
import type { Code, Refactor } from '../../core/model';
import { fnv1a64 } from '../../core/hash';
import { isId } from '../../protocol/codeView';
import { revive } from '../common/fetched';
import { readTextFile } from '../common/files';

export interface KeptCode {
  code: Code;
  /** When the copy was written. */
  keptAt: Date;
}

export class KeptCodes {
  constructor(private readonly storage: vscode.Uri) {}

  private get root(): vscode.Uri {
    return vscode.Uri.joinPath(this.storage, 'stars');
  }

  private folder(service: string): vscode.Uri {
    // A hash, never the URL itself, which may be long or hold characters no file name may.
    return vscode.Uri.joinPath(this.root, fnv1a64(new TextEncoder().encode(service)));
  }

  private file(service: string, codeId: number): vscode.Uri {
    return vscode.Uri.joinPath(this.folder(service), `code-${codeId}.json`);
  }

  async keep(service: string, code: Code, now = new Date()): Promise<void> {
    const text = JSON.stringify({ keptAt: now.getTime(), code });
    await vscode.workspace.fs.createDirectory(this.folder(service));
    await vscode.workspace.fs.writeFile(this.file(service, code.id), new TextEncoder().encode(text));
  }

  /** The copy of code `codeId`, or undefined when none is kept (or the file is damaged). */
  async read(service: string, codeId: number): Promise<KeptCode | undefined> {
    let text: string;
    try {
      text = await readTextFile(this.file(service, codeId));
    } catch {
      return undefined;
    }
    try {
      const parsed = JSON.parse(text, revive) as { keptAt?: unknown; code?: unknown };
      if (typeof parsed.keptAt !== 'number' || !isCode(parsed.code) || parsed.code.id !== codeId) return undefined;
      return { code: parsed.code, keptAt: new Date(parsed.keptAt) };
    } catch {
      return undefined;
    }
  }

  /** Forgets every copy of every service. */
  async clear(): Promise<void> {
    await vscode.workspace.fs.delete(this.root, { recursive: true, useTrash: false }).then(undefined, () => undefined);
  }

  async forget(service: string, codeId: number): Promise<void> {
    try {
      await vscode.workspace.fs.delete(this.file(service, codeId));
    } catch {
      // Not there: nothing to forget.
    }
  }
}

function isNullableNumber(v: unknown): boolean {
  return v === null || (typeof v === 'number' && Number.isFinite(v));
}

function isDate(v: unknown): boolean {
  return v === null || (v instanceof Date && !Number.isNaN(v.getTime()));
}

function strings(o: Record<string, unknown>, keys: readonly string[]): boolean {
  return keys.every((k) => typeof o[k] === 'string');
}

/** A nested user, where there is one: what the Catalog and the code view show of it is checked. */
function isUserOrNone(v: unknown): boolean {
  if (v === undefined) return true;
  if (typeof v !== 'object' || v === null) return false;
  const u = v as Record<string, unknown>;
  return isId(u.id) && strings(u, ['name', 'identityUrl', 'website']) && isNullableNumber(u.rating) && isNullableNumber(u.refactorsCount);
}

function isRefactor(v: unknown): v is Refactor {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return isId(r.id) && isId(r.codeId) && strings(r, ['title', 'language', 'code', 'comment', 'userName', 'userWebsite'])
    && isDate(r.createdAt) && isNullableNumber(r.rating) && isNullableNumber(r.ratingsCount) && isNullableNumber(r.userId)
    && isUserOrNone(r.user);
}

function isCode(v: unknown): v is Code & { refactors: Refactor[] } {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return isId(c.id) && strings(c, ['title', 'language', 'permalink', 'code', 'comment', 'trackbackUrl'])
    && isDate(c.createdAt) && isDate(c.updatedAt) && isNullableNumber(c.refactorsCount) && isNullableNumber(c.userId)
    && isUserOrNone(c.user) && Array.isArray(c.refactors) && c.refactors.every(isRefactor);
}
