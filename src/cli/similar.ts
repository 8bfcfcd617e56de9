// `refactor-browser similar FILE` and `refactor-browser adapt CODE_REF REFACTOR_ID FILE`: the
// extension's Find Refactorings for This Code on the command line, over the one pipeline every
// front end shares (src/similarity/pipeline.ts). `similar` brings the search index up to date as
// `search` does and compares each function of FILE as the editor compares the function at the
// cursor (the whole file when it has none; `--lines` a span); `adapt` rewrites a refactoring into
// FILE's names. What this module adds is the command line's host (files beside the search index,
// written as `search` writes its own) and the output.
import * as fs from 'node:fs/promises';
import type { Code } from '../core/model';
import { canonicalServiceLanguage } from '../core/languages';
import { titleOf } from '../core/names';
import type { IndexSource } from '../search/indexer';
import type { CodeSearch } from '../search/searchIndex';
import { adaptRefactoring } from '../similarity/adapt';
import { languageOfFile } from '../similarity/catalogMatch';
import { GrammarError, Grammars, hasGrammar } from '../similarity/grammars';
import { fingerprintsFileOf, SimilarPipeline, type FoundMatch, type SimilarHost } from '../similarity/pipeline';
import { Tokenizers } from '../similarity/tokenize';
import { TooLongError, type Token } from '../similarity/tokens';
import type { Command } from './args';
import { formatJson, formatRating, oneLine } from './format';
import { nodeGrammarFiles } from './grammarFiles';
import type { Io } from './io';
import { cacheFolder, indexFile, replaceFile, upToDateIndex } from './search';
import { readCode } from './write';
import { plural } from '../core/plural';

export class SimilarInputError extends Error {}

/** What is compared: FILE's text, or its lines A to B (1-based, inclusive), and the line of FILE it starts at. */
interface Input {
  text: string;
  firstLine: number;
}

/** The text of FILE (`-`: stdin), or its lines A to B; an empty one said so. */
async function inputOf(file: string, lines: [number, number] | undefined, io: Pick<Io, 'readStdin'>): Promise<Input> {
  let text: string;
  try {
    text = await readCode(file, io);
  } catch (e) {
    throw new SimilarInputError((e as NodeJS.ErrnoException).code ? `cannot read ${file} (${(e as NodeJS.ErrnoException).code})` : (e as Error).message);
  }
  const shown = file === '-' ? 'stdin' : file;
  if (text.trim() === '') throw new SimilarInputError(`${shown} is empty: there is no code to compare`);
  if (!lines) return { text, firstLine: 1 };
  const all = text.split('\n');
  if (lines[0] > all.length) throw new SimilarInputError(`${shown} has ${all.length} lines; --lines starts at ${lines[0]}`);
  const span = all.slice(lines[0] - 1, lines[1]).join('\n');
  if (span.trim() === '') throw new SimilarInputError(`lines ${lines[0]}-${lines[1]} of ${shown} are empty: there is no code to compare`);
  return { text: span, firstLine: lines[0] };
}

function languageFor(file: string, language: string | undefined): string {
  if (language) return canonicalServiceLanguage(language);
  const found = file === '-' ? undefined : languageOfFile(file);
  if (!found) throw new SimilarInputError(`cannot tell the language of ${file} from its name: say it with --language`);
  return found;
}

/** The grammars' and tokenizers' errors as the command line's one line. */
async function said<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof TooLongError || e instanceof GrammarError) throw new SimilarInputError(e.message);
    throw e;
  }
}

/** The command line's host of the pipeline: the search index in the cache folder, the fingerprints beside it. */
export interface CliSimilarOptions {
  /** The search index; read (and, for `similar`, brought up to date) when first asked for. */
  index(): Promise<CodeSearch>;
  source: { code(ref: number): Promise<Code> };
  service: string;
  io: Pick<Io, 'err' | 'progress'>;
  env?: NodeJS.ProcessEnv;
}

export function cliPipeline(o: CliSimilarOptions, tokenizers = new Tokenizers(new Grammars(nodeGrammarFiles()))): SimilarPipeline {
  const file = fingerprintsFileOf(indexFile(cacheFolder(o.env), o.service));
  const host: SimilarHost = {
    index: () => o.index(),
    fetchCode: (id) => o.source.code(id),
    readPrints: () => fs.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw new Error(`cannot read ${file} (${e.code ?? e.message})`);
    }),
    writePrints: (text) => replaceFile(file, text),
    warn: (line) => o.io.err(`refactor-browser: ${line}\n`),
    async fingerprinting(_stale, run) {
      const progress = o.io.progress;
      try {
        return await run(progress && ((done, of) => progress(`\rfingerprinting: ${done} of ${of} codes`)));
      } finally {
        progress?.('\r\x1b[K');
      }
    },
  };
  return new SimilarPipeline(host, tokenizers);
}

/** A part of FILE compared on its own: a function (its name when it has one), or the span or file given. */
interface Part extends Input {
  name?: string;
  /** Its lines in FILE (1-based, first and last). */
  lines: [number, number];
  /** True for a function of the file: the output says which. */
  isFunction: boolean;
}

/** Each function of the input, as the editor finds the function at the cursor; the input as one part when it has none. */
async function partsOf(input: Input, language: string, tokenizers: Tokenizers, span: boolean): Promise<Part[]> {
  const lines = input.text.split('\n');
  const whole: Part = { ...input, lines: [input.firstLine, input.firstLine + lines.length - 1], isFunction: false };
  if (span || !hasGrammar(language)) return [whole];
  const functions = await said(tokenizers.grammars.functions(input.text, language));
  if (functions.length === 0) return [whole];
  return functions.map((f) => ({
    text: lines.slice(f.first, f.last + 1).join('\n'), firstLine: input.firstLine + f.first, name: f.name,
    lines: [input.firstLine + f.first, input.firstLine + f.last], isFunction: true,
  }));
}

export async function runSimilar(
  command: Extract<Command, { name: 'similar' }>,
  source: IndexSource & { code(ref: number): Promise<Code> },
  service: string,
  io: Pick<Io, 'out' | 'err' | 'progress' | 'readStdin'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const language = languageFor(command.file, command.language);
  const input = await inputOf(command.file, command.lines, io);
  let index: Promise<CodeSearch> | undefined;
  const pipeline = cliPipeline({ index: () => (index ??= upToDateIndex(source, service, io, env).then((r) => r.index)), source, service, io, env });
  const parts = await partsOf(input, language, pipeline.tokenizers, command.lines !== undefined);
  const found: Array<{ part: Part; matches: FoundMatch[] }> = [];
  let compared = 0;
  for (const part of parts) {
    const answer = await said(pipeline.find({ text: part.text, language }, command.limit));
    compared = answer.compared;
    found.push({ part, matches: answer.matches });
  }
  await pipeline.flush();
  const lines = (part: Part, m: FoundMatch): [number, number] => [part.firstLine + m.lines[0], part.firstLine + m.lines[1]];
  if (command.global.json) {
    io.out(formatJson(found.flatMap(({ part, matches }) => matches.map((m) => ({
      similarity: Math.round(m.similarity * 1000) / 1000, code: withoutRefactors(m.code), lines: lines(part, m),
      for: { name: part.name ?? null, lines: part.lines },
    })))));
    return 0;
  }
  if (found.every((f) => f.matches.length === 0)) {
    const what = parts.length > 1 ? `any of its ${plural(parts.length, 'function')}` : 'this';
    io.out(`No code like ${what} among ${plural(compared, 'code')} in ${language}. Try \`refactor-browser search\` with words from it.\n`);
    return 0;
  }
  io.out(found.filter((f) => f.matches.length > 0).map(({ part, matches }) => {
    const head = part.isFunction ? `${part.name ? `${oneLine(part.name)}, ` : 'a function, '}lines ${part.lines[0]}-${part.lines[1]}:\n` : '';
    return head + matches.map((m) => {
      const [first, last] = lines(part, m);
      const meta = [
        `${Math.round(m.similarity * 100)}%${m.certain ? '' : ' (by its words alone: less certain)'}`,
        m.code.language,
        m.best ? `best refactoring #${m.best.id}, ${formatRating(m.best)}` : 'no refactorings yet',
        `your lines ${first}-${last}`,
      ];
      return `#${m.code.id}  ${oneLine(titleOf(m.code))}\n      ${meta.map(oneLine).join(' · ')}\n`;
    }).join('');
  }).join('\n'));
  return 0;
}

export async function runAdapt(
  command: Extract<Command, { name: 'adapt' }>,
  client: { code(ref: string): Promise<Code> },
  io: Pick<Io, 'out' | 'err' | 'readStdin'>,
): Promise<number> {
  const code = await client.code(command.ref);
  const refactor = (code.refactors ?? []).find((r) => r.id === command.refactorId);
  if (!refactor) {
    io.err(`refactor-browser: code #${code.id} has no refactoring #${command.refactorId}\n`);
    return 1;
  }
  const fileLanguage = command.file === '-' ? undefined : languageOfFile(command.file);
  if (fileLanguage !== undefined && fileLanguage.toLowerCase() !== canonicalServiceLanguage(code.language).toLowerCase()) {
    io.err(`refactor-browser: code #${code.id} is in ${code.language} and ${command.file} in ${fileLanguage}: a refactoring adapts only to code of its own language\n`);
    return 1;
  }
  const input = await inputOf(command.file, command.lines, io);
  const tokenizers = new Tokenizers(new Grammars(nodeGrammarFiles()));
  // The lines the tokens say are the file's, so that where the codes part is the file's line.
  const tokens = (await tokenize(tokenizers, input.text, code.language)).map((t): Token => ({ ...t, line: t.line + input.firstLine - 1 }));
  const adapted = await adaptRefactoring(tokenizers, code, refactor, { text: input.text, tokens });
  if (!adapted.ok) {
    io.err(`refactor-browser: refactoring #${refactor.id} does not adapt to ${command.file}: ${adapted.reason}\n`);
    return 1;
  }
  io.out(adapted.text.endsWith('\n') ? adapted.text : `${adapted.text}\n`);
  return 0;
}

export async function tokenize(tokenizers: Tokenizers, text: string, language: string): Promise<Token[]> {
  return said(tokenizers.tokenize(text, language).then((t) => t.tokens));
}

function withoutRefactors(code: Code): Omit<Code, 'refactors'> {
  const { refactors: _omitted, ...rest } = code;
  return rest;
}
