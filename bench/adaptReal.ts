// similarity.adapt.real: adapting a refactoring to real functions renamed as a person renames them.
// The corpus (test/fixtures/adapt-real, made by scripts/adaptCorpus.ts; sources and licences in its
// README.md) holds functions from real packages in Python, JavaScript, TypeScript, Java, Ruby and C#,
// each with every local and parameter renamed and its members, keys and keyword arguments kept; a
// quarter to two thirds of them have a local named like a member (`sep = os.sep`). The refactoring
// is the function with a line added that uses one of its locals; adapted to the renamed function,
// it must be the renamed function with that line renamed alike, to the character.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { adapt } from '../src/similarity/adapt';
import type { Tokenizers } from '../src/similarity/tokenize';
import type { RealCorpus, RealFunction } from '../scripts/adaptCorpus';
import { figure, type Figure } from './measure';

const CORPUS = path.resolve(__dirname, '../../test/fixtures/adapt-real');
export const REAL_CORPUS_FILES = ['python', 'javascript', 'typescript', 'java', 'ruby', 'csharp'];
/** The service's language a corpus's code is compared in: TypeScript is compared as JavaScript. */
const COMPARED_AS: Record<string, string> = { TypeScript: 'JavaScript' };

export interface RealAdapted {
  language: string;
  fn: RealFunction;
  exact: boolean;
  /** What adapt said when it refused, or the text it gave when that was not the one expected. */
  why?: string;
}

export function realCorpora(): RealCorpus[] {
  return REAL_CORPUS_FILES.map((f) => JSON.parse(fs.readFileSync(path.join(CORPUS, `${f}.json`), 'utf8')) as RealCorpus);
}

function withLine(text: string, at: number, line: string): string {
  const lines = text.split('\n');
  lines.splice(at, 0, line);
  return lines.join('\n');
}

/** Adapts each corpus function's refactoring to its renamed copy, as the CLI's `adapt` does. */
export async function adaptRealCorpus(tokenizers: Pick<Tokenizers, 'tokenize'>): Promise<RealAdapted[]> {
  const out: RealAdapted[] = [];
  for (const corpus of realCorpora()) {
    const language = COMPARED_AS[corpus.language] ?? corpus.language;
    const t = async (text: string) => ({ text, tokens: (await tokenizers.tokenize(text, language)).tokens });
    for (const fn of corpus.functions) {
      const refactor = withLine(fn.original, fn.added.line, fn.added.original);
      const expected = withLine(fn.renamed, fn.added.line, fn.added.renamed);
      const got = adapt(await t(fn.original), await t(refactor), await t(fn.renamed));
      const exact = got.ok && got.text === expected;
      out.push({ language: corpus.language, fn, exact, why: exact ? undefined : got.ok ? `gave ${JSON.stringify(got.text)}` : got.reason });
    }
  }
  return out;
}

function share(rows: readonly RealAdapted[]): number {
  return rows.length === 0 ? 0 : rows.filter((r) => r.exact).length / rows.length;
}

/** Each language's share, and the share among functions with a local named like a member. */
export function realNote(rows: readonly RealAdapted[]): string {
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const languages = [...new Set(rows.map((r) => r.language))];
  const sharing = rows.filter((r) => r.fn.sharesMemberName);
  const refused = rows.filter((r) => !r.exact).map((r) => `${r.language} ${r.fn.name} (${r.why})`);
  return `${languages.map((l) => {
    const own = rows.filter((r) => r.language === l);
    return `${l} ${pct(share(own))} of ${own.length}`;
  }).join(', ')}; with a local named like a member ${pct(share(sharing))} of ${sharing.length}${refused.length > 0 ? `; not exact: ${refused.join('; ')}` : ''}`;
}

export async function adaptRealFigures(tokenizers: Pick<Tokenizers, 'tokenize'>): Promise<Figure[]> {
  const rows = await adaptRealCorpus(tokenizers);
  return [figure({
    name: 'similarity.adapt.real', goal: 0.95, unit: 'share', higherIsBetter: true,
    note: `real functions (test/fixtures/adapt-real) renamed as a person renames, locals only, whose refactoring adapted is the refactoring renamed alike, to the character: ${realNote(rows)}`,
  }, share(rows), 1)];
}
