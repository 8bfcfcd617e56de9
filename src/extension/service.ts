// Where the extension gets its data from: a RefactorClient for the configured base URL, or, with
// `refactorBrowser.baseUrl` empty, for the reference service with the built-in sample catalog,
// started in-process on a free loopback port the first time data is needed and stopped on dispose.
// Requests go through the extension host's own fetch, which VS Code routes through its proxy
// support (http.proxy, http.noProxy, PAC, system certificates); loopback is never proxied.
import * as vscode from 'vscode';
import { RefactorClient } from '../api/client';
import type { Logger } from '../api/logger';
import { startServer } from '../server/server';
import type { Settings } from './settings';

type RunningServer = Awaited<ReturnType<typeof startServer>>;

/** The name of the built-in sample catalog among services (document URIs, offline keys). */
export const SAMPLE_SERVICE = 'sample';
/** Clients kept for services configured earlier in this window, for the documents that came from them. */
const MAX_EARLIER_SERVICES = 4;

export class ServiceConnection implements vscode.Disposable {
  private builtIn: Promise<RunningServer> | undefined;
  private client: Promise<RefactorClient> | undefined;
  /** By service name, the clients of services configured before the current one. */
  private readonly earlier = new Map<string, Promise<RefactorClient>>();

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
      (baseUrl) => new RefactorClient({
        baseUrl,
        timeoutMs: this.settings.requestTimeoutSeconds * 1000,
        logger: this.logger,
      }),
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

  /** Names the current service: `sample`, or the base URL as configured. */
  name(): string {
    return this.settings.baseUrl === '' ? SAMPLE_SERVICE : this.settings.baseUrl;
  }

  /**
   * The client of the service `name` names: the current one, or one configured earlier in this
   * window, so that a document keeps showing the code of the service it came from.
   */
  clientFor(name: string): Promise<RefactorClient> {
    if (name === this.name()) return this.getClient();
    const kept = this.earlier.get(name);
    if (kept) return kept;
    return Promise.reject(new Error(`this document came from ${name === SAMPLE_SERVICE ? 'the built-in sample catalog' : name}, which is not the service configured now`));
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
    const previousName = this.name();
    this.settings = settings;
    if (previous.baseUrl === settings.baseUrl && previous.requestTimeoutSeconds === settings.requestTimeoutSeconds) return;
    const client = this.client;
    this.client = undefined;
    if (client && previous.baseUrl !== settings.baseUrl) {
      // Documents opened from the previous service still read from it (the built-in sample service
      // keeps running for them).
      this.keepEarlier(previousName, client);
    } else {
      close(client);
    }
    close(this.earlier.get(this.name()));
    this.earlier.delete(this.name());
  }

  dispose(): void {
    close(this.client);
    this.client = undefined;
    for (const kept of this.earlier.values()) close(kept);
    this.earlier.clear();
    this.stopBuiltIn();
  }

  private keepEarlier(name: string, client: Promise<RefactorClient>): void {
    this.earlier.delete(name);
    this.earlier.set(name, client);
    for (const [oldest, dropped] of this.earlier) {
      if (this.earlier.size <= MAX_EARLIER_SERVICES) break;
      this.earlier.delete(oldest);
      close(dropped);
    }
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

function close(client: Promise<RefactorClient> | undefined): void {
  void client?.then((c) => c.close()).catch(() => {});
}
