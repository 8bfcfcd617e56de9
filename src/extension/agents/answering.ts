// What the language model tools answer (tools.ts registers them): the Markdown the MCP server gives
// too (src/agents/), read when a tool is first called. The Node extension host loads it then from a
// bundle of its own beside the extension's, dist/agents.js, so that activation reads none of it; the
// browser's host, which loads one file, has it inside its bundle. Nothing here tells the client's
// errors apart (their classes are the extension bundle's): tools.ts does, around the calls that fail.
import { codeAnswer, searchAnswer, similarAnswer } from '../../agents/answers';
import { noIndexLine } from '../../agents/failures';
import { readCodeInput, readSearchInput, readSimilarInput, type Read } from '../../agents/tools';
import { withAuthor } from '../../client/author';
import type { RefactorClient } from '../../client/client';
import type { Code } from '../../core/model';
import { Tools } from './names';
import type { AgentToolDeps } from './tools';

/** The input as read, or the one line saying why it cannot be used, thrown for the model to read. */
function accepted<T>(read: Read<T>): T {
  if (!read.ok) throw new Error(read.error);
  return read.value;
}

/** searchCatalog: what search keeps of the current service, offline too. */
export async function searchCatalog(deps: AgentToolDeps, input: unknown): Promise<string> {
  const { query, language, limit } = accepted(readSearchInput(input));
  const { service } = deps;
  const index = await deps.search.of(service.name()).index();
  const counts = index.counts();
  const note = counts.codes === 0
    ? noIndexLine(service.baseUrl(), 'the person can run "Refactor Browser: Index the Catalog for Search", or browse the Catalog')
    : index.indexedAt === 0
      ? 'The catalog is not indexed: search knows only the codes the person browsed.'
      : undefined;
  const hits = index.search(query, { language, limit });
  return searchAnswer({ query, hits, baseUrl: service.baseUrl(), language, counts, note, codeTool: Tools.getCode });
}

/** getCode's code reference (an id, a code_ref or a page URL of the service), or the line why not, thrown. */
export function codeRef(deps: AgentToolDeps, input: unknown): string {
  return accepted(readCodeInput(input, deps.service.baseUrl()));
}

/**
 * getCode's answer for `code`, with its author named (the single-code answer gives `user-id` alone):
 * by what search keeps of the lists, else by the service's `/users/<id>.xml` (src/client/author.ts).
 */
export async function codeText(deps: AgentToolDeps, code: Code, client: Pick<RefactorClient, 'user' | 'baseUrl'>, signal?: AbortSignal): Promise<string> {
  const named = await withAuthor(code, { index: () => deps.search.of(deps.service.name()).index(), client, signal });
  return codeAnswer(named, client.baseUrl);
}

/** findSimilar: the codes like the agent's, as Find Refactorings for This Code finds them. */
export async function findSimilar(deps: AgentToolDeps, input: unknown): Promise<string> {
  const { code, language } = accepted(readSimilarInput(input));
  const { service } = deps;
  const index = await deps.search.of(service.name()).index();
  const note = index.indexedAt === 0
    ? 'The catalog is not indexed: only the codes the person browsed were compared; "Refactor Browser: Index the Catalog for Search" compares them all.'
    : undefined;
  const matches = await deps.similar(code, language);
  return similarAnswer({ matches, language, baseUrl: service.baseUrl(), note, codeTool: Tools.getCode });
}
