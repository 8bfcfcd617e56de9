// Reading a catalog file from disk (`serve --catalog FILE`). Kept apart from dataset.ts because it
// needs node:fs, which VS Code for the Web's extension host does not have.

import * as fs from 'node:fs';
import { fileProblem } from '../fileErrors';
import { DatasetError, parseDataset, type Dataset } from './dataset';

/** Reads a catalog file; read and JSON errors become DatasetErrors naming the file too. */
export function loadDatasetFile(path: string): Dataset {
  return parseDataset(readDatasetJson(path), path);
}

/** A catalog file's JSON, not yet checked; read and JSON errors become DatasetErrors naming the file. */
export function readDatasetJson(path: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (e) {
    throw unreadable(path, (e as NodeJS.ErrnoException).code ?? String(e));
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new DatasetError(path, undefined, undefined, `is not valid JSON (${(e as Error).message})`);
  }
  return json;
}

/**
 * Throws what readDatasetJson would when `path` is missing, a folder or not readable: checked before
 * a command starts its slow work (opening storage), so that a mistyped name is said at once.
 */
export function checkDatasetFile(path: string): void {
  let code: string | undefined;
  try {
    if (fs.statSync(path).isDirectory()) code = 'EISDIR';
    else fs.accessSync(path, fs.constants.R_OK);
  } catch (e) {
    code = (e as NodeJS.ErrnoException).code ?? String(e);
  }
  if (code !== undefined) throw unreadable(path, code);
}

/** The one line for a catalog file that cannot be read, its errno code in words where they exist. */
function unreadable(path: string, code: string): DatasetError {
  return new DatasetError(path, undefined, undefined, `cannot be read: ${fileProblem(code) ?? code}`);
}
