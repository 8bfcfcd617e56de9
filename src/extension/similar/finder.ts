// What Find Refactorings for This Code and its code action share: the code they look at (the
// selection, else the function at the cursor, else the document), and the extension's host of the
// pipeline every front end runs (src/similarity/pipeline.ts: the catalog's codes most like it, each
// with its best refactoring adapted to the user's names where it adapts): the current service's
// search index, the fingerprints' file beside it, fingerprinting in slices that give the extension
// host back, with a notification when there is much of it. This module, with the similarity engine and the parser, is imported
// on first use (commands.ts): the Node extension host reads it then from a bundle of its own. The
// grammars load on first use of their language, read with workspace.fs from the extension's own
// folder, in both extension hosts.
import * as vscode from 'vscode';
import type { Logger } from '../../client/logger';
import type { Code, Refactor } from '../../core/model';
import { matchingServiceLanguage } from '../../core/languages';
import * as engine from '../../similarity/engine';
import type { Adapted } from '../../similarity/adapt';
import type { SimilarPipeline } from '../../similarity/pipeline';
import type { Tokenizers } from '../../similarity/tokenize';
import { Disposable, toDisposable } from '../common/dispose';
import { readTextFile, writeAtomically } from '../common/files';
import type { ServiceConnection } from '../service';
import type { SearchStore } from '../search/store';

/** How long fingerprinting works before it gives the extension host back (ms). */
const SLICE_MS = 12;
/** Past this many codes to fingerprint, a progress notification shows. */
const NOTIFY_PAST = 300;
/** The most codes the quick pick offers. */
export const SHOWN_MATCHES = 10;

/** The code looked at: its text, language and the document's lines it spans (whole lines). */
export interface LookedAt {
  document: vscode.TextDocument;
  /** Whole lines, from the first's start to the last's end (its line break not included). */
  range: vscode.Range;
  text: string;
  /** The service's language. */
  language: string;
  /** Where it came from, for messages. */
  from: 'selection' | 'function' | 'document';
}

export interface Match {
  code: Code;
  similarity: number;
  /** False when the language has no grammar: compared by its words alone. */
  certain: boolean;
  best: Refactor | undefined;
  /** The best refactoring in the user's names, or why it does not adapt. */
  adapted: Adapted | undefined;
}

/** Something the user can act on, said in one line (a file too long, a language the catalog has not). */
export class LookError extends Error {}

/** The service's language of a document: TypeScript and TSX match the catalog's JavaScript (the languages table says so). */
export function serviceLanguageOf(languageId: string): string | undefined {
  return matchingServiceLanguage(languageId);
}

type Engine = typeof engine;

export class SimilarFinder extends Disposable {
  private loaded: Promise<{ engine: Engine; tokenizers: Tokenizers }> | undefined;
  /** Each service's pipeline (its fingerprints read from their file when first needed). */
  private readonly pipelines = new Map<string, SimilarPipeline>();

  constructor(
    extensionUri: vscode.Uri,
    private readonly store: SearchStore,
    private readonly service: ServiceConnection,
    private readonly logger: Logger,
  ) {
    super();
    this.folder = vscode.Uri.joinPath(extensionUri, 'dist', 'tree-sitter');
    this._register(toDisposable(() => this.pipelines.clear()));
  }

  private readonly folder: vscode.Uri;

  /** The engine and its tokenizers, imported on first use. */
  private engine(): Promise<{ engine: Engine; tokenizers: Tokenizers }> {
    this.loaded ??= Promise.resolve({
      engine,
      tokenizers: new engine.Tokenizers(new engine.Grammars((file) => Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.folder, file))))),
    });
    return this.loaded;
  }

  /** The selection's lines, else the function around the cursor, else the whole document. */
  async lookAt(document: vscode.TextDocument, selection: vscode.Selection): Promise<LookedAt> {
    const language = serviceLanguageOf(document.languageId);
    if (!language) throw new LookError(vscode.l10n.t('The catalog has no codes in {0}.', document.languageId));
    let first: number;
    let last: number;
    let from: LookedAt['from'];
    if (!selection.isEmpty) {
      first = selection.start.line;
      // A selection that ends at the start of a line does not take that line.
      last = selection.end.character === 0 && selection.end.line > first ? selection.end.line - 1 : selection.end.line;
      from = 'selection';
    } else {
      const { engine, tokenizers } = await this.engine();
      const around = engine.hasGrammar(language) ? await this.guard(tokenizers.grammars.functionAround(document.getText(), language, selection.active.line)) : undefined;
      [first, last] = around ?? [0, document.lineCount - 1];
      from = around ? 'function' : 'document';
    }
    const range = new vscode.Range(first, 0, last, document.lineAt(last).text.length);
    return { document, range, text: document.getText(range), language, from };
  }

  /** True once Index the Catalog has read the whole current service: until then, only what was browsed is compared. */
  async indexed(): Promise<boolean> {
    return (await this.store.of(this.service.name()).index()).indexedAt > 0;
  }

  /** The catalog's codes most like `looked` (its text in its language), best first, each with its best refactoring adapted. */
  async find(looked: Pick<LookedAt, 'text' | 'language'>, limit = SHOWN_MATCHES): Promise<Match[]> {
    const pipeline = await this.pipelineOf(this.service.name());
    const answer = await this.guard(pipeline.find(looked, limit));
    return answer.matches.map(({ code, similarity, certain, best, adapted }) => ({ code, similarity, certain, best, adapted }));
  }

  /** The pipeline of service `name`: its search index, the fingerprints' file beside it, the service's client. */
  private async pipelineOf(name: string): Promise<SimilarPipeline> {
    let pipeline = this.pipelines.get(name);
    if (pipeline) return pipeline;
    const { engine, tokenizers } = await this.engine();
    const kept = this.store.of(name);
    const file = kept.file.with({ path: engine.fingerprintsFileOf(kept.file.path) });
    pipeline = new engine.SimilarPipeline({
      index: () => kept.index(),
      fetchCode: async (id) => (await this.service.getClient()).code(id),
      // None yet, or one that cannot be read: they are made again.
      readPrints: () => readTextFile(file).catch(() => undefined),
      writePrints: (text) => writeAtomically(file, text),
      warn: (line) => this.logger.warn(`${line} (${name})`),
      fingerprinting: (stale, run) => this.fingerprinting(stale, run),
    }, tokenizers);
    this.pipelines.set(name, pipeline);
    return pipeline;
  }

  /** Fingerprinting in slices that give the extension host back; a notification when there is much of it. */
  private fingerprinting(stale: number, run: (onProgress?: (done: number, of: number) => void | Promise<void>) => Promise<number>): Promise<number> {
    let sliceStart = performance.now();
    const sliced = async (report?: (done: number, of: number) => void): Promise<number> => run(async (done, of) => {
      report?.(done, of);
      if (performance.now() - sliceStart < SLICE_MS) return;
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    });
    if (stale < NOTIFY_PAST) return sliced();
    return Promise.resolve(vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Fingerprinting the catalog for similar code') }, (progress) => {
      let shown = 0;
      return sliced((done, of) => {
        const now = Math.floor((done / of) * 100);
        if (now > shown) {
          progress.report({ increment: now - shown, message: vscode.l10n.t('{0} of {1}', done, of) });
          shown = now;
        }
      });
    }));
  }

  /** Waits for the fingerprints being written (tests). */
  async flush(): Promise<void> {
    await Promise.all([...this.pipelines.values()].map((p) => p.flush()));
  }

  /** A grammar that cannot load, a text too long: a LookError with the reason. */
  private async guard<T>(work: Promise<T>): Promise<T> {
    const { engine } = await this.engine();
    try {
      return await work;
    } catch (e) {
      if (e instanceof engine.TooLongError) throw new LookError(vscode.l10n.t('This code is too long to compare: select at most {0} lines.', engine.MAX_COMPARED_LINES));
      if (e instanceof engine.GrammarError) throw new LookError(vscode.l10n.t('Similar code cannot be looked for: {0}', e.message));
      throw e;
    }
  }
}
