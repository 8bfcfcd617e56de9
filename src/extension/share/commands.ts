// Share Selection as Code…: the selection, verbatim, posted to the current service as a new code, in
// the document's language, with the title, comment and tags a person gives; what will be sent is
// shown for confirmation first. A refused share keeps everything typed and asks again with each
// field's reason beside it.
//
// Native inputs rather than a webview form: an InputBox for the title and the tags, the comment in an
// untitled Markdown editor (VS Code has no multi-line InputBox: commentEditor.ts), a modal dialog for
// the preview. They
// are VS Code's own widgets: keyboard-driven, read by screen readers, themed and localized as the
// rest of VS Code, with no second script bundle, CSP or message protocol to keep safe, and they cost
// the extension bundles, which are close to their size budget, almost nothing.
import * as vscode from 'vscode';
import { isApiError } from '../../core/errors';
import { FIELD, splitTags } from '../../core/writeContract';
import type { Logger } from '../../client/logger';
import { SERVICE_LANGUAGES, toServiceLanguage } from '../../core/languages';
import type { AccountUi } from '../accounts/commands';
import type { SessionAsker } from '../accounts/session';
import { Commands } from '../common/commandIds';
import { oneLine, type ErrorReporter } from '../common/errorReporting';
import { showModal } from '../common/notifications';
import { tokenRefused } from '../common/tokenRefused';
import type { SettingsSource } from '../common/settings';
import type { CommentEditors } from './commentEditor';

/** What sharing asks and says through, beside Sign In's; the test API answers it. */
export interface ShareUi extends AccountUi {
  ask(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  /** The comment, which may run to several lines; `prompt` says what is asked (and why again). */
  askComment(value: string, prompt: string): Thenable<string | undefined>;
  pick(items: readonly string[], options: vscode.QuickPickOptions): Thenable<string | undefined>;
  /** A modal question: resolves with `button` when chosen. */
  confirm(message: string, detail: string, button: string): Thenable<string | undefined>;
}

export function shareUi(accountUi: AccountUi, comments: CommentEditors): ShareUi {
  return {
    ...accountUi,
    ask,
    askComment: (value, prompt) => comments.ask(value, prompt),
    pick: (items, options) => vscode.window.showQuickPick([...items], options),
    confirm: (message, detail, button) => showModal(message, detail, button),
  };
}

/**
 * An input box, as showInputBox shows one, but with the initial value's validation message shown at
 * once: showInputBox shows it only after a first keystroke, so a refused field asked again would
 * not show its reason beside it.
 */
function ask(options: vscode.InputBoxOptions): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  const { title, value = '', prompt, placeHolder, password = false, ignoreFocusOut = false } = options;
  Object.assign(box, { title, value, prompt, placeholder: placeHolder, password, ignoreFocusOut });
  const validate = async (v: string): Promise<boolean> => {
    const result = await options.validateInput?.(v);
    box.validationMessage = result ?? undefined;
    return !result || (typeof result === 'object' && result.severity !== vscode.InputBoxValidationSeverity.Error);
  };
  return new Promise<string | undefined>((resolve) => {
    const done = (answer: string | undefined): void => {
      resolve(answer);
      for (const s of subscriptions) s.dispose();
      box.dispose();
    };
    const subscriptions = [
      box.onDidChangeValue((v) => void validate(v)),
      box.onDidAccept(async () => {
        const v = box.value;
        if (await validate(v)) done(v);
      }),
      box.onDidHide(() => done(undefined)),
    ];
    void validate(value);
    box.show();
  });
}

export interface ShareDeps {
  /** The current service's session, asked for in one step (accounts/session.ts). */
  signedIn: SessionAsker;
  settings: SettingsSource;
  errors: ErrorReporter;
  logger: Logger;
  ui: ShareUi;
  /**
   * The editor whose selection is shared: the active text editor, else (a webview has focus, such
   * as the walkthrough whose button runs Share) the one a person worked in last.
   */
  editor: () => Promise<vscode.TextEditor | undefined>;
  /** Shows the new code in the code view. */
  open: (codeId: number) => void;
  /** Asks for Recent Codes again, which now begin with the new code. */
  refreshCatalog: () => void;
}

interface Draft {
  title: string;
  comment: string;
  tags: string;
}

type Field = keyof Draft;

/** Each typed field as the write contract names it in a 422's `<error field="…">`. */
const CONTRACT_FIELD = { title: FIELD.title, comment: FIELD.comment, tags: FIELD.tags } as const satisfies Record<Field, string>;

export function registerShareCommands({ signedIn, settings, errors, logger, ui, editor: selecting, open, refreshCatalog }: ShareDeps): vscode.Disposable {
  // What was typed for the last selection refused or left unsent, so that sharing it again starts there.
  let kept: { code: string; draft: Draft } | undefined;

  const share = async (): Promise<void> => {
    const editor = await selecting();
    const code = editor?.document.getText(editor.selection) ?? '';
    if (!editor || code === '') {
      void ui.tell(false, vscode.l10n.t('Select the code to share in an editor first.'));
      return;
    }
    // On the built-in sample catalog (or an address that is none) Sign In says why and offers a service.
    const signed = await signedIn((host) => vscode.l10n.t('Sign in to {0} to share code there.', host));
    if (!signed) return;
    const { key } = signed;
    const host = new URL(key).host;
    const languageId = editor.document.languageId;
    const language = toServiceLanguage(languageId) ?? await ui.pick(SERVICE_LANGUAGES, {
      title: vscode.l10n.t('Language of the Shared Code'),
      placeHolder: vscode.l10n.t('{0} has no language for {1}: pick the code\'s language', host, languageId),
      ignoreFocusOut: true,
    });
    if (!language) return;

    const draft: Draft = kept?.code === code ? kept.draft : { title: '', comment: '', tags: '' };
    kept = { code, draft };
    // Each field's reason with the value it was given for: it shows while that value stands.
    const refused: Partial<Record<Field, { reason: string; value: string }>> = {};
    const lines = code.replace(/\r?\n$/, '').split(/\r\n|\r|\n/).length;
    const size = lines === 1 ? vscode.l10n.t('1 line') : vscode.l10n.t('{0} lines', lines);
    const step = (n: number): string => vscode.l10n.t('Share Selection as Code ({0}/3)', n);
    for (;;) {
      const reasonFor = (field: Field, value: string): vscode.InputBoxValidationMessage | undefined =>
        value === refused[field]?.value ? { message: refused[field].reason, severity: vscode.InputBoxValidationSeverity.Error } : undefined;
      const title = await ui.ask({
        title: step(1), value: draft.title, ignoreFocusOut: true,
        prompt: vscode.l10n.t('The title of the code ({0} of {1})', size, language),
        validateInput: (v) => reasonFor('title', v),
      });
      if (title === undefined) return;
      draft.title = title;
      const comment = await ui.askComment(draft.comment, [
        refused.comment?.value === draft.comment ? refused.comment.reason : undefined,
        vscode.l10n.t('Write the comment on "{0}" in this editor (several lines are welcome), then choose Use as Comment (✓) above it.', title),
      ].filter(Boolean).join(' '));
      if (comment === undefined) return;
      draft.comment = comment;
      const saved = settings.current.tags;
      const tags = await ui.ask({
        title: step(3), value: draft.tags, ignoreFocusOut: true,
        prompt: saved.length
          ? vscode.l10n.t('Tags, separated by spaces (optional). Your saved tags: {0}', saved.join(' '))
          : vscode.l10n.t('Tags, separated by spaces (optional)'),
        validateInput: (v) => reasonFor('tags', v),
      });
      if (tags === undefined) return;
      draft.tags = tags;

      const tagList = splitTags(tags);
      const send = vscode.l10n.t('Share');
      const detail = [
        vscode.l10n.t('Title: {0}', title),
        vscode.l10n.t('Language: {0}', language),
        vscode.l10n.t('Tags: {0}', tagList.join(' ') || vscode.l10n.t('none')),
        vscode.l10n.t('Code: {0}', size),
        vscode.l10n.t('Comment:'),
        comment,
      ].join('\n');
      if ((await ui.confirm(vscode.l10n.t('Share this code with {0}?', host), detail, send)) !== send) return;

      const client = signed.client();
      try {
        const { value } = await client.postCode({ title, language, comment, code, tags: tagList });
        kept = undefined;
        logger.info(`Shared code ${value.id} with ${key}`);
        refreshCatalog();
        open(value.id);
        return;
      } catch (err) {
        const reasons = isApiError(err) ? err.reasons : [];
        for (const field of ['title', 'comment', 'tags'] as const) {
          const reason = isApiError(err) ? err.reasonFor(CONTRACT_FIELD[field]) : undefined;
          refused[field] = reason === undefined ? undefined : { reason, value: draft[field] };
        }
        const again = vscode.l10n.t('Edit and Send Again');
        const cause = reasons.length ? reasons.join('; ') : isApiError(err) && err.status === 401
          ? tokenRefused()
          : oneLine(err);
        if ((await ui.tell(true, `${vscode.l10n.t('Could not share the code with {0}', host)}: ${cause}`, again)) !== again) return;
      } finally {
        void client.close();
      }
    }
  };

  return errors.command(Commands.shareSelection, vscode.l10n.t('Could not share the selection'), share);
}
