// Reading a file as text (or as bytes) in either extension host. The Node host reads its own disk with Node's fs,
// straight into a string: VS Code's file system API is slower for a first read, and a TextDecoder
// would copy a large search index once more. Everything else (the browser's host, other schemes)
// goes through vscode.workspace.fs. And writing one whole, so that a window closed halfway never
// leaves half a file.
import * as vscode from 'vscode';

// Node's fs/promises is reached with require, not import(), in the Node host's branches below: the
// bundle is CommonJS, and a dynamic import() there goes through Node's ESM loader, a few milliseconds
// of the Catalog's first expansion (it reads the sample catalog). Each require sits inside its
// WEB_BUILD branch so that the browser's bundle, which no Node module may reach, drops it.

/** The text of `uri` as UTF-8; rejects as the file system does (a missing file included). */
export async function readTextFile(uri: vscode.Uri): Promise<string> {
  if (!WEB_BUILD && uri.scheme === 'file') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('node:fs/promises') as typeof import('node:fs/promises')).readFile(uri.fsPath, 'utf8');
  }
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

/**
 * The bytes of `uri`; rejects as the file system does. Node's fs in the Node host (one buffer the
 * file's size, nothing decoded), vscode.workspace.fs elsewhere.
 */
export async function readBytesFile(uri: vscode.Uri): Promise<Uint8Array> {
  if (!WEB_BUILD && uri.scheme === 'file') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require('node:fs/promises') as typeof import('node:fs/promises')).readFile(uri.fsPath);
  }
  return vscode.workspace.fs.readFile(uri);
}

/**
 * Written beside and renamed over, so that a window closed halfway never leaves half a file. The
 * temporary file has a name no one can guess (a link planted there beforehand would be written
 * through), and in the Node host it is made new or not at all (O_EXCL: a link already there is
 * refused, not followed), only its owner reading it, as the command line writes its files.
 */
export async function writeAtomically(uri: vscode.Uri, text: string): Promise<void> {
  const temp = uri.with({ path: `${uri.path}.${randomHex()}.tmp` });
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
  if (!WEB_BUILD && uri.scheme === 'file') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fs = require('node:fs/promises') as typeof import('node:fs/promises');
    const handle = await fs.open(temp.fsPath, 'wx', 0o600);
    try {
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
      await fs.rename(temp.fsPath, uri.fsPath);
    } catch (e) {
      await fs.rm(temp.fsPath, { force: true });
      throw e;
    }
    return;
  }
  try {
    await vscode.workspace.fs.writeFile(temp, new TextEncoder().encode(text));
    await vscode.workspace.fs.rename(temp, uri, { overwrite: true });
  } catch (e) {
    await vscode.workspace.fs.delete(temp).then(undefined, () => undefined);
    throw e;
  }
}

/** 16 random hexadecimal digits (Web Crypto: both extension hosts have it). */
function randomHex(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
}
