// Reading a file as text in either extension host. The Node host reads its own disk with Node's fs,
// straight into a string: VS Code's file system API is slower for a first read, and a TextDecoder
// would copy a large search index once more. Everything else (the browser's host, other schemes)
// goes through vscode.workspace.fs.
import * as vscode from 'vscode';

/** The text of `uri` as UTF-8; rejects as the file system does (a missing file included). */
export async function readTextFile(uri: vscode.Uri): Promise<string> {
  // Left out of the browser's bundle, which no Node module may reach.
  if (!WEB_BUILD && uri.scheme === 'file') {
    const { readFile } = await import('node:fs/promises');
    return readFile(uri.fsPath, 'utf8');
  }
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}
