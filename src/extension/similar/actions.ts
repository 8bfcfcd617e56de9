// What Find Refactorings for This Code does once asked (registered in commands.ts, imported from
// there on first use with the finder): the quick pick of the catalog's codes most like the code looked
// at, the code view and diff for the one chosen, and the code actions that apply an adapted
// refactoring as a WorkspaceEdit, at once or after VS Code's preview, undone in one step.
import * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import { diffTitle, escapeIcons } from '../common/labels';
import { authorOf, ratingPhrase, titleOf } from '../common/names';
import { showInformationMessage } from '../common/notifications';
import type { SimilarDeps } from './commands';
import { LookError, type LookedAt, type Match, type SimilarFinder } from './finder';

/** The code actions offered at most. */
const MAX_ACTIONS = 3;
/** Below this similarity a match's refactoring is not offered as a code action (the quick pick still lists it). */
const ACTION_SIMILARITY = 0.6;

interface MatchPick extends vscode.QuickPickItem {
  match: Match;
}

/** `87% · JavaScript`, and `less certain` where only the words were compared. */
export function matchPick(match: Match): MatchPick {
  const percent = Math.round(match.similarity * 100);
  const best = match.best;
  return {
    label: escapeIcons(titleOf({ kind: 'code', code: match.code })),
    description: escapeIcons([
      vscode.l10n.t('{0}% alike', percent),
      match.code.language,
      ...(match.certain ? [] : [vscode.l10n.t('less certain: compared by its words')]),
    ].join(' · ')),
    detail: escapeIcons(!best
      ? vscode.l10n.t('No refactorings yet')
      : match.adapted?.ok
        ? vscode.l10n.t('Best refactoring: {0} by {1}, {2}; it adapts to your names', titleOf(best), authorOf(best), ratingPhrase(best))
        : vscode.l10n.t('Best refactoring: {0} by {1}, {2}', titleOf(best), authorOf(best), ratingPhrase(best))),
    alwaysShow: true,
    match,
  };
}

/** The command: what is looked at, the quick pick, and the code view with the diff for the one chosen. */
export async function findSimilar(deps: SimilarDeps, finder: SimilarFinder): Promise<boolean> {
  const editor = await deps.editor();
  if (!editor) {
    void showInformationMessage(vscode.l10n.t('Find Refactorings for This Code needs an open text editor.'));
    return false;
  }
  let looked: LookedAt;
  let matches: Match[];
  try {
    looked = await finder.lookAt(editor.document, editor.selection);
    matches = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Looking for code like yours') },
      () => finder.find(looked),
    );
  } catch (e) {
    if (!(e instanceof LookError)) throw e;
    void showInformationMessage(e.message);
    return false;
  }
  if (matches.length === 0) {
    const search = vscode.l10n.t('Search Codes…');
    // Similar code is looked for in what search knows: until the catalog is indexed, that is what was browsed.
    const index = vscode.l10n.t('Index the Catalog for Search');
    const indexed = await finder.indexed();
    const answer = indexed
      ? await showInformationMessage(nothingAlike(looked), search)
      : await showInformationMessage(vscode.l10n.t('{0} Only the codes seen while browsing were compared: index the catalog to compare them all.', nothingAlike(looked)), index, search);
    if (answer === search) await vscode.commands.executeCommand(Commands.search);
    if (answer === index) await vscode.commands.executeCommand(Commands.indexCatalog);
    return false;
  }
  const chosen = await vscode.window.showQuickPick(matches.map(matchPick), {
    title: codesLike(looked),
    placeHolder: vscode.l10n.t('Choose a code to see its best refactoring against your code'),
    matchOnDescription: true,
  });
  if (!chosen) return false;
  await showMatch(deps, looked, chosen.match);
  return true;
}

function nothingAlike(looked: LookedAt): string {
  switch (looked.from) {
    case 'selection': return vscode.l10n.t('No code in the catalog is like the selection.');
    case 'function': return vscode.l10n.t('No code in the catalog is like this function.');
    case 'document': return vscode.l10n.t('No code in the catalog is like this file.');
  }
}

function codesLike(looked: LookedAt): string {
  switch (looked.from) {
    case 'selection': return vscode.l10n.t('Codes Like the Selection');
    case 'function': return vscode.l10n.t('Codes Like This Function');
    case 'document': return vscode.l10n.t('Codes Like This File');
  }
}

/** The code view on the match, and the user's code against its best refactoring (adapted where it adapts). */
async function showMatch(deps: SimilarDeps, looked: LookedAt, match: Match): Promise<void> {
  deps.open(match.code.id, match.best?.id);
  if (!match.best) return;
  const languageId = looked.document.languageId;
  const mine = await deps.snapshot(looked.text, looked.language, languageId);
  const name = looked.document.uri.path.split('/').pop() || looked.document.uri.toString();
  const yours = vscode.l10n.t('{0} (lines {1}–{2})', name, looked.range.start.line + 1, looked.range.end.line + 1);
  if (match.adapted?.ok) {
    const theirs = await deps.snapshot(match.adapted.text, looked.language, languageId);
    await vscode.commands.executeCommand('vscode.diff', mine, theirs, diffTitle(yours, vscode.l10n.t('{0}, in your names', titleOf(match.best))));
    return;
  }
  await vscode.commands.executeCommand('vscode.diff', mine, await deps.refactorDocument(match.best), diffTitle(yours, titleOf(match.best)));
  if (match.adapted) void showInformationMessage(vscode.l10n.t('{0} does not adapt to your names: {1}', titleOf(match.best), match.adapted.reason));
}

/** The title of the code action that applies `match`'s best refactoring. */
export function actionTitle(match: Match & { best: NonNullable<Match['best']> }): string {
  return vscode.l10n.t('Apply Refactoring #{0} of "{1}" ({2})', match.best.id, titleOf({ kind: 'code', code: match.code }), ratingPhrase(match.best));
}

/** The refactorings that adapt to the code at the cursor, as edits applied on Enter or previewed on Ctrl+Enter; only when asked for. */
export async function adaptedRefactorings(finder: SimilarFinder, document: vscode.TextDocument, range: vscode.Range): Promise<vscode.CodeAction[]> {
  const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
  const selection = editor && editor.selection.intersection(range) ? editor.selection : new vscode.Selection(range.start, range.end);
  let looked: LookedAt;
  let matches: Match[];
  try {
    looked = await finder.lookAt(document, selection);
    matches = await finder.find(looked);
  } catch (e) {
    // A code action says nothing on its own: a file too long or a language the catalog has not offers none.
    if (e instanceof LookError) return [];
    throw e;
  }
  const actions: vscode.CodeAction[] = [];
  for (const match of matches) {
    if (actions.length >= MAX_ACTIONS || match.similarity < ACTION_SIMILARITY) break;
    if (!match.best || !match.adapted?.ok) continue;
    const title = actionTitle({ ...match, best: match.best });
    const action = new vscode.CodeAction(title, vscode.CodeActionKind.RefactorRewrite);
    const edit = new vscode.WorkspaceEdit();
    // As VS Code's own refactorings: chosen with Enter the edit applies at once (one undo), chosen with
    // Ctrl+Enter (Preview) the refactor preview shows it ticked under this title. An edit that needs
    // confirmation would open that preview on Enter too, unticked, where Apply changes nothing.
    edit.replace(document.uri, looked.range, match.adapted.text, { needsConfirmation: false, label: title });
    action.edit = edit;
    actions.push(action);
  }
  return actions;
}
