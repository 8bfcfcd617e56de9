// Finding refactorings for a piece of code, once for every front end (the extension's Find
// Refactorings for This Code and its language model tool, the command line's `similar`, the MCP
// server's find_similar_code): the catalog's codes most like it by their fingerprints (kept in a file
// beside the search index, brought up to date with it), each as search keeps it, its best refactoring
// (the code view's best-rated order) and that refactoring in the user's names where it adapts. Online,
// each code found is asked of the service first and its answer taken into the kept copy; the answer
// is made from the kept copy, so that it is the same online and offline, except a text search cut at
// its bound, which is taken whole from the service's answer (offline it is not adapted). The host hands in
// what this reads and writes (SimilarHost), as it hands in the grammar files (GrammarFiles).
import type { Code, Refactor } from '../core/model';
import { MAX_TEXT_CHARS, mayBeCut, type CodeEntry } from '../search/entries';
import type { CodeSearch } from '../search/searchIndex';
import { adaptRefactoring, type Adapted } from './adapt';
import { bestRefactor } from './catalogMatch';
import { coveredSpan, fingerprint } from './fingerprint';
import { DEFAULT_SIMILAR_LIMIT, SimilarityIndex, SimilarityIndexError } from './similarIndex';
import type { Tokenizers } from './tokenize';
import { TooLongError, type Token } from './tokens';

/** The fingerprints' file of a search index's file (its path or name): beside it, `NAME-fingerprints.json`. */
export function fingerprintsFileOf(indexFile: string): string {
  return `${indexFile.replace(/\.json$/, '')}-fingerprints.json`;
}

/** What a front end hands the pipeline. */
export interface SimilarHost {
  /** The search index of the current service, as kept (the host brings it up to date as it can). */
  index(): Promise<CodeSearch>;
  /** The code as the service answers now, with its refactorings; rejects when the service cannot be asked. */
  fetchCode(id: number): Promise<Code>;
  /** The text of the fingerprints' file (fingerprintsFileOf); undefined when there is none. */
  readPrints(): Promise<string | undefined>;
  /** Writes the fingerprints' file whole: the host's atomic writer, which follows no link planted at its temporary name. */
  writePrints(text: string): Promise<void>;
  /** A line for the log (or stderr): something went wrong that the answer does without. */
  warn(line: string): void;
  /**
   * Runs fingerprinting of `stale` codes (about); `run` awaits its progress callback after each code,
   * where the extension gives its host back and a notification or the terminal shows how far it is.
   */
  fingerprinting?(stale: number, run: (onProgress?: (done: number, of: number) => void | Promise<void>) => Promise<number>): Promise<number>;
}

export interface FoundMatch {
  /** As search keeps it (the service's answer taken in first when it could be asked). */
  code: Code;
  /** 0 to 1. */
  similarity: number;
  /** False when the language has no grammar: compared by its words alone. */
  certain: boolean;
  /** The first in the code view's best-rated order. */
  best: Refactor | undefined;
  /** True when `best` (or the code) is only the first MAX_TEXT_CHARS characters search keeps: the service did not answer. */
  cut: boolean;
  /** The best refactoring in the user's names, or why it does not adapt. */
  adapted: Adapted | undefined;
  /** The query's lines (0-based in its text, first and last) inside a run the code's most alike text shares; all of them when none is shared whole. */
  lines: [number, number];
}

export interface SimilarAnswer {
  matches: FoundMatch[];
  /** How many codes of the query's language were compared. */
  compared: number;
}

export class SimilarPipeline {
  private prints: Promise<{ prints: SimilarityIndex; saved: boolean }> | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly host: SimilarHost, readonly tokenizers: Tokenizers) {}

  /** The tokens of `text` in `language`; a TooLongError or GrammarError as the tokenizer throws it. */
  async tokens(text: string, language: string): Promise<Token[]> {
    return (await this.tokenizers.tokenize(text, language)).tokens;
  }

  /** The catalog's codes most like `query` (its text in the service's `language`), best first, at most `limit`. */
  async find(query: { text: string; language: string; tokens?: readonly Token[] }, limit = DEFAULT_SIMILAR_LIMIT): Promise<SimilarAnswer> {
    const tokens = query.tokens ?? await this.tokens(query.text, query.language);
    const index = await this.host.index();
    const prints = await this.upToDate(index);
    const found = prints.query(fingerprint(tokens), query.language, limit);
    // The service's answers (with their ratings now) taken into the kept copy, which every answer is made from.
    let failed: string | undefined;
    const fetched = await Promise.all(found.map((m) => this.host.fetchCode(m.codeId).catch((e: unknown) => {
      failed ??= `similar: could not read code #${m.codeId} of the service (${(e as Error).message}); answering from the kept copy`;
      return undefined;
    })));
    if (failed) this.host.warn(failed);
    const answers = fetched.filter((c): c is Code => c !== undefined && found.some((m) => m.codeId === c.id));
    if (answers.length > 0) index.addCodes(answers);
    const all: [number, number] = [tokens[0]?.line ?? 0, tokens[tokens.length - 1]?.line ?? 0];
    const matches: FoundMatch[] = [];
    for (const m of found) {
      const entry = index.entry(m.codeId);
      if (!entry) continue;
      // Chosen from the kept copy; its texts, which search keeps only up to MAX_TEXT_CHARS, are the
      // service's whole ones where it answered.
      const kept = codeOf(entry);
      const live = answers.find((c) => c.id === kept.id);
      const code = wholeTexts(kept, live);
      const best = bestRefactor(code.refactors ?? []);
      const matched = m.refactorId === 0 ? code.code : code.refactors?.find((r) => r.id === m.refactorId)?.code;
      const span = matched === undefined ? undefined : coveredSpan(tokens, await this.tokens(matched, code.language).catch(tooLongAsEmpty));
      const cut = !live && best !== undefined && (mayBeCut(best.code) || mayBeCut(code.code));
      matches.push({
        code, similarity: m.similarity, certain: m.by === 'tree', best, cut,
        adapted: best && (cut ? { ok: false, reason: CUT_REASON } : await adaptRefactoring(this.tokenizers, code, best, { text: query.text, tokens })),
        lines: span ? [tokens[span[0]].line, tokens[span[1]].line] : all,
      });
    }
    return { matches, compared: prints.codesIn(query.language) };
  }

  /** Waits for the fingerprints being written (the command line before it exits; tests). */
  flush(): Promise<void> {
    return this.saving;
  }

  /** The fingerprints, read from their file the first time, brought up to date with `index` and saved when that changed them. */
  private async upToDate(index: CodeSearch): Promise<SimilarityIndex> {
    this.prints ??= this.load();
    const kept = await this.prints;
    const run = (onProgress?: (done: number, of: number) => void | Promise<void>): Promise<number> => kept.prints.update(index, this.tokenizers, onProgress);
    const stale = Math.max(0, [...index.stamps()].length - kept.prints.size);
    const made = this.host.fingerprinting ? await this.host.fingerprinting(stale, run) : await run();
    if (made > 0 || !kept.saved) {
      kept.saved = true;
      const text = kept.prints.toJSON();
      this.saving = this.saving.then(() => this.host.writePrints(text)).catch((e: unknown) => {
        this.host.warn(`similar: could not save the fingerprints (${(e as Error).message})`);
      });
    }
    return kept.prints;
  }

  private async load(): Promise<{ prints: SimilarityIndex; saved: boolean }> {
    let text: string | undefined;
    try {
      text = await this.host.readPrints();
    } catch (e) {
      this.host.warn(`similar: could not read the fingerprints (${(e as Error).message}); making them again`);
    }
    if (text === undefined) return { prints: new SimilarityIndex(), saved: false };
    try {
      return { prints: SimilarityIndex.fromJSON(text), saved: true };
    } catch (e) {
      if (!(e instanceof SimilarityIndexError)) throw e;
      this.host.warn(`similar: ${e.message}; making them again`);
      return { prints: new SimilarityIndex(), saved: false };
    }
  }
}

/** Why a match read only from search's kept copy is not adapted when a text of it may have been cut. */
export const CUT_REASON = `the search index keeps only the first ${MAX_TEXT_CHARS} characters of each text, and this one is that long: the service must answer for it to adapt`;

/**
 * `kept` with each text search cut replaced by the service's whole one (`whole`, its answer for the
 * same code); the texts it kept whole stay as kept, so that the answer is the same offline.
 */
function wholeTexts(kept: Code, whole: Code | undefined): Code {
  if (!whole) return kept;
  const texts = new Map((whole.refactors ?? []).map((r) => [r.id, r.code]));
  return {
    ...kept,
    code: mayBeCut(kept.code) ? whole.code : kept.code,
    refactors: kept.refactors?.map((r) => (mayBeCut(r.code) ? { ...r, code: texts.get(r.id) ?? r.code } : r)),
  };
}

function tooLongAsEmpty(e: unknown): Token[] {
  if (e instanceof TooLongError) return [];
  throw e;
}

/** A code as search keeps it: its refactorings with the ratings the service last said; no page, no author's id. */
export function codeOf(e: CodeEntry): Code {
  const refactors: Refactor[] = e.refactors.map((r) => ({
    id: r.id, codeId: e.id, title: r.title, language: e.language, code: r.code, comment: r.comment,
    createdAt: r.createdAt ? new Date(r.createdAt) : null, rating: r.rating, ratingsCount: r.ratingsCount, userId: null, userName: r.author, userWebsite: '',
  }));
  return {
    id: e.id, title: e.title, language: e.language, permalink: '', code: e.code, comment: e.comment,
    createdAt: e.createdAt ? new Date(e.createdAt) : null, updatedAt: null, refactorsCount: e.refactors.length,
    trackbackUrl: '', userId: null, refactors,
  };
}
