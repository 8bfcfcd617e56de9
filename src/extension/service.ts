// Where the extension gets its data from: a RefactorClient for the configured base URL or, with
// `refactorBrowser.baseUrl` empty, for the built-in sample catalog, which the reference service
// answers in this process (no socket, no port: it works in every extension host, the browser's
// too). Requests to a service go through the extension host's own fetch, which VS Code routes
// through its proxy support (http.proxy, http.noProxy, PAC, system certificates).
import * as vscode from 'vscode';
import { RefactorClient, type ClientOptions, type RequestOpts } from '../client/client';
import type { FetchLike } from '../client/http';
import type { Logger } from '../client/logger';
import type { Code, Refactor } from '../core/model';
import type { IndexSource } from '../search/indexer';
import { parseDataset, type Dataset } from '../server/catalog/dataset';
import { inProcessFetch, SAMPLE_BASE_URL, SAMPLE_SERVICE } from '../server/http/fetchHandler';
import { Disposable, toDisposable } from './common/dispose';
import { readTextFile } from './common/files';
import type { FetchedItems } from './common/fetched';
import type { Settings, SettingsSource } from './common/settings';

/** Clients kept for services configured earlier in this window, for the documents that came from them. */
const MAX_EARLIER_SERVICES = 4;

/**
 * In the browser's web worker extension host (VS Code for the Web), requests are the browser's: it
 * sends its own User-Agent, and it tells nothing of why a request failed.
 */
const IN_BROWSER = WEB_BUILD;

/** What a failure the browser explains no further most often means there. */
function corsHint(url: string): string {
  return vscode.l10n.t('no answer VS Code for the Web may read: {0} may not allow requests from other sites (CORS), or cannot be reached', new URL(url).origin);
}

/**
 * A client that tells search what each answer showed (every list, tag and code view), so that search
 * knows what a person has browsed without indexing anything.
 */
export class ObservedClient extends RefactorClient {
  constructor(options: ClientOptions, private readonly report: (items: FetchedItems) => void) {
    super(options);
  }

  override async recentCodes(o?: RequestOpts): Promise<Code[]> {
    return this.reportCodes(await super.recentCodes(o));
  }

  override async popularCodes(o?: RequestOpts): Promise<Code[]> {
    return this.reportCodes(await super.popularCodes(o));
  }

  override async taggedCodes(tag: string, o?: RequestOpts): Promise<Code[]> {
    return this.reportCodes(await super.taggedCodes(tag, o), tag);
  }

  override async recentRefactorings(o?: RequestOpts): Promise<Refactor[]> {
    const refactors = await super.recentRefactorings(o);
    this.report({ refactors });
    return refactors;
  }

  override async code(ref: string | number, o?: { signal?: AbortSignal }): Promise<Code> {
    const code = await super.code(ref, o);
    this.report({ codes: [code] });
    return code;
  }

  /** The same requests, unobserved: Index the Catalog puts what it reads into the index itself. */
  unobserved(): IndexSource {
    return {
      recentCodes: (o) => super.recentCodes(o),
      recentRefactorings: (o) => super.recentRefactorings(o),
      taggedCodes: (tag, o) => super.taggedCodes(tag, o),
    };
  }

  private reportCodes(codes: Code[], tag?: string): Code[] {
    this.report({ codes, tag });
    return codes;
  }
}

export class ServiceConnection extends Disposable {
  private client: Promise<ObservedClient> | undefined;
  /** By service name, the clients of services configured before the current one. */
  private readonly earlier = new Map<string, Promise<RefactorClient>>();
  private readonly fetched = this._register(new vscode.EventEmitter<{ service: string; items: FetchedItems }>());
  /** Fires with what each answer showed and the name of the service that gave it. */
  readonly onDidFetch = this.fetched.event;
  private sampleFetch: Promise<FetchLike> | undefined;
  /** The settings this connection works with: the source's, applied as they change. */
  private settings: Settings;

  constructor(
    settings: SettingsSource,
    private readonly logger: Logger,
    /** The built-in sample catalog, read when first needed. */
    private readonly loadSample: () => Promise<Dataset>,
  ) {
    super();
    this.settings = settings.current;
    this._register(settings.onDidChange((next) => this.apply(next)));
    this._register(toDisposable(() => {
      close(this.client);
      this.client = undefined;
      for (const kept of this.earlier.values()) close(kept);
      this.earlier.clear();
    }));
  }

  /** The base URL requests go to. */
  baseUrl(): string {
    return this.settings.baseUrl || SAMPLE_BASE_URL;
  }

  /** The client for the current settings, created on first use. */
  getClient(): Promise<ObservedClient> {
    this.client ??= (async () => {
      const builtIn = this.isBuiltIn();
      const service = this.name();
      if (builtIn) {
        this.sampleFetch ??= this.loadSample().then(inProcessFetch);
        this.sampleFetch.catch(() => (this.sampleFetch = undefined));
      }
      return new ObservedClient({
        baseUrl: this.baseUrl(),
        timeoutMs: this.settings.requestTimeoutSeconds * 1000,
        logger: this.logger,
        fetch: builtIn ? await this.sampleFetch : undefined,
        userAgent: IN_BROWSER ? null : undefined,
        unexplainedFailure: IN_BROWSER ? corsHint : undefined,
      }, (items) => this.fetched.fire({ service, items }));
    })();
    // An address refused when the client is made (not http, credentials) is refused again next time.
    this.client.catch(() => (this.client = undefined));
    return this.client;
  }

  /**
   * A client that carries `token` to `baseUrl` (the service it belongs to, not whatever is
   * configured by the time it is used), with the current settings' timeout and transport.
   */
  clientWithToken(baseUrl: string, token: string): RefactorClient {
    return new RefactorClient({
      baseUrl, token,
      timeoutMs: this.settings.requestTimeoutSeconds * 1000,
      logger: this.logger,
      userAgent: IN_BROWSER ? null : undefined,
      unexplainedFailure: IN_BROWSER ? corsHint : undefined,
    });
  }

  /** The next request for anything the client holds asks the service again (a Refresh). */
  expireHeld(): void {
    void this.client?.then((c) => c.expire(), () => undefined);
  }

  /** Names the current service: `sample`, or the base URL as configured. */
  name(): string {
    return this.isBuiltIn() ? SAMPLE_SERVICE : this.settings.baseUrl;
  }

  /**
   * The client of the service `name` names: the current one, or one configured earlier in this
   * window, so that a document keeps showing the code of the service it came from.
   */
  clientFor(name: string): Promise<RefactorClient> {
    if (name === this.name()) return this.getClient();
    const kept = this.earlier.get(name);
    if (kept) return kept;
    return Promise.reject(new Error(name === SAMPLE_SERVICE
      ? vscode.l10n.t('this document came from the built-in sample catalog, which is not the service configured now')
      : vscode.l10n.t('this document came from {0}, which is not the service configured now', name)));
  }

  /** `refactorBrowser.baseUrl` as set; '' for the built-in sample catalog. */
  configuredUrl(): string {
    return this.settings.baseUrl;
  }

  /** True when the built-in sample catalog is what requests go to. */
  isBuiltIn(): boolean {
    return this.settings.baseUrl === '';
  }

  /** Whether codes have pages a browser can open: the built-in sample catalog has none. */
  hasWebPages(): boolean {
    return !this.isBuiltIn();
  }

  /** Takes new settings: a changed address or timeout means a new client on next use. */
  private apply(settings: Settings): void {
    const previous = this.settings;
    const previousName = this.name();
    this.settings = settings;
    if (previous.baseUrl === settings.baseUrl && previous.requestTimeoutSeconds === settings.requestTimeoutSeconds) return;
    const client = this.client;
    this.client = undefined;
    // Documents opened from the previous service still read from it.
    if (client && previous.baseUrl !== settings.baseUrl) this.keepEarlier(previousName, client);
    else close(client);
    close(this.earlier.get(this.name()));
    this.earlier.delete(this.name());
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
}

function close(client: Promise<RefactorClient> | undefined): void {
  void client?.then((c) => c.close()).catch(() => {});
}

/** The sample catalog the extension ships beside its bundles (dist/sample-catalog.json, copied by esbuild.config.mjs). */
export function sampleCatalogReader(extensionUri: vscode.Uri): () => Promise<Dataset> {
  const file = vscode.Uri.joinPath(extensionUri, 'dist', 'sample-catalog.json');
  return async () => parseDataset(JSON.parse(await readTextFile(file)), 'built-in sample catalog');
}
