// Star and Unstar: on tree rows (every selected row), or from the command palette on the code of the
// code view looked at last. The code view's own Star buttons go through Stars directly.
import * as vscode from 'vscode';
import { showInformationMessage } from '../notifications';
import type { Code } from '../../api/model';
import type { ErrorReporter } from '../errorReporting';
import { itemsOf, type Item } from '../code/items';
import { targetOf, type Stars } from './stars';

export interface StarCommandDeps {
  stars: Stars;
  errors: ErrorReporter;
  /** The code of the code view a person looked at last. */
  currentCode(): Code | undefined;
}

export function registerStarCommands({ stars, errors, currentCode }: StarCommandDeps): vscode.Disposable {
  const items = (clicked: unknown, selected: unknown): Item[] => {
    const rows = itemsOf(clicked, selected);
    if (rows.length) return rows;
    const code = currentCode();
    if (code) return [{ kind: 'code', code }];
    void showInformationMessage(vscode.l10n.t('Open a code first (Refactor Browser: Open Code…), or use this command on a row of the Catalog.'));
    return [];
  };
  return vscode.Disposable.from(
    errors.command('refactorBrowser.star', vscode.l10n.t('Could not star'), async (clicked, selected) => {
      for (const item of items(clicked, selected)) await stars.star(item);
    }),
    errors.command('refactorBrowser.unstar', vscode.l10n.t('Could not unstar'), async (clicked, selected) => {
      for (const item of items(clicked, selected)) await stars.unstar(targetOf(item));
    }),
  );
}
