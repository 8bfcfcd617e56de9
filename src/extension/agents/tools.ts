// The language model tools an agent in VS Code's chat calls (package.json's languageModelTools);
// findSimilar compares code the agent gives with the catalog as Find Refactorings for This Code does.
// searchCatalog answers from what search keeps of the current service (the index and every list and
// code the Catalog fetched), so it works offline; getCode reads one code through the client, as the
// code view does. Both are read-only, so neither asks for confirmation. Their answers are the Markdown
// the MCP server gives too (src/agents/), made by answering.ts, which is imported when a tool is first
// called (the Node host reads it then from dist/agents.js); a failure is thrown as one line the model
// can act on.
import * as vscode from 'vscode';
import type { SimilarMatchInput } from '../../agents/answers';
import { failureLine } from '../../agents/failures';
import type { ServiceConnection } from '../service';
import type { SearchStore } from '../search/store';
import { Tools } from './names';

export interface AgentToolDeps {
  service: ServiceConnection;
  search: SearchStore;
  /** The codes like `code` in `language`, each with its best refactoring adapted (Find Refactorings for This Code's finder). */
  similar(code: string, language: string): Promise<SimilarMatchInput[]>;
}

type Answering = typeof import('./answering');
let answering: Promise<Answering> | undefined;

/** answering.ts, imported on the first call of a tool. */
function answers(): Promise<Answering> {
  answering ??= import('./answering');
  return answering;
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
    return answer(await (await answers()).searchCatalog(this.deps, options.input));
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
    const made = await answers();
    const ref = made.codeRef(this.deps, options.input);
    const controller = new AbortController();
    const cancelled = token.onCancellationRequested(() => controller.abort());
    try {
      const client = await service.getClient();
      const code = await client.code(ref, { signal: controller.signal });
      return answer(await made.codeText(this.deps, code, client, controller.signal));
    } catch (e) {
      throw new Error(failureLine(e, service.baseUrl(), ref), { cause: e });
    } finally {
      cancelled.dispose();
    }
  }
}

class FindSimilarTool implements vscode.LanguageModelTool<unknown> {
  constructor(private readonly deps: AgentToolDeps) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Looking for code like this in Refactor Browser') };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>): Promise<vscode.LanguageModelToolResult> {
    return answer(await (await answers()).findSimilar(this.deps, options.input));
  }
}

export function registerAgentTools(deps: AgentToolDeps): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.lm.registerTool(Tools.searchCatalog, new SearchCatalogTool(deps)),
    vscode.lm.registerTool(Tools.getCode, new GetCodeTool(deps)),
    vscode.lm.registerTool(Tools.findSimilar, new FindSimilarTool(deps)),
  );
}
