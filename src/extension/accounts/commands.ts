// Sign In… and Sign Out. Sign In asks for the token the service's owner gave, checks it with the
// service (GET /account.xml) and keeps it for that service only; a token the service refuses is
// not kept. What it asks and says goes through AccountUi, which the test API answers.
import * as vscode from 'vscode';
import { isApiError } from '../../core/errors';
import type { Logger } from '../../client/logger';
import { Commands } from '../common/commandIds';
import { oneLine, type ErrorReporter } from '../common/errorReporting';
import { confirmModal, showErrorMessage, showInformationMessage } from '../common/notifications';
import type { ServiceConnection } from '../service';
import { tokenRefused } from '../common/tokenRefused';
import type { Accounts } from './accounts';

export interface AccountUi {
  askToken(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  tell(error: boolean, message: string, ...buttons: string[]): Thenable<string | undefined>;
  choose<T extends vscode.QuickPickItem>(items: T[], options: vscode.QuickPickOptions): Thenable<T | undefined>;
  /** A modal warning: true when the person chose `button`. */
  warn(message: string, button: string): Thenable<boolean>;
}

export function accountUi(): AccountUi {
  return {
    askToken: (options) => vscode.window.showInputBox(options),
    tell: (error, message, ...buttons) => (error ? showErrorMessage : showInformationMessage)(message, ...buttons),
    choose: (items, options) => vscode.window.showQuickPick(items, options),
    warn: confirmModal,
  };
}

export interface AccountDeps {
  accounts: Accounts;
  service: ServiceConnection;
  errors: ErrorReporter;
  logger: Logger;
  ui: AccountUi;
}

export function registerAccountCommands({ accounts, service, errors, logger, ui }: AccountDeps): vscode.Disposable {
  const signIn = async (): Promise<vscode.AuthenticationSession | undefined> => {
    const key = accounts.currentKey();
    if (!key) {
      const set = vscode.l10n.t('Set a Service');
      const said = service.isBuiltIn()
        ? vscode.l10n.t('The built-in sample catalog takes no contributions: set a service (refactorBrowser.baseUrl) to sign in to it.')
        : vscode.l10n.t('{0} is not an http or https address to sign in to.', service.configuredUrl());
      void ui.tell(false, said, set).then((choice) => choice === set && vscode.commands.executeCommand(Commands.openSettings));
      return undefined;
    }
    const host = new URL(key).host;
    const token = (await ui.askToken({
      title: vscode.l10n.t('Sign In to {0}', host),
      prompt: vscode.l10n.t('The token the owner of {0} gave you', host),
      password: true,
      ignoreFocusOut: true,
    }))?.trim();
    if (!token) return undefined;
    let name: string;
    let id: number;
    try {
      ({ name, id } = await service.clientWithToken(key, token).account());
    } catch (err) {
      // A read's 401 comes as a bare status line; any other cause is the client's message, which
      // names it (unreachable, timed out) and never holds the token.
      const cause = isApiError(err) && err.status === 401 ? tokenRefused() : oneLine(err);
      void ui.tell(true, `${vscode.l10n.t('Could not sign in to {0}', host)}: ${cause}`);
      return undefined;
    }
    const session = await accounts.keep(key, token, { id: `${key}#${id}`, label: `${name} (${host})` });
    logger.info(`Signed in to ${key} as ${name}`);
    void ui.tell(false, vscode.l10n.t('Signed in to {0} as {1}.', host, name));
    return session;
  };
  accounts.signIn = signIn;

  const signOut = async (): Promise<void> => {
    const key = accounts.currentKey();
    const [session] = await accounts.getSessions();
    if (!key || !session) return;
    await accounts.removeSession(session.id);
    void ui.tell(false, vscode.l10n.t('Signed out of {0}.', new URL(key).host));
  };

  return vscode.Disposable.from(
    errors.command(Commands.signIn, vscode.l10n.t('Could not sign in'), signIn),
    errors.command(Commands.signOut, vscode.l10n.t('Could not sign out'), signOut),
  );
}
