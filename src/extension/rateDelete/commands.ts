// Rate… and Delete…: what a signed-in person does to a writable service's codes and refactorings,
// on a tree row, a code view's button, or from the palette on the code view looked at last. Each
// write carries the current service's token (never another's); afterwards what the client held is
// asked for again, so the lists, the open code view and search show the service as it is now.
// What they ask and say goes through AccountUi, which the test API answers.
import * as vscode from 'vscode';
import type { RefactorClient } from '../../client/client';
import { isApiError } from '../../core/errors';
import type { Logger } from '../../client/logger';
import type { Code, Refactor } from '../../core/model';
import { Commands } from '../common/commandIds';
import { itemOrCurrent } from '../common/current';
import { codeIdOf, type Item } from '../common/items';
import { tokenRefused } from '../common/tokenRefused';
import { oneLine, type ErrorReporter } from '../common/errorReporting';
import { ratingPhrase, titleOf } from '../common/names';
import type { ServiceConnection } from '../service';
import type { AccountUi } from '../accounts/commands';
import type { SessionAsker } from '../accounts/session';

export interface WriteDeps {
  /** The current service's session, asked for in one step (accounts/session.ts). */
  signedIn: SessionAsker;
  service: ServiceConnection;
  errors: ErrorReporter;
  logger: Logger;
  ui: AccountUi;
  /** The code of the code view looked at last, for the palette. */
  currentCode: () => Code | undefined;
  /** After a write: the Catalog's lists and the code views ask again (a deleted code's view closes). */
  changed: (codeId: number, codeDeleted: boolean) => Promise<void>;
}

/** Why the service refused, in a few words: its own reasons where it gave some. */
function refusal(err: unknown): string {
  if (isApiError(err) && err.status === 401) return tokenRefused();
  if (isApiError(err) && err.status === 403) return vscode.l10n.t('it is someone else\'s');
  if (isApiError(err) && err.reasons.length) return err.reasons.join('; ');
  return oneLine(err);
}

export function registerWriteCommands({ signedIn, service, errors, logger, ui, currentCode, changed }: WriteDeps): vscode.Disposable {
  /** A client with the current service's token; undefined when there is none (see accounts/session.ts). */
  const signedInClient = async (): Promise<RefactorClient | undefined> =>
    (await signedIn((host) => vscode.l10n.t('Sign in to {0} to rate or delete.', host)))?.client();

  /** The code with its refactorings, as the service serves it now (a list's code carries none). */
  const codeOf = async (codeId: number): Promise<Code> => (await service.getClient()).code(codeId);

  /** The refactoring a row or button names; on a code, the one the person picks of its refactorings. */
  const refactorOf = async (item: Item): Promise<Refactor | undefined> => {
    if (item.kind === 'refactor') return item.refactor;
    const code = item.code.refactors ? item.code : await codeOf(item.code.id);
    const refactors = code.refactors ?? [];
    if (!refactors.length) {
      void ui.tell(false, vscode.l10n.t('{0} has no refactorings to rate.', titleOf(code)));
      return undefined;
    }
    const picked = await ui.choose(refactors.map((r) => ({ label: titleOf(r), description: ratingPhrase(r), refactor: r })),
      { title: vscode.l10n.t('Rate a refactoring of {0}', titleOf(code)) });
    return picked?.refactor;
  };

  const write = async (client: RefactorClient, failure: string, body: () => Promise<void>): Promise<boolean> => {
    try {
      await body();
      return true;
    } catch (err) {
      void ui.tell(true, `${failure}: ${refusal(err)}`);
      return false;
    } finally {
      void client.close();
    }
  };

  const rate = async (arg: unknown): Promise<void> => {
    const client = await signedInClient();
    const item = client && itemOrCurrent(arg, currentCode);
    const refactor = item && await refactorOf(item);
    if (!client || !refactor) return client?.close();
    const title = titleOf(refactor);
    const stars = [5, 4, 3, 2, 1].map((value) => ({ label: `${'★'.repeat(value)}${'☆'.repeat(5 - value)} ${value}`, value }));
    const picked = await ui.choose(stars, { title: vscode.l10n.t('Rate {0}', title), placeHolder: vscode.l10n.t('From 1 (poor) to 5 (excellent)') });
    if (!picked) return client.close();
    let rated: Refactor | undefined;
    if (!await write(client, vscode.l10n.t('Could not rate {0}', title), async () => {
      rated = await client.rate(refactor.codeId, refactor.id, picked.value);
    }) || !rated) return;
    logger.info(`Rated refactoring #${refactor.id} of code #${refactor.codeId}: ${picked.value}`);
    void ui.tell(false, vscode.l10n.t('Rated {0} {1}: it is {2} now.', title, picked.value, ratingPhrase(rated)));
    await changed(refactor.codeId, false);
  };

  const remove = async (arg: unknown): Promise<void> => {
    const client = await signedInClient();
    const item = client && itemOrCurrent(arg, currentCode);
    if (!client || !item) return client?.close();
    const codeId = codeIdOf(item);
    let name = titleOf(item);
    if (item.kind === 'refactor' && !item.refactor.title.trim()) {
      const code = await codeOf(codeId).catch(() => undefined);
      if (code) name = vscode.l10n.t('refactoring #{0} of {1}', item.refactor.id, titleOf(code));
    }
    const deleteButton = vscode.l10n.t('Delete');
    if (!await ui.warn(vscode.l10n.t('Delete {0}? This cannot be undone.', name), deleteButton)) return client.close();
    if (!await write(client, vscode.l10n.t('Could not delete {0}', name), () => (item.kind === 'code'
      ? client.deleteCode(codeId)
      : client.deleteRefactor(codeId, item.refactor.id)))) return;
    logger.info(item.kind === 'code' ? `Deleted code #${codeId}` : `Deleted refactoring #${item.refactor.id} of code #${codeId}`);
    void ui.tell(false, vscode.l10n.t('Deleted {0}.', name));
    await changed(codeId, item.kind === 'code');
  };

  return vscode.Disposable.from(
    errors.command(Commands.rate, vscode.l10n.t('Could not rate'), rate),
    errors.command(Commands.delete, vscode.l10n.t('Could not delete'), remove),
  );
}
