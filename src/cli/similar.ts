// `refactor-browser similar FILE` and `refactor-browser adapt CODE_REF REFACTOR_ID FILE`: the
// extension's Find Refactorings for This Code on the command line. `similar` brings the search
// index up to date as `search` does, fingerprints what is new beside it, and ranks the catalog's
// codes by how alike their structure is to FILE's; `adapt` rewrites a refactoring into FILE's names.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Code, Refactor } from '../core/model';
import { titleOf } from '../core/names';
import type { IndexSource } from '../search/indexer';
import { savedIndexName, type CodeSearch } from '../search/searchIndex';
import type { CodeEntry } from '../search/entries';
import { adaptRefactoring } from '../similarity/adapt';
import { coveredSpan, fingerprint } from '../similarity/fingerprint';
import { GrammarError, Grammars } from '../similarity/grammars';
import { bestRefactor, languageOfFile } from '../similarity/catalogMatch';
import { SimilarityIndex, SimilarityIndexError } from '../similarity/similarIndex';
import { Tokenizers } from '../similarity/tokenize';
import { TooLongError, type Token } from '../similarity/tokens';
import type { Command } from './args';
import { formatJson, formatRating, oneLine } from './format';
import { nodeGrammarFiles } from './grammarFiles';
import type { Io } from './io';
import { cacheFolder, replaceFile, upToDateIndex } from './search';
import { readCode } from './write';
import { plural } from '../core/plural';

export class SimilarInputError extends Error {}

/** The text of FILE (`-`: stdin), or its lines A to B (1-based, inclusive), and where they start. */
async function inputOf(file: string, lines: [number, number] | undefined, io: Pick<Io, 'readStdin'>): Promise<{ text: string; firstLine: number }> {
  let text: string;
  try {
    text = await readCode(file, io);
  } catch (e) {
    throw new SimilarInputError((e as NodeJS.ErrnoException).code ? `cannot read ${file} (${(e as NodeJS.ErrnoException).code})` : (e as Error).message);
  }
  if (!lines) return { text, firstLine: 1 };
  const all = text.split('\n');
  if (lines[0] > all.length) throw new SimilarInputError(`${file} has ${all.length} lines; --lines starts at ${lines[0]}`);
  return { text: all.slice(lines[0] - 1, lines[1]).join('\n'), firstLine: lines[0] };
}

function languageFor(file: string, language: string | undefined): string {
  if (language) return language;
  const found = file === '-' ? undefined : languageOfFile(file);
  if (!found) throw new SimilarInputError(`cannot tell the language of ${file} from its name: say it with --language`);
  return found;
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
  const tokenizers = new Tokenizers(new Grammars(nodeGrammarFiles()));
  const query = await tokenize(tokenizers, input.text, language);
  const { index } = await upToDateIndex(source, service, io, env);
  const prints = await upToDatePrints(index, tokenizers, service, io, env);
  const rows = await similarMatches({ index, prints, tokenizers, source, query, language, limit: command.limit });
  const shown = rows.map((r) => {
    // The lines that matched, 1-based in FILE; all of the input when no run of it is shared whole.
    const [first, last] = r.span ?? [0, query.length - 1];
    return { ...r, lines: [query[first].line + input.firstLine, query[last].line + input.firstLine] };
  });
  if (command.global.json) {
    io.out(formatJson(shown.map(({ similarity, code, lines }) => ({ similarity: Math.round(similarity * 1000) / 1000, code: withoutRefactors(code), lines }))));
    return 0;
  }
  if (shown.length === 0) {
    io.out(`No code like this among ${plural(index.counts().codes, 'code')} in ${language}. Try \`refactor-browser search\` with words from it.\n`);
    return 0;
  }
  io.out(shown.map(({ similarity, certain, code, lines }) => {
    const best = bestRefactor(code.refactors ?? []);
    const meta = [
      `${Math.round(similarity * 100)}%${certain ? '' : ' (by its words alone: less certain)'}`,
      code.language,
      best ? `best refactoring #${best.id}, ${formatRating(best)}` : 'no refactorings yet',
      `your lines ${lines[0]}-${lines[1]}`,
    ];
    return `#${code.id}  ${oneLine(titleOf(code))}\n      ${meta.map(oneLine).join(' · ')}\n`;
  }).join(''));
  return 0;
}

export interface SimilarRow {
  code: Code;
  similarity: number;
  certain: boolean;
  /** The query's tokens (first, last) inside a run the code's most alike text shares. */
  span: [number, number] | undefined;
}

/**
 * The codes most like `query` (its tokens), best first, each as the service gives it (with ratings)
 * or, when it cannot be asked, as search kept it.
 */
export async function similarMatches(o: {
  index: CodeSearch; prints: SimilarityIndex; tokenizers: Tokenizers; source: { code(ref: number): Promise<Code> };
  query: Token[]; language: string; limit: number;
}): Promise<SimilarRow[]> {
  const found = o.prints.query(fingerprint(o.query), o.language, o.limit);
  const rows = await Promise.all(found.map(async (m): Promise<SimilarRow | undefined> => {
    const entry = o.index.entry(m.codeId);
    const code = await o.source.code(m.codeId).catch(() => undefined) ?? (entry && codeOf(entry));
    if (!code) return undefined;
    const matched = m.refactorId === 0 ? code.code : code.refactors?.find((r) => r.id === m.refactorId)?.code;
    const span = matched === undefined ? undefined : coveredSpan(o.query, await tokenize(o.tokenizers, matched, code.language));
    return { similarity: m.similarity, certain: m.by === 'tree', code, span };
  }));
  return rows.filter((r) => r !== undefined);
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
  const input = await inputOf(command.file, command.lines, io);
  const tokenizers = new Tokenizers(new Grammars(nodeGrammarFiles()));
  const adapted = await adaptRefactoring(tokenizers, code, refactor, { text: input.text, tokens: await tokenize(tokenizers, input.text, code.language) });
  if (!adapted.ok) {
    io.err(`refactor-browser: refactoring #${refactor.id} does not adapt to ${command.file}: ${adapted.reason}\n`);
    return 1;
  }
  io.out(adapted.text.endsWith('\n') ? adapted.text : `${adapted.text}\n`);
  return 0;
}

export async function tokenize(tokenizers: Tokenizers, text: string, language: string): Promise<Token[]> {
  try {
    return (await tokenizers.tokenize(text, language)).tokens;
  } catch (e) {
    if (e instanceof TooLongError || e instanceof GrammarError) throw new SimilarInputError(e.message);
    throw e;
  }
}

/** The fingerprints kept beside the search index, brought up to date with it and saved. */
export async function upToDatePrints(index: CodeSearch, tokenizers: Tokenizers, service: string, io: Pick<Io, 'err' | 'progress'>, env: NodeJS.ProcessEnv): Promise<SimilarityIndex> {
  const file = path.join(cacheFolder(env), `${savedIndexName(service)}-fingerprints.json`);
  let prints = new SimilarityIndex();
  try {
    prints = SimilarityIndex.fromJSON(await fs.readFile(file, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') io.err(`refactor-browser: ${e instanceof SimilarityIndexError ? e.message : `cannot read ${file} (${code ?? (e as Error).message})`}; making them again\n`);
  }
  const progress = io.progress;
  try {
    const made = await prints.update(index, tokenizers, progress && ((done, of) => progress(`\rfingerprinting: ${done} of ${of} codes`)));
    if (made > 0 || !(await exists(file))) await replaceFile(file, prints.toJSON());
  } finally {
    progress?.('\r\x1b[K');
  }
  return prints;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(() => true, () => false);
}

/** A code as search kept it, for when the service cannot be asked: no ratings, no page. */
function codeOf(e: CodeEntry): Code {
  const refactors: Refactor[] = e.refactors.map((r) => ({
    id: r.id, codeId: e.id, title: r.title, language: e.language, code: r.code, comment: r.comment,
    createdAt: r.createdAt ? new Date(r.createdAt) : null, rating: null, ratingsCount: null, userId: null, userName: r.author, userWebsite: '',
  }));
  return {
    id: e.id, title: e.title, language: e.language, permalink: '', code: e.code, comment: e.comment,
    createdAt: e.createdAt ? new Date(e.createdAt) : null, updatedAt: null, refactorsCount: e.refactors.length,
    trackbackUrl: '', userId: null, refactors,
  };
}

function withoutRefactors(code: Code): Omit<Code, 'refactors'> {
  const { refactors: _omitted, ...rest } = code;
  return rest;
}
