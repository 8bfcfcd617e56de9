// Reading a catalog file from disk (`serve --catalog FILE`). Kept apart from dataset.ts because it
// needs node:fs, which VS Code for the Web's extension host does not have.

import * as fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
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
    text = readText(path);
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

/** Bytes read at a time: below glibc's first mmap threshold (128 KiB). */
export const READ_CHUNK = 64 * 1024;

/**
 * A file's text as fs.readFileSync(path, 'utf8') gives it, read `chunk` bytes at a time into one
 * buffer. Reading a 24 MB catalog whole allocated, then freed, a 24 MB buffer outside V8's heap,
 * and glibc then raises its mmap threshold to that size (and its trim threshold to twice it) for the
 * rest of the process: every later allocation below it comes from malloc's arenas, and much of it
 * stays resident once freed. An import of 10,000 codes peaked at 409 MiB after such a read, and at
 * 347 to 350 MiB read in chunks (docs/benchmarks.md, "Starting a service, and its memory").
 */
export function readText(path: string, chunk = READ_CHUNK): string {
  const fd = fs.openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(chunk);
    const decoder = new StringDecoder('utf8');
    const pieces: string[] = [];
    for (let n; (n = fs.readSync(fd, buffer, 0, chunk, null)) > 0;) pieces.push(decoder.write(buffer.subarray(0, n)));
    pieces.push(decoder.end());
    return pieces.join('');
  } finally {
    fs.closeSync(fd);
  }
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
