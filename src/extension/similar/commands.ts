// Find Refactorings for This Code (the editor's context menu and the palette) and its code action,
// registered at activation; what they do (actions.ts, finder.ts, the similarity engine and the
// parser) is imported when first used, so that none of it loads at activation: the Node extension
// host reads it then from a bundle of its own (dist/similarity.js). The code action, of kind
// refactor.rewrite, is computed only when a person asks for refactorings (the Refactor… menu, or
// the light bulb clicked), never on a keystroke or a cursor move.
import * as vscode from 'vscode';
import type { Logger } from '../../client/logger';
import type { Refactor } from '../../core/model';
import { Commands } from '../common/commandIds';
import type { ErrorReporter } from '../common/errorReporting';
import type { ServiceConnection } from '../service';
import type { SearchStore } from '../search/store';
import type { Match, SimilarFinder } from './finder';

export interface SimilarDeps {
  extensionUri: vscode.Uri;
  store: SearchStore;
  service: ServiceConnection;
  logger: Logger;
  errors: ErrorReporter;
  /**
   * The editor whose code is looked at: the active text editor, else (a webview has focus, such as
   * the walkthrough whose button runs the command) the one a person worked in last.
   */
  editor(): Promise<vscode.TextEditor | undefined>;
  /** Opens the code view of `codeId`, scrolled to `refactorId`. */
  open(codeId: number, refactorId?: number): void;
  /** A read-only document holding `text` in `serviceLanguage`, shown as `languageId` (the code feature's snapshots). */
  snapshot(text: string, serviceLanguage: string, languageId: string): Promise<vscode.Uri>;
  /** The document of a refactoring as it is. */
  refactorDocument(refactor: Refactor): Promise<vscode.Uri>;
}

type Lazy = typeof import('./lazy');

/**
 * The finder and what the commands do with it, imported when first asked for (nothing of it loads at
 * activation); the language model tool asks through it too.
 */
export class SimilarLoader implements vscode.Disposable {
  private loading: Promise<{ lazy: Lazy; finder: SimilarFinder }> | undefined;
  private made: SimilarFinder | undefined;

  constructor(private readonly deps: Pick<SimilarDeps, 'extensionUri' | 'store' | 'service' | 'logger'>) {}

  load(): Promise<{ lazy: Lazy; finder: SimilarFinder }> {
    this.loading ??= import('./lazy').then((lazy: Lazy) => {
      this.made = new lazy.SimilarFinder(this.deps.extensionUri, this.deps.store, this.deps.service, this.deps.logger);
      return { lazy, finder: this.made };
    });
    return this.loading;
  }

  /** The codes like `code` in `language` (the service's name), with their best refactorings adapted; a LookError for what cannot be compared. */
  async matches(code: string, language: string): Promise<Match[]> {
    return (await this.load()).finder.find({ text: code, language });
  }

  dispose(): void {
    this.made?.dispose();
  }
}

export function registerSimilarCommands(deps: SimilarDeps, loader: SimilarLoader): vscode.Disposable {
  const provider: vscode.CodeActionProvider = {
    async provideCodeActions(document, range, context) {
      if (context.triggerKind !== vscode.CodeActionTriggerKind.Invoke) return [];
      if (context.only && !context.only.intersects(vscode.CodeActionKind.RefactorRewrite)) return [];
      const { lazy, finder } = await loader.load();
      return lazy.adaptedRefactorings(finder, document, range);
    },
  };
  return vscode.Disposable.from(
    deps.errors.command(Commands.findSimilar, vscode.l10n.t('Could not find refactorings for this code'), async () => {
      const { lazy, finder } = await loader.load();
      return lazy.findSimilar(deps, finder);
    }),
    vscode.languages.registerCodeActionsProvider({ scheme: '*' }, provider, { providedCodeActionKinds: [vscode.CodeActionKind.RefactorRewrite] }),
    loader,
  );
}
