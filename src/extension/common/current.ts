// "This row, or the open code": what a command run on tree rows or from the command palette acts
// on. The palette passes no row; the command then takes the code of the code view a person looked
// at last, or says how to give it one.
import * as vscode from 'vscode';
import { showInformationMessage } from './notifications';
import type { Code } from '../../core/model';
import { itemsOf, type Item } from './items';

/**
 * The rows' items (the clicked row, or every selected row), else the code of the code view looked
 * at last; [] (and a person told what to do) when there is neither.
 */
export function itemsOrCurrent(clicked: unknown, selected: unknown, currentCode: () => Code | undefined): Item[] {
  const rows = itemsOf(clicked, selected);
  if (rows.length) return rows;
  const code = currentCode();
  if (code) return [{ kind: 'code', code }];
  void showInformationMessage(vscode.l10n.t('Open a code first (Refactor Browser: Open Code…), or use this command on a row of the Catalog.'));
  return [];
}

/** The row's item, else the code of the code view looked at last (see itemsOrCurrent). */
export function itemOrCurrent(row: unknown, currentCode: () => Code | undefined): Item | undefined {
  return itemsOrCurrent(row, undefined, currentCode)[0];
}
