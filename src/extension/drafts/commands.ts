// Refactor… and Submit Refactoring. Refactor… opens a draft of a code (drafts.ts) in a diff: the code,
// read-only, on the left, the editable draft on the right, both in the code's language; a code with a
// draft already gets that one back. Submit Refactoring asks for a title and a comment and posts the
// draft's text as a refactoring of its own code, to its own service, with that service's token only.
// On success the code view shows the new refactoring and the draft closes unprompted; on failure the
// draft stays, and the service's reasons show with Edit and Send Again, as Share does.
import * as vscode from 'vscode';
import { isApiError } from '../../core/errors';
import type { Logger } from '../../client/logger';
import type { Code } from '../../core/model';
import { FIELD } from '../../core/writeContract';
import type { Accounts } from '../accounts/accounts';
import type { SessionAsker } from '../accounts/session';
import { Commands } from '../common/commandIds';
import { diffTitle } from '../common/labels';
import { tabsShowing, textUriOf } from '../common/tabs';
import { itemOrCurrent } from '../common/current';
import type { CodeDocuments } from '../code/documents';
import { codeIdOf } from '../common/items';
import { tokenRefused } from '../common/tokenRefused';
import { oneLine, type ErrorReporter } from '../common/errorReporting';
import { titleOf } from '../common/names';
import { DRAFT_SCHEME } from './draftPaths';
import type { Draft, Drafts } from './drafts';

/** What drafts ask and say through; the test API answers it (extension.ts hands in the object Share's questions go through). */
export interface DraftUi {
  ask(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  /** The comment, which may run to several lines; `prompt` says what is asked. */
  askComment(value: string, prompt: string): Thenable<string | undefined>;
  tell(error: boolean, message: string, ...buttons: string[]): Thenable<string | undefined>;
}

export interface DraftDeps {
  drafts: Drafts;
  accounts: Accounts;
  /** The current service's session, asked for in one step (accounts/session.ts). */
  signedIn: SessionAsker;
  docs: CodeDocuments;
  errors: ErrorReporter;
  logger: Logger;
  ui: DraftUi;
  /** The code of the code view looked at last, for the palette. */
  currentCode: () => Code | undefined;
  /** After a refactoring was added to code `codeId`: the lists and its code view ask again. */
  changed: (codeId: number) => Promise<void>;
  /** Shows the code's view at the refactoring. */
  show: (codeId: number, refactorId: number) => void;
}

/** The draft a command was run on: the editor title's resource, else the active editor's draft. */
function draftUriOf(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg.scheme === DRAFT_SCHEME ? arg : undefined;
  const uri = textUriOf(vscode.window.tabGroups.activeTabGroup.activeTab);
  return uri?.scheme === DRAFT_SCHEME ? uri : undefined;
}

/** Closes every tab showing the draft, saved first so that closing it asks nothing. */
async function closeDraft(uri: vscode.Uri): Promise<void> {
  const key = uri.toString();
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
  if (doc?.isDirty) await doc.save();
  await vscode.window.tabGroups.close(tabsShowing(uri));
}

export function registerDraftCommands({ drafts, accounts, signedIn, docs, errors, logger, ui, currentCode, changed, show }: DraftDeps): vscode.Disposable {
  /** The code (left) beside its draft (right), both in the code's language. */
  const openDiff = async (code: Code, draft: Draft): Promise<void> => {
    const left = await docs.openItem({ kind: 'code', code });
    const right = await docs.open(drafts.uriOf(draft), code.language);
    await vscode.commands.executeCommand('vscode.diff', left.uri, right.uri,
      diffTitle(titleOf(code), vscode.l10n.t('Your Refactoring')), { preview: false });
  };

  const refactor = async (arg: unknown): Promise<void> => {
    const signed = await signedIn((host) => vscode.l10n.t('Sign in to {0} to refactor its codes.', host));
    const item = signed && itemOrCurrent(arg, currentCode);
    if (!signed || !item) return;
    // As the service serves it now: the draft starts from its current text.
    const code = await docs.fetchCode(codeIdOf(item));
    const { draft, made } = await drafts.draftOf(signed.key, code);
    if (made) logger.info(`Made a draft refactoring of code #${code.id} of ${signed.key}`);
    await openDiff(code, draft);
  };

  const submit = async (arg: unknown): Promise<void> => {
    const uri = draftUriOf(arg);
    const draft = uri && await drafts.get(uri);
    if (!uri || !draft) {
      void ui.tell(false, uri
        ? vscode.l10n.t('This draft is gone: it was submitted or deleted. Refactor… on a code makes a new one.')
        : vscode.l10n.t('Open a draft first: Refactor… on a code makes one.'));
      return;
    }
    const host = new URL(draft.service).host;
    const name = draft.codeTitle || titleOf({ id: draft.codeId, title: '' });
    // The token of the service configured now goes to that service only.
    if (accounts.currentKey() !== draft.service) {
      const set = vscode.l10n.t('Set a Service');
      const said = vscode.l10n.t('This draft refactors {0} on {1}, which is not the service configured now: set Refactor Browser: Base Url to {2} to submit it.', name, host, draft.service);
      if (await ui.tell(false, said, set) === set) await vscode.commands.executeCommand(Commands.openSettings);
      return;
    }
    const signed = await signedIn((h) => vscode.l10n.t('Sign in to {0} to submit your refactoring.', h));
    if (!signed || signed.key !== draft.service) return;
    let typed = { title: draft.title, comment: draft.comment };
    let refused: { reason: string; title: string } | undefined;
    for (;;) {
      const code = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.getText() ?? (await drafts.get(uri))?.text ?? draft.text;
      if (code === draft.base) {
        void ui.tell(false, vscode.l10n.t('The draft is still the code of {0}: change it before you submit it.', name));
        return;
      }
      const title = await ui.ask({
        title: vscode.l10n.t('Submit Refactoring of {0} (1/2)', name), value: typed.title, ignoreFocusOut: true,
        prompt: vscode.l10n.t('The title of your refactoring (optional)'),
        validateInput: (v) => (refused && v === refused.title ? { message: refused.reason, severity: vscode.InputBoxValidationSeverity.Error } : undefined),
      });
      if (title === undefined) return;
      const comment = await ui.askComment(typed.comment,
        vscode.l10n.t('Write what your refactoring of "{0}" changes and why in this editor, then choose Use as Comment.', name));
      if (comment === undefined) return;
      typed = { title, comment };
      // Checked again: the setting may have changed while the questions were open.
      if (accounts.currentKey() !== draft.service) return;
      const client = signed.client();
      try {
        const { value } = await client.postRefactor(draft.codeId, { title, comment, code });
        logger.info(`Submitted refactoring #${value.id} of code #${draft.codeId} to ${draft.service}`);
        await closeDraft(uri);
        await drafts.remove(draft);
        await changed(draft.codeId);
        show(draft.codeId, value.id);
        void ui.tell(false, vscode.l10n.t('Submitted {0} as a refactoring of {1}.', titleOf(value), name));
        return;
      } catch (err) {
        await drafts.remember(draft, typed);
        const reasons = isApiError(err) ? err.reasons : [];
        const titleReason = isApiError(err) ? err.reasonFor(FIELD.title) : undefined;
        refused = titleReason === undefined ? undefined : { reason: titleReason, title };
        const cause = reasons.length ? reasons.join('; ') : isApiError(err) && err.status === 401
          ? tokenRefused()
          : isApiError(err) && err.status === 404 ? vscode.l10n.t('the code is no longer there') : oneLine(err);
        const again = vscode.l10n.t('Edit and Send Again');
        if (await ui.tell(true, `${vscode.l10n.t('Could not submit your refactoring of {0}', name)}: ${cause}`, again) !== again) return;
      } finally {
        void client.close();
      }
    }
  };
  return vscode.Disposable.from(
    errors.command(Commands.refactorCode, vscode.l10n.t('Could not open a draft refactoring'), refactor),
    errors.command(Commands.submitRefactoring, vscode.l10n.t('Could not submit the refactoring'), submit),
  );
}
