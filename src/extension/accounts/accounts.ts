// Signing in to a writable service: one account per service, its session (the token with it) in
// VS Code's SecretStorage under the service's base URL as the client normalizes it. Sessions are
// looked up by the service configured now, so a token is only ever found for, and sent to, the
// service that gave it. VS Code's Accounts menu lists the current service's account through this
// provider and signs it out through removeSession.
import * as vscode from 'vscode';
import { normalizeBaseUrl } from '../../client/urls';
import { ContextKeys } from '../common/commandIds';
import { Disposable } from '../common/dispose';
import type { ServiceConnection } from '../service';
import type { SettingsSource } from '../common/settings';

export const PROVIDER_ID = 'refactor-browser';
const KEY = 'refactorBrowser.session:';

/** What the secret holds for one service. */
interface Kept {
  id: string;
  token: string;
  account: vscode.AuthenticationSessionAccountInformation;
}

/** The service's base URL as the client normalizes it; undefined where the client would refuse it. */
export function serviceKey(baseUrl: string): string | undefined {
  try {
    return normalizeBaseUrl(baseUrl).href;
  } catch {
    return undefined;
  }
}

function asSession(kept: Kept): vscode.AuthenticationSession {
  return { id: kept.id, accessToken: kept.token, account: kept.account, scopes: [] };
}

export class Accounts extends Disposable implements vscode.AuthenticationProvider {
  private readonly changed = this._register(new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>());
  readonly onDidChangeSessions = this.changed.event;
  /** The current service's session as last told, so that VS Code hears which one went; updates in turn. */
  private told: Promise<vscode.AuthenticationSession | undefined>;
  /** The current service's session as last told, for what must know it at once (the code view's buttons). */
  private now: vscode.AuthenticationSession | undefined;
  /** Sign In…, for VS Code's own requests for a session (set by the commands). */
  signIn: () => Promise<vscode.AuthenticationSession | undefined> = async () => undefined;

  constructor(private readonly secrets: vscode.SecretStorage, private readonly service: ServiceConnection, settings: SettingsSource) {
    super();
    this.told = Promise.resolve(undefined);
    void this.update();
    this._register(settings.onDidChange(() => void this.update()));
    // Another window of this profile signed in or out.
    this._register(secrets.onDidChange((e) => e.key.startsWith(KEY) && void this.update()));
    this._register(vscode.authentication.registerAuthenticationProvider(PROVIDER_ID, 'Refactor Browser', this));
  }

  /** The current service's key; undefined for the built-in sample catalog, which takes no contributions. */
  currentKey(): string | undefined {
    return this.service.isBuiltIn() ? undefined : serviceKey(this.service.configuredUrl());
  }

  /** The signed-in person's id on the current service, as last told; undefined when signed out. */
  userId(): number | undefined {
    const id = this.now && Number(this.now.account.id.slice(this.now.account.id.lastIndexOf('#') + 1));
    return Number.isSafeInteger(id) ? id : undefined;
  }

  async getSessions(): Promise<vscode.AuthenticationSession[]> {
    const kept = await this.read();
    return kept ? [asSession(kept)] : [];
  }

  /** The session kept for the service `key` names, whichever service is configured now. */
  async sessionOf(key: string): Promise<vscode.AuthenticationSession | undefined> {
    const kept = await this.read(key);
    return kept && asSession(kept);
  }

  async createSession(): Promise<vscode.AuthenticationSession> {
    const session = await this.signIn();
    if (!session) throw new Error('Sign in was cancelled');
    return session;
  }

  async removeSession(id: string): Promise<void> {
    const key = this.currentKey();
    if (key && (await this.read())?.id === id) await this.secrets.delete(KEY + key);
    await this.update();
  }

  /** Keeps `token` for the service `key` names, replacing any token it had. */
  async keep(key: string, token: string, account: Kept['account']): Promise<vscode.AuthenticationSession> {
    const kept: Kept = { id: globalThis.crypto.randomUUID(), token, account };
    await this.secrets.store(KEY + key, JSON.stringify(kept));
    await this.update();
    return asSession(kept);
  }

  private async read(key = this.currentKey()): Promise<Kept | undefined> {
    if (!key) return undefined;
    try {
      const kept = JSON.parse((await this.secrets.get(KEY + key)) ?? 'null') as Kept | null;
      return typeof kept?.token === 'string' && typeof kept.id === 'string' && typeof kept.account?.label === 'string' ? kept : undefined;
    } catch {
      return undefined;
    }
  }

  /** Tells VS Code and the menus what changed since last told. */
  private update(): Promise<unknown> {
    this.told = this.told.then(async (before) => {
      const kept = await this.read();
      const now = kept && asSession(kept);
      this.now = now;
      await vscode.commands.executeCommand('setContext', ContextKeys.signedIn, Boolean(now));
      if (before?.id !== now?.id) this.changed.fire({ added: now ? [now] : [], removed: before ? [before] : [], changed: [] });
      return now;
    }).catch(() => undefined);
    return this.told;
  }
}
