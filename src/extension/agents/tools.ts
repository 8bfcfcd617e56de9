// The language model tools an agent in VS Code's chat calls (package.json's languageModelTools);
// findSimilar compares code the agent gives with the catalog as Find Refactorings for This Code does.
// searchCatalog answers from what search keeps of the current service (the index and every list and
// code the Catalog fetched), so it works offline; getCode reads one code through the client, as the
// code view does. Both are read-only, so neither asks for confirmation. Their answers are the Markdown
// the MCP server gives too (src/agents/); a failure is thrown as one line the model can act on.
import * as vscode from 'vscode';
import { codeAnswer, searchAnswer, similarAnswer, type SimilarMatchInput } from '../../agents/answers';
import { failureLine, noIndexLine } from '../../agents/failures';
import { readCodeInput, readSearchInput, readSimilarInput, type Read } from '../../agents/tools';
import type { Code } from '../../api/model';
import { entryOf } from '../../search/entries';
import type { ServiceConnection } from '../service';
import type { SearchStore } from '../search/store';

/** The tools' names, as package.json contributes them. */
export const Tools = {
  searchCatalog: 'refactorBrowser_searchCatalog',
  getCode: 'refactorBrowser_getCode',
  findSimilar: 'refactorBrowser_findSimilar',
} as const;

export interface AgentToolDeps {
  service: ServiceConnection;
  search: SearchStore;
  /** The codes like `code` in `language`, each with its best refactoring adapted (Find Refactorings for This Code's finder). */
  similar(code: string, language: string): Promise<SimilarMatchInput[]>;
}

/** The input as read, or the one line saying why it cannot be used, thrown for the model to read. */
function accepted<T>(read: Read<T>): T {
  if (!read.ok) throw new Error(read.error);
  return read.value;
}

function answer(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

class SearchCatalogTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly deps: AgentToolDeps) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const query = (options.input as { query?: unknown } | undefined)?.query;
    return { invocationMessage: vscode.l10n.t('Searching Refactor Browser for “{0}”', typeof query === 'string' ? query : '') };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>): Promise<vscode.LanguageModelToolResult> {
    const { query, language, limit } = accepted(readSearchInput(options.input));
    const { service } = this.deps;
    const index = await this.deps.search.of(service.name()).index();
    const counts = index.counts();
    const note = counts.codes === 0
      ? noIndexLine(service.baseUrl(), 'the person can run "Refactor Browser: Index the Catalog for Search", or browse the Catalog')
      : index.indexedAt === 0
        ? 'The catalog is not indexed: search knows only the codes the person browsed.'
        : undefined;
    const hits = index.search(query, { language, limit });
    return answer(searchAnswer({ query, hits, baseUrl: service.baseUrl(), language, counts, note, codeTool: Tools.getCode }));
  }
}

class GetCodeTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly deps: AgentToolDeps) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const code = (options.input as { code?: unknown } | undefined)?.code;
    return { invocationMessage: vscode.l10n.t('Reading code {0} from Refactor Browser', typeof code === 'string' || typeof code === 'number' ? String(code) : '') };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const { service } = this.deps;
    const ref = accepted(readCodeInput(options.input, service.baseUrl()));
    const controller = new AbortController();
    const cancelled = token.onCancellationRequested(() => controller.abort());
    try {
      const client = await service.getClient();
      const code = await client.code(ref, { signal: controller.signal });
      return answer(codeAnswer(await this.withAuthor(code), client.baseUrl));
    } catch (e) {
      throw new Error(failureLine(e, service.baseUrl(), ref), { cause: e });
    } finally {
      cancelled.dispose();
    }
  }

  /**
   * The code with its author: the single-code answer names none, so the name a list gave, which
   * search keeps (as the code view takes it from the list the code was opened from).
   */
  private async withAuthor(code: Code): Promise<Code> {
    if (code.user || code.userId === null) return code;
    const index = await this.deps.search.of(this.deps.service.name()).index();
    const name = index.rowsOf([code.id]).map(entryOf)[0]?.author;
    return name ? { ...code, user: { id: code.userId, name, identityUrl: '', rating: null, refactorsCount: null, website: '' } } : code;
  }
}

class FindSimilarTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly deps: AgentToolDeps) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Looking for code like this in Refactor Browser') };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>): Promise<vscode.LanguageModelToolResult> {
    const { code, language } = accepted(readSimilarInput(options.input));
    const { service } = this.deps;
    const index = await this.deps.search.of(service.name()).index();
    const note = index.indexedAt === 0
      ? 'The catalog is not indexed: only the codes the person browsed were compared; "Refactor Browser: Index the Catalog for Search" compares them all.'
      : undefined;
    const matches = await this.deps.similar(code, language);
    return answer(similarAnswer({ matches, language, baseUrl: service.baseUrl(), note, codeTool: Tools.getCode }));
  }
}

export function registerAgentTools(deps: AgentToolDeps): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.lm.registerTool(Tools.searchCatalog, new SearchCatalogTool(deps)),
    vscode.lm.registerTool(Tools.getCode, new GetCodeTool(deps)),
    vscode.lm.registerTool(Tools.findSimilar, new FindSimilarTool(deps)),
  );
}
