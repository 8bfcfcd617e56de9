// "Go to Code…": a quick pick over every code and refactoring the Catalog has loaded, matched on
// title, language and author; typing an id, a code_ref or a page URL offers to open that code.
import * as vscode from 'vscode';
import type { Code, Refactor } from '../../core/model';
import { authorOf, titleOf } from '../common/names';
import { escapeIcons } from '../common/labels';
import { parseOpenInput, type OpenRequest } from './openInput';

export interface LoadedItems {
  loadedItems(): { codes: Code[]; refactors: Refactor[] };
}

interface Pick extends vscode.QuickPickItem {
  open: OpenRequest;
}

function codePick(c: Code): Pick {
  return {
    label: escapeIcons(titleOf(c)),
    description: escapeIcons([c.language, authorOf(c)].join(' · ')),
    detail: vscode.l10n.t('code #{0}', c.id),
    iconPath: new vscode.ThemeIcon('file-code'),
    open: { ref: String(c.id), codeId: c.id, listed: c },
  };
}

function refactorPick(r: Refactor): Pick {
  return {
    label: escapeIcons(titleOf(r)),
    description: escapeIcons([r.language, authorOf(r)].join(' · ')),
    detail: vscode.l10n.t('refactoring #{0} of code #{1}', r.id, r.codeId),
    iconPath: new vscode.ThemeIcon('git-compare'),
    open: { ref: String(r.codeId), codeId: r.codeId, refactorId: r.id },
  };
}

/** The picks for what is loaded: each code and refactoring once, codes first. */
export function loadedPicks(source: LoadedItems): Pick[] {
  const { codes, refactors } = source.loadedItems();
  const seenCodes = new Set<number>();
  const seenRefactors = new Set<number>();
  return [
    ...codes.filter((c) => !seenCodes.has(c.id) && seenCodes.add(c.id)).map(codePick),
    ...refactors.filter((r) => !seenRefactors.has(r.id) && seenRefactors.add(r.id)).map(refactorPick),
  ];
}

/** Shows the pick; resolves with what to open, or undefined when dismissed. */
export function pickCode(source: LoadedItems): Promise<OpenRequest | undefined> {
  const loaded = loadedPicks(source);
  const quickPick = vscode.window.createQuickPick<Pick>();
  quickPick.title = vscode.l10n.t('Go to Code');
  quickPick.placeholder = vscode.l10n.t('Type a title, language or author, or a code id, code_ref or page URL');
  quickPick.matchOnDescription = true;
  quickPick.matchOnDetail = true;
  quickPick.items = loaded;
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: OpenRequest | undefined): void => {
      if (done) return;
      done = true;
      resolve(value);
      quickPick.dispose();
    };
    quickPick.onDidChangeValue((value) => {
      const typed = parseOpenInput(value);
      // The typed reference comes first and is never filtered out by the fuzzy match on labels.
      quickPick.items = typed
        ? [{ label: vscode.l10n.t('Open code {0}', escapeIcons(typed.ref)), alwaysShow: true, iconPath: new vscode.ThemeIcon('go-to-file'), open: typed }, ...loaded]
        : loaded;
    });
    quickPick.onDidAccept(() => finish(quickPick.selectedItems[0]?.open));
    quickPick.onDidHide(() => finish(undefined));
    quickPick.show();
  });
}
