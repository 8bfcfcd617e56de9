// What a write needs before it asks anything: the service configured now and its session, read in
// one step keyed by that service, and a client that carries the token to that service only. The
// setting may change while the person is asked to sign in; a sign-in then signs in to the other
// service, and this one still has no session, so nothing is sent to either with the other's token.
import * as vscode from 'vscode';
import type { RefactorClient } from '../../client/client';
import type { ServiceConnection } from '../service';
import type { Accounts } from './accounts';
import type { AccountUi } from './commands';

export interface SignedIn {
  /** The service's base URL as the client normalizes it, which the session is kept under. */
  key: string;
  session: vscode.AuthenticationSession;
  /** A new client carrying the session's token to the service `key` names, whatever is configured by then. */
  client(): RefactorClient;
}

/**
 * The current service's session; undefined, and the person offered Sign In… with `why` (or on the
 * sample told it takes no contributions), when there is none.
 */
export type SessionAsker = (why: (host: string) => string) => Promise<SignedIn | undefined>;

export function sessionAsker(accounts: Accounts, service: ServiceConnection, ui: Pick<AccountUi, 'tell'>): SessionAsker {
  return async (why) => {
    const key = accounts.currentKey();
    if (!key) {
      await accounts.signIn(); // says why there is nothing to sign in to
      return undefined;
    }
    let session = await accounts.sessionOf(key);
    if (!session) {
      const signIn = vscode.l10n.t('Sign In…');
      if (await ui.tell(false, why(new URL(key).host), signIn) !== signIn) return undefined;
      await accounts.signIn();
      // Sign In signs in to the service configured by then: only a session of this one counts.
      session = await accounts.sessionOf(key);
      if (!session) return undefined;
    }
    const token = session.accessToken;
    return { key, session, client: () => service.clientWithToken(key, token) };
  };
}
