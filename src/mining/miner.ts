// Mining a repository's history for refactorings: the commits and the files they changed first (one
// `git log`, cheap), then only the changed files' versions before and after, in batches, each parsed
// once (a version is the "after" of one commit and the "before" of the next that changes the file).
// A function found in both versions under the same name whose text changed is a rewrite; select.ts
// says which rewrites read as refactorings. Git is reached through a GitReader the caller gives (the
// command line runs the user's own git).
import { firstNonXmlChar, MAX_CODE_CHARS } from '../core/writeContract';
import { hasGrammar } from '../similarity/grammars';
import { languageOfFile } from '../similarity/catalogMatch';
import type { Tokenizers } from '../similarity/tokenize';
import { namedFunctions, type NamedFunction } from './functions';
import { LOG_ARGS, parseLog, type Commit, type FileChange } from './log';
import { changedBeyondWhitespace, changesCode, isGeneratedPath, isMachineMade, isRevert, lineCount, MAX_LINES, MIN_LINES, readsAsRefactoring } from './select';

export interface GitReader {
  /** The output of `git log` run with these arguments. */
  log(args: readonly string[]): Promise<string>;
  /** The text of each blob that is UTF-8 text of at most MAX_FILE_BYTES, by id; the others left out. */
  blobs(ids: readonly string[]): Promise<Map<string, string>>;
}

/** Files larger than this are not read: nobody refactors by hand in a megabyte of one file. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** How many commits' files are read at once. */
const BATCH_COMMITS = 200;
/** How many files' functions are kept for the next commit that changes them. */
const KEPT_FILES = 4000;

export interface MineOptions {
  /** --max: the most recent N commits. */
  max?: number;
  since?: string;
  until?: string;
  /** --path: globs of the files looked at. */
  paths: readonly string[];
  /** --all: every rewrite, not only those that read as refactorings. */
  all: boolean;
}

export interface Mined {
  commit: Commit;
  path: string;
  language: string;
  /** The function's name within its file (NamedFunction.key). */
  name: string;
  before: string;
  after: string;
}

export interface MineSummary {
  commits: number;
  /** Changed files in a language with a grammar, read before and after. */
  files: number;
  /** Functions found in both versions of a changed file. */
  functions: number;
  /** Of those, rewritten (changed beyond whitespace). */
  rewritten: number;
  kept: number;
  /** Changed files in a language with no grammar, by language. */
  skipped: Map<string, number>;
  /** Changed files left out as generated, vendored or minified. */
  generated: number;
}

export interface MineProgress {
  commits: number;
  of: number;
  kept: number;
}

/** The git log arguments for `options`: LOG_ARGS, the limits, and the paths as globs. */
export function logArgs(options: MineOptions): string[] {
  const args = [...LOG_ARGS];
  if (options.max !== undefined) args.push(`--max-count=${options.max}`);
  if (options.since !== undefined) args.push(`--since=${options.since}`);
  if (options.until !== undefined) args.push(`--until=${options.until}`);
  args.push('--', ...options.paths.map((p) => `:(glob)${p}`));
  return args;
}

export class Miner {
  /** Each file version's functions (or null: not parsed, machine-made), by blob, the oldest dropped first. */
  private readonly parsed = new Map<string, NamedFunction[] | null>();

  constructor(private readonly git: GitReader, private readonly tokenizers: Tokenizers) {}

  async mine(options: MineOptions, progress?: (p: MineProgress) => void): Promise<{ mined: Mined[]; summary: MineSummary }> {
    const commits = parseLog(await this.git.log(logArgs(options)));
    const summary: MineSummary = { commits: commits.length, files: 0, functions: 0, rewritten: 0, kept: 0, skipped: new Map(), generated: 0 };
    const mined: Mined[] = [];
    const seen = new Set<string>();
    // Oldest first: each file's versions are then read in the order the next commit needs them.
    const ordered = [...commits].reverse();
    for (let at = 0; at < ordered.length; at += BATCH_COMMITS) {
      const batch = ordered.slice(at, at + BATCH_COMMITS);
      const wanted: Array<{ commit: Commit; change: FileChange; language: string }> = [];
      for (const commit of batch) {
        if (commit.parents.length !== 1 || isRevert(commit.message)) continue;
        for (const change of commit.changes) {
          if (change.status !== 'M') continue;
          const language = languageOfFile(change.path);
          if (language === undefined) continue;
          if (!hasGrammar(language)) {
            summary.skipped.set(language, (summary.skipped.get(language) ?? 0) + 1);
            continue;
          }
          if (isGeneratedPath(change.path)) {
            summary.generated++;
            continue;
          }
          wanted.push({ commit, change, language });
        }
      }
      await this.read(wanted.flatMap(({ change, language }) => [[change.before, language], [change.after, language]] as Array<[string, string]>));
      for (const { commit, change, language } of wanted) {
        const before = this.parsed.get(change.before);
        const after = this.parsed.get(change.after);
        if (before === null || after === null) {
          summary.generated++;
          continue;
        }
        if (before === undefined || after === undefined) continue;
        summary.files++;
        const old = new Map(before.map((f) => [f.key, f]));
        for (const fn of after) {
          const was = old.get(fn.key);
          if (!was) continue;
          summary.functions++;
          if (!changedBeyondWhitespace(was.text, fn.text)) continue;
          summary.rewritten++;
          if (!(await keepsRewrite(this.tokenizers, { before: was.text, after: fn.text, language, message: commit.message }, options.all))) continue;
          // The same rewrite made again (a cherry-pick onto another branch) is one code.
          const rewrite = JSON.stringify([change.path, fn.key, was.text, fn.text]);
          if (seen.has(rewrite)) continue;
          seen.add(rewrite);
          mined.push({ commit, path: change.path, language, name: fn.key, before: was.text, after: fn.text });
        }
      }
      progress?.({ commits: Math.min(at + batch.length, ordered.length), of: ordered.length, kept: mined.length });
    }
    return { mined, summary: { ...summary, kept: mined.length } };
  }

  /** Parses the versions not parsed yet, by blob; a blob git does not give (binary, too large) stays unknown. */
  private async read(versions: Array<[string, string]>): Promise<void> {
    const languageOf = new Map(versions.filter(([blob]) => !this.parsed.has(blob)));
    if (languageOf.size === 0) return;
    const texts = await this.git.blobs([...languageOf.keys()]);
    for (const [blob, language] of languageOf) {
      const text = texts.get(blob);
      if (text === undefined) continue;
      this.keep(blob, isMachineMade(text) ? null : await this.tokenizers.grammars.withSyntaxTree(text, language, (root) => namedFunctions(root, text)));
    }
  }

  private keep(blob: string, functions: NamedFunction[] | null): void {
    this.parsed.set(blob, functions);
    if (this.parsed.size > KEPT_FILES) this.parsed.delete(this.parsed.keys().next().value!);
  }
}

/**
 * A rewrite of a size a person reads, of its code (not only its comments), and with `all` or when
 * it reads as a refactoring (select.ts).
 */
export async function keepsRewrite(
  tokenizers: Tokenizers,
  { before, after, language, message }: { before: string; after: string; language: string; message: string },
  all = false,
): Promise<boolean> {
  const lines = [lineCount(before), lineCount(after)];
  if (lines.some((n) => n < MIN_LINES || n > MAX_LINES)) return false;
  // What a catalog cannot hold as it is: a text too long for the service, a character XML cannot carry.
  if ([before, after].some((t) => t.length > MAX_CODE_CHARS || firstNonXmlChar(t) !== undefined)) return false;
  const [a, b] = await Promise.all([tokenizers.tokenize(before, language), tokenizers.tokenize(after, language)]);
  const rewrite = { message, before: { text: before, tokens: a.tokens }, after: { text: after, tokens: b.tokens } };
  if (!changesCode(rewrite)) return false;
  return all || readsAsRefactoring(rewrite);
}
