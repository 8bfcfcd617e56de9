// Find Refactorings for This Code (the editor's context menu and the palette) and its code action,
// registered at activation; what they do (actions.ts, finder.ts, the similarity engine and the
// parser) is imported when first used, so that none of it loads at activation: the Node extension
// host reads it then from a bundle of its own (dist/similarity.js). The code action, of kind
// refactor.rewrite, is computed only when a person asks for refactorings (the Refactor… menu, or
// the light bulb clicked), never on a keystroke or a cursor move.
import * as vscode from 'vscode';
import type { Logger } from '../../api/logger';
import type { Refactor } from '../../api/model';
import { Commands } from '../commandIds';
import type { ErrorReporter } from '../errorReporting';
import type { ServiceConnection } from '../service';
import type { SearchStore } from '../search/store';
import type { SimilarFinder } from './finder';

export interface SimilarDeps {
  extensionUri: vscode.Uri;
  store: SearchStore;
  service: ServiceConnection;
  logger: Logger;
  errors: ErrorReporter;
  /** Opens the code view of `codeId`, scrolled to `refactorId`. */
  open(codeId: number, refactorId?: number): void;
  /** A read-only document holding `text` in `serviceLanguage`, shown as `languageId` (the code feature's snapshots). */
  snapshot(text: string, serviceLanguage: string, languageId: string): Promise<vscode.Uri>;
  /** The document of a refactoring as it is. */
  refactorDocument(refactor: Refactor): Promise<vscode.Uri>;
}

type Lazy = typeof import('./lazy');

export function registerSimilarCommands(deps: SimilarDeps): vscode.Disposable {
  let loading: Promise<{ lazy: Lazy; finder: SimilarFinder }> | undefined;
  let made: SimilarFinder | undefined;
  const load = (): Promise<{ lazy: Lazy; finder: SimilarFinder }> => {
    loading ??= import('./lazy').then((lazy: Lazy) => {
      made = new lazy.SimilarFinder(deps.extensionUri, deps.store, deps.service, deps.logger);
      return { lazy, finder: made };
    });
    return loading;
  };
  const provider: vscode.CodeActionProvider = {
    async provideCodeActions(document, range, context) {
      if (context.triggerKind !== vscode.CodeActionTriggerKind.Invoke) return [];
      if (context.only && !context.only.intersects(vscode.CodeActionKind.RefactorRewrite)) return [];
      const { lazy, finder } = await load();
      return lazy.adaptedRefactorings(finder, document, range);
    },
  };
  return vscode.Disposable.from(
    deps.errors.command(Commands.findSimilar, vscode.l10n.t('Could not find refactorings for this code'), async () => {
      const { lazy, finder } = await load();
      return lazy.findSimilar(deps, finder);
    }),
    vscode.languages.registerCodeActionsProvider({ scheme: '*' }, provider, { providedCodeActionKinds: [vscode.CodeActionKind.RefactorRewrite] }),
    { dispose: () => made?.dispose() },
  );
}
