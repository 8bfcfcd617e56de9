// How the extension words a token the service refused (a 401), in every command that sends one:
// written once, so Sign In, Share, Submit and Rate/Delete say the same.
import * as vscode from 'vscode';

/** The cause of a 401: the token is unknown (mistyped, or replaced since), or revoked. */
export function tokenRefused(): string {
  return vscode.l10n.t('the service refused the token (unknown, revoked or mistyped): sign in again');
}
