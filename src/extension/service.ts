// Where the extension gets its data from: a RefactorClient for the configured base URL, or, with
// `refactorBrowser.baseUrl` empty, for the reference service with the built-in sample catalog,
// started in-process on a free loopback port the first time data is needed and stopped on dispose.
import * as vscode from 'vscode';
import { Agent } from 'undici';
import { RefactorClient } from '../api/client';
import type { Logger } from '../api/logger';
import { startServer } from '../server/server';
import { sameProxy } from './proxy';
import type { Settings } from './settings';

type RunningServer = Awaited<ReturnType<typeof startServer>>;

export class ServiceConnection implements vscode.Disposable {
  private builtIn: Promise<RunningServer> | undefined;
  private client: Promise<RefactorClient> | undefined;
  private loopbackAgent: Agent | undefined;
  private readonly baseUrlChanged = new vscode.EventEmitter<void>();
  /** Fires when requests go to another service: what was fetched by id may differ there. */
  readonly onDidChangeBaseUrl = this.baseUrlChanged.event;

  constructor(
    private settings: Settings,
    private readonly logger: Logger,
  ) {}

  /** The base URL requests go to; starts the built-in service if the settings ask for it. */
  async baseUrl(): Promise<string> {
    if (this.settings.baseUrl) return this.settings.baseUrl;
    this.builtIn ??= startServer({ host: '127.0.0.1', port: 0 }).then(
      (server) => {
        this.logger.info(`built-in sample service listening on ${server.url}`);
        return server;
      },
      (err: unknown) => {
        this.builtIn = undefined; // let the next request try again
        throw err;
      },
    );
    return (await this.builtIn).url;
  }

  /** The client for the current settings, created on first use. */
  getClient(): Promise<RefactorClient> {
    this.client ??= this.baseUrl().then(
      (baseUrl) => {
        // The built-in service is on loopback: no proxy, configured or from the environment, applies.
        this.loopbackAgent = this.settings.baseUrl === '' ? new Agent() : undefined;
        return new RefactorClient({
          baseUrl,
          timeoutMs: this.settings.requestTimeoutSeconds * 1000,
          logger: this.logger,
          proxy: this.settings.proxy,
          dispatcher: this.loopbackAgent,
        });
      },
      (err: unknown) => {
        this.client = undefined;
        throw err;
      },
    );
    return this.client;
  }

  /** The next request for anything the client holds asks the service again (a Refresh). */
  expireHeld(): void {
    void this.client?.then((c) => c.expire(), () => undefined);
  }

  /** `refactorBrowser.baseUrl` as set; '' for the built-in sample catalog. */
  configuredUrl(): string {
    return this.settings.baseUrl;
  }

  /** True when the built-in sample service is what requests go to. */
  isBuiltIn(): boolean {
    return this.settings.baseUrl === '';
  }

  /** Takes new settings: a changed address, timeout or proxy means a new client on next use. */
  update(settings: Settings): void {
    const previous = this.settings;
    this.settings = settings;
    if (previous.baseUrl === settings.baseUrl && previous.requestTimeoutSeconds === settings.requestTimeoutSeconds
      && sameProxy(previous.proxy, settings.proxy)) return;
    this.closeClient();
    // The built-in service is not needed while another address is set; it restarts on demand.
    if (settings.baseUrl) this.stopBuiltIn();
    if (previous.baseUrl !== settings.baseUrl) this.baseUrlChanged.fire();
  }

  dispose(): void {
    this.baseUrlChanged.dispose();
    this.closeClient();
    this.stopBuiltIn();
  }

  private closeClient(): void {
    const client = this.client;
    const agent = this.loopbackAgent;
    this.client = undefined;
    this.loopbackAgent = undefined;
    void client?.then((c) => c.close()).then(() => agent?.close()).catch(() => {});
  }

  private stopBuiltIn(): void {
    const server = this.builtIn;
    this.builtIn = undefined;
    void server
      ?.then((s) => s.close())
      .then(() => this.logger.info('built-in sample service stopped'))
      .catch(() => {});
  }
}
