// `refactor-browser mine REPO`: a repository's own refactorings as a catalog file (src/mining/), read
// with the user's own git. The catalog goes to --output (written whole, then renamed into place, so
// no partial file is ever left) or to stdout in one write; progress and the summary go to stderr.
import { spawn } from 'node:child_process';
import { promises as fs, statSync } from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { minedCatalog } from '../mining/catalog';
import { MAX_FILE_BYTES, Miner, type GitReader, type MineSummary } from '../mining/miner';
import { Grammars } from '../similarity/grammars';
import { Tokenizers } from '../similarity/tokenize';
import type { MineCommand } from './args';
import { nodeGrammarFiles } from './grammarFiles';
import type { Io } from './io';
import { plural } from '../core/plural';

/** A failure that is the user's to fix, said in one line with its exit code. */
export class MineError extends Error {
  constructor(message: string, readonly exitCode: 1 | 2) {
    super(message);
  }
}

/** The most bytes of `git log` read: far more than any history's list of commits and files. */
const MAX_LOG_BYTES = 1024 * 1024 * 1024;

/** Runs git in `repo` with `args`; its stdout, or a MineError saying why not. */
function git(repo: string, args: readonly string[], input?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-C', repo, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } });
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_LOG_BYTES) {
        child.kill();
        reject(new MineError(`git gave more than ${MAX_LOG_BYTES} bytes: narrow it with --max, --since or --path`, 1));
      } else out.push(d);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => void (err.length < 10_000 && (err += d)));
    child.on('error', (e: NodeJS.ErrnoException) => {
      reject(e.code === 'ENOENT' ? new MineError('git is not installed or not on PATH (Debian: apt-get install git)', 1) : e);
    });
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new GitFailed(err.trim().split('\n')[0] || `git ${args[0]} exited with ${code}`));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

class GitFailed extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The user's git over `repo`: `git log`, and the blobs from one `git cat-file --batch` per batch. */
export function nodeGit(repo: string): GitReader {
  return {
    log: async (args) => new StringDecoder('utf8').end(await git(repo, args)),
    blobs: async (ids) => {
      const out = await git(repo, ['cat-file', '--batch'], ids.map((id) => `${id}\n`).join(''));
      const texts = new Map<string, string>();
      let at = 0;
      while (at < out.length) {
        const eol = out.indexOf(10, at);
        if (eol < 0) break;
        const [id, type, sizeText] = out.toString('latin1', at, eol).split(' ');
        at = eol + 1;
        if (type === 'missing' || sizeText === undefined) continue;
        const size = Number(sizeText);
        if (type === 'blob' && size <= MAX_FILE_BYTES) {
          try {
            texts.set(id, utf8.decode(out.subarray(at, at + size)));
          } catch {
            // Not UTF-8 text: not code a catalog shows.
          }
        }
        at += size + 1;
      }
      return texts;
    },
  };
}

/** Says why `repo` cannot be mined (not a folder, not a repository, shallow, no commits), as a MineError. */
async function checkRepository(repo: string): Promise<void> {
  let isFolder = false;
  try {
    isFolder = statSync(repo).isDirectory();
  } catch {
    // Said below.
  }
  if (!isFolder) throw new MineError(`${repo} is not a folder`, 2);
  let answer: string;
  try {
    answer = (await git(repo, ['rev-parse', '--is-shallow-repository'])).toString('utf8').trim();
  } catch (e) {
    if (e instanceof GitFailed) throw new MineError(`${repo} is not a git repository (${e.message})`, 2);
    throw e;
  }
  if (answer === 'true') throw new MineError(`${repo} is a shallow clone, whose history is cut: fetch all of it first (git fetch --unshallow)`, 1);
  try {
    await git(repo, ['rev-parse', '--verify', '--quiet', 'HEAD']);
  } catch (e) {
    if (e instanceof GitFailed) throw new MineError(`${repo} has no commits yet`, 1);
    throw e;
  }
}

/** The summary's line: what was read and what was kept. */
export function summaryLine(s: MineSummary): string {
  const skipped = [...s.skipped].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([language, n]) => `${plural(n, `${language} file`, `${language} files`)}`);
  return `mined ${plural(s.commits, 'commit', 'commits')}: ${plural(s.files, 'changed file', 'changed files')} compared, `
    + `${plural(s.functions, 'function', 'functions')} in both versions, ${s.rewritten.toLocaleString('en-US')} rewritten, ${s.kept.toLocaleString('en-US')} kept`
    + (s.generated > 0 ? `; ${plural(s.generated, 'generated or minified file', 'generated or minified files')} left out` : '')
    + (skipped.length > 0 ? `; skipped (no grammar): ${skipped.join(', ')}` : '');
}

/**
 * Refuses a --since or --until git cannot read. git's dates take almost any text and answer one
 * they cannot read with this very moment, so `--since yesterdayish` would mine nothing and say
 * nothing: a text git reads as now, other than "now" itself, is refused.
 */
async function checkDates(repo: string, command: MineCommand): Promise<void> {
  for (const [flag, text] of [['--since', command.since], ['--until', command.until]] as const) {
    if (text === undefined || /^\s*now\s*$/i.test(text)) continue;
    const before = Math.floor(Date.now() / 1000);
    const answer = (await git(repo, ['rev-parse', `${flag}=${text}`])).toString('utf8');
    const after = Math.ceil(Date.now() / 1000);
    const seconds = Number(/=(-?\d+)/.exec(answer)?.[1]);
    if (!Number.isFinite(seconds) || (seconds >= before && seconds <= after)) {
      throw new MineError(`${flag} "${text}" is not a date git reads: give one such as 2025-01-31 or "2 weeks ago"`, 2);
    }
  }
}

export async function runMine(command: MineCommand, io: Io): Promise<number> {
  try {
    await checkRepository(command.repo);
    await checkDates(command.repo, command);
    const tokenizers = new Tokenizers(new Grammars(nodeGrammarFiles()));
    const miner = new Miner(nodeGit(command.repo), tokenizers);
    const { mined, summary } = await miner.mine(
      { max: command.max, since: command.since, until: command.until, paths: command.paths, all: command.all },
      (p) => {
        if (command.json) io.err(`${JSON.stringify({ progress: p })}\n`);
        else io.progress?.(`\rmining: ${p.commits} of ${p.of} commits read, ${p.kept} kept`);
      },
    );
    if (!command.json && io.progress) io.progress('\r\x1b[K');
    const text = `${JSON.stringify(minedCatalog(mined), null, 2)}\n`;
    if (command.output === undefined) io.out(text);
    else await writeWhole(command.output, text);
    if (command.json) io.err(`${JSON.stringify({ summary: { ...summary, skipped: Object.fromEntries(summary.skipped) } })}\n`);
    else io.err(`${summaryLine(summary)}${command.output === undefined ? '' : `; written to ${command.output}`}\n`);
    return 0;
  } catch (e) {
    if (e instanceof MineError) {
      io.err(`refactor-browser: ${e.message}\n`);
      return e.exitCode;
    }
    if (e instanceof GitFailed) {
      io.err(`refactor-browser: git failed: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

/** Writes `text` to `file` whole: into a file beside it, then renamed over it, so no reader sees a part. */
async function writeWhole(file: string, text: string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    await fs.writeFile(temporary, text, { flag: 'wx' });
    await fs.rename(temporary, file);
  } catch (e) {
    await fs.rm(temporary, { force: true });
    throw e;
  }
}
