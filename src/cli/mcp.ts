// `refactor-browser mcp`: what its tools do, over the client of the service the command line chose
// and the search index `refactor-browser search` keeps (with the fingerprints `similar` keeps beside it). The protocol itself (src/mcp.ts, a
// bundle of its own with the SDK) is loaded only when this command runs.
import * as fs from 'node:fs/promises';
import type { RefactorClient } from '../client/client';
import { codeAnswer, searchAnswer, similarAnswer } from '../agents/answers';
import { failureLine, noIndexLine } from '../agents/failures';
import { MCP_TOOL_NAMES, readCodeInput, readSearchInput, readSimilarInput } from '../agents/tools';
import { withAuthor } from '../client/author';
import type { CodeSearch } from '../search/searchIndex';
import type { SimilarPipeline } from '../similarity/pipeline';
import { DEFAULT_SIMILAR_LIMIT } from '../similarity/similarIndex';
import { cacheFolder, indexFile, readIndex } from './search';
import { cliPipeline, SimilarInputError, tokenize } from './similar';

/** A tool's answer: Markdown, or one line saying why there is none. */
export interface ToolAnswer {
  text: string;
  isError: boolean;
}

export interface CatalogTools {
  searchCatalog(input: unknown): Promise<ToolAnswer>;
  getCode(input: unknown): Promise<ToolAnswer>;
  findSimilarCode(input: unknown): Promise<ToolAnswer>;
}

export interface CatalogToolsOptions {
  client: RefactorClient;
  /** The service's base address: page URLs are made from it, and a page URL given must lie below it. */
  baseUrl: string;
  /** The service as the search index is named (the base URL given, or `sample`). */
  service: string;
  /** The service as an answer names it: its base URL, or the built-in sample catalog. */
  shownService: string;
  /** How to make the index, said when there is none: the search command for this service. */
  searchCommand: string;
  /** Where the tools' failures are logged (stderr). */
  log: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

export function catalogTools(o: CatalogToolsOptions): CatalogTools {
  const file = indexFile(cacheFolder(o.env), o.service);
  // Read again only when a search run has written it since: it may be megabytes.
  let kept: { index: CodeSearch; mtimeMs: number } | undefined;

  async function savedIndex(): Promise<CodeSearch | undefined> {
    let mtimeMs: number;
    try {
      mtimeMs = (await fs.stat(file)).mtimeMs;
    } catch {
      return undefined;
    }
    if (kept?.mtimeMs !== mtimeMs) {
      const read = await readIndex(file, { err: (t) => o.log(t.trimEnd()) });
      kept = read.kept ? { index: read.index, mtimeMs } : undefined;
    }
    return kept?.index;
  }

  let pipeline: SimilarPipeline | undefined;

  const failed = (text: string): ToolAnswer => {
    o.log(`refactor-browser: ${text}`);
    return { text, isError: true };
  };

  return {
    async searchCatalog(input) {
      const read = readSearchInput(input);
      if (!read.ok) return failed(read.error);
      const index = await savedIndex();
      if (index === undefined) {
        return failed(noIndexLine(o.shownService, `run "${o.searchCommand} QUERY" once to make one (any QUERY), then search again`));
      }
      const hits = index.search(read.value.query, { language: read.value.language, limit: read.value.limit });
      const { query, language } = read.value;
      const text = searchAnswer({ query, language, hits, baseUrl: o.baseUrl, counts: index.counts(), codeTool: MCP_TOOL_NAMES.code });
      return { text, isError: false };
    },

    async getCode(input) {
      const read = readCodeInput(input, o.baseUrl);
      if (!read.ok) return failed(read.error);
      try {
        const code = await withAuthor(await o.client.code(read.value), { index: savedIndex, client: o.client });
        return { text: codeAnswer(code, o.baseUrl), isError: false };
      } catch (e) {
        return failed(failureLine(e, o.shownService, read.value));
      }
    },

    async findSimilarCode(input) {
      const read = readSimilarInput(input);
      if (!read.ok) return failed(read.error);
      const { code, language } = read.value;
      const index = await savedIndex();
      if (index === undefined) {
        return failed(noIndexLine(o.shownService, `run "${o.searchCommand} QUERY" once to make one (any QUERY), then ask again`));
      }
      // The one pipeline `similar` and the extension run, over the index kept (answers are made from it, online or not).
      pipeline ??= cliPipeline({ index: async () => (await savedIndex()) ?? index, source: o.client, service: o.service, io: { err: (t) => o.log(t.trimEnd()) }, env: o.env });
      let matches;
      try {
        matches = (await pipeline.find({ text: code, language, tokens: await tokenize(pipeline.tokenizers, code, language) }, DEFAULT_SIMILAR_LIMIT)).matches;
      } catch (e) {
        if (e instanceof SimilarInputError) return failed(e.message);
        throw e;
      }
      await pipeline.flush();
      return { text: similarAnswer({ matches, language, baseUrl: o.baseUrl, codeTool: MCP_TOOL_NAMES.code }), isError: false };
    },
  };
}
