// Star and Unstar: on tree rows (every selected row), or from the command palette on the code of the
// code view looked at last. The code view's own Star buttons go through Stars directly.
import * as vscode from 'vscode';
import type { Code } from '../../core/model';
import { Commands } from '../common/commandIds';
import type { ErrorReporter } from '../common/errorReporting';
import { itemsOrCurrent } from '../common/current';
import type { Stars } from './stars';
import { targetOf } from '../common/items';

export interface StarCommandDeps {
  stars: Stars;
  errors: ErrorReporter;
  /** The code of the code view a person looked at last. */
  currentCode: () => Code | undefined;
}

export function registerStarCommands({ stars, errors, currentCode }: StarCommandDeps): vscode.Disposable {
  return vscode.Disposable.from(
    errors.command(Commands.star, vscode.l10n.t('Could not star'), async (clicked, selected) => {
      for (const item of itemsOrCurrent(clicked, selected, currentCode)) await stars.star(item);
    }),
    errors.command(Commands.unstar, vscode.l10n.t('Could not unstar'), async (clicked, selected) => {
      for (const item of itemsOrCurrent(clicked, selected, currentCode)) await stars.unstar(targetOf(item));
    }),
  );
}
