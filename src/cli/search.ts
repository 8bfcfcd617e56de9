// `refactor-browser search QUERY`: the extension's search on the command line. The index lives in a
// cache folder, one file per service; each search first brings it up to date the way Index the
// Catalog does (the whole service the first time, then only what is new), then searches it with
// the same ranking. A service that cannot be reached leaves the kept index to search, said on stderr.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { indexCatalog, IndexingError, type IndexSource } from '../search/indexer';
import { CodeSearch, savedIndexName, SearchIndexError, type SearchHit } from '../search/searchIndex';
import { ENGLISH_NAMES, titleOf } from '../core/names';
import { formatJson, oneLine } from './format';
import type { Command } from './args';
import type { Io } from './io';
import { plural } from '../core/plural';

/** The folder the indexes are kept in: REFACTOR_BROWSER_CACHE, else the platform's cache folder. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REFACTOR_BROWSER_CACHE) return env.REFACTOR_BROWSER_CACHE;
  if (process.platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'refactor-browser', 'Cache');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches', 'refactor-browser');
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'refactor-browser');
}

/** One file per service, named as the extension names it (savedIndexName). */
export function indexFile(folder: string, service: string): string {
  return path.join(folder, `${savedIndexName(service)}.json`);
}

export async function runSearch(
  command: Extract<Command, { name: 'search' }>,
  source: IndexSource,
  service: string,
  io: Pick<Io, 'out' | 'err' | 'progress'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { index, refreshed } = await upToDateIndex(source, service, io, env);
  const hits = index.search(command.query, { language: command.language, limit: command.limit });
  io.out(command.global.json ? formatJson(hits) : formatHits(hits, index, refreshed));
  return 0;
}

/**
 * `refactor-browser tags`: the tags of the codes the search index knows, most used first. The API
 * has no list of tags; the reference service's XML says each code's tags (the original service's
 * said none), so the index that search keeps, brought up to date first, counts them.
 */
export async function runTags(
  command: Extract<Command, { name: 'tags' }>,
  source: IndexSource,
  service: string,
  io: Pick<Io, 'out' | 'err' | 'progress'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { index, refreshed } = await upToDateIndex(source, service, io, env);
  const tags = index.tagCounts(command.language);
  if (command.global.json) {
    io.out(formatJson(tags));
    return 0;
  }
  const { codes } = index.counts();
  const of = `${plural(codes, 'code')} the search index knows${refreshed ? '' : ' (not brought up to date)'}`;
  if (tags.length === 0) {
    io.out(`No tags among ${of}${command.language ? ` in ${command.language}` : ''} (a service whose XML says no code's tags lists none).\n`);
    return 0;
  }
  const width = Math.max(...tags.map((t) => oneLine(t.tag).length));
  const lines = tags.map((t) => `${oneLine(t.tag).padEnd(width)}  ${plural(t.count, 'code')}\n`);
  io.out(`${lines.join('')}${plural(tags.length, 'tag')} among ${of}${command.language ? ` in ${command.language}` : ''}.\n`);
  return 0;
}

/**
 * The search index kept for `service`, first brought up to date the way Index the Catalog does (and
 * saved); `refreshed` false when the service could not be reached and the kept index is what there is.
 */
export async function upToDateIndex(
  source: IndexSource,
  service: string,
  io: Pick<Io, 'err' | 'progress'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ index: CodeSearch; refreshed: boolean }> {
  const file = indexFile(cacheFolder(env), service);
  const { index, kept } = await readIndex(file, io);
  let refreshed = true;
  const progress = io.progress;
  try {
    await indexCatalog({
      source, index,
      onProgress: progress && ((p) => progress(`\rindexing: ${p.codes} codes, ${p.refactors} refactorings`)),
    });
  } catch (e) {
    if (!(e instanceof IndexingError)) throw e;
    // Nothing kept and nothing read: there is nothing to search.
    if (!kept && e.pagesRead === 0) throw e.cause;
    refreshed = false;
    io.err(`refactor-browser: could not bring the search index up to date (${e.message}); searching what it holds\n`);
  } finally {
    progress?.('\r\x1b[K');
  }
  await replaceFile(file, index.toJSON());
  return { index, refreshed };
}

/** The index kept in `file`, or an empty one (`kept` false) when there is none or it cannot be read, said on `io.err`. */
export async function readIndex(file: string, io: Pick<Io, 'err'>): Promise<{ index: CodeSearch; kept: boolean }> {
  let bytes: Uint8Array;
  try {
    // As bytes: only the head is decoded, the rest kept as it lies until a search needs it (searchIndex.ts).
    bytes = await fs.readFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') io.err(`refactor-browser: cannot read the search index ${file} (${(e as Error).message}); building it again\n`);
    return { index: CodeSearch.empty(), kept: false };
  }
  try {
    const read = CodeSearch.fromJSON(bytes);
    if (read.rebuilt) io.err(`refactor-browser: the search index ${file} did not match its entries; indexed them again\n`);
    return { index: read.index, kept: true };
  } catch (e) {
    if (!(e instanceof SearchIndexError)) throw e;
    io.err(`refactor-browser: ${e.message} (${file}); building it again\n`);
    return { index: CodeSearch.empty(), kept: false };
  }
}

/**
 * Written beside and renamed over, so that a search stopped halfway, or another one, never finds half a
 * file. The file written is a new one under a random name, opened exclusively: whatever already lies at
 * a name (a symlink planted there by another user of a shared folder) is never written through.
 */
export async function replaceFile(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  const handle = await fs.open(temp, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (e) {
    await fs.rm(temp, { force: true });
    throw e;
  }
}

function formatHits(hits: readonly SearchHit[], index: CodeSearch, refreshed: boolean): string {
  const { codes, refactors } = index.counts();
  const of = `${plural(codes, 'code')} and ${plural(refactors, 'refactoring')}${refreshed ? '' : ' (not brought up to date)'}`;
  if (hits.length === 0) return `No matches among ${of}.\n`;
  const lines = hits.map((h) => {
    const code = titleOf({ id: h.codeId, title: h.kind === 'refactor' ? (h.codeTitle ?? '') : h.title });
    const title = h.kind === 'refactor'
      ? `#${h.codeId}  ${oneLine(titleOf({ id: h.refactorId ?? 0, codeId: h.codeId, title: h.title }))}  (refactoring #${h.refactorId} of ${oneLine(code)})`
      : `#${h.codeId}  ${oneLine(code)}`;
    const meta = [h.language, h.author || ENGLISH_NAMES.anonymous].map(oneLine).join(' · ');
    return `${title}\n      ${meta}\n      ${oneLine(h.line)}\n`;
  });
  return `${lines.join('')}${hits.length} of the best matches among ${of}.\n`;
}
