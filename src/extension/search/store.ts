// Where search keeps what it knows, per service, under the extension's global storage (never in the
// settings or the global state, which are small and synced): one file with the whole index, written
// when Index the Catalog ends, and a small file of recent fetches (what lists, tags and code views fetched
// since), written a moment after each. The big file is read only when a search or an indexing run
// first needs it; a fetch before then costs a few entries in memory and the small file. Both go
// through vscode.workspace.fs, so they work in the browser's extension host too.
import * as vscode from 'vscode';
import type { Logger } from '../../client/logger';
import { Entries, entryOf, rowOf } from '../../search/entries';
import { CodeSearch, savedIndexName, SearchIndexError } from '../../search/searchIndex';
import { Disposable, toDisposable } from '../common/dispose';
import { readBytesFile, readTextFile, writeAtomically } from '../common/files';
import type { FetchedItems } from '../common/fetched';


/** How long after a fetch its file is written (more fetches in between are written with it). */
const RECENT_SAVE_DELAY_MS = 1500;
/** Past this many codes in the file of recent fetches, they are folded into the index file and it starts over. */
const MAX_RECENT_CODES = 2000;
/** Stores of services other than the current one kept loaded (a switch back costs a read). */
const MAX_LOADED_SERVICES = 2;
/** The file of recent fetches' format; one in another form is ignored. */
const RECENT_FILE_FORMAT = 1;

export interface SearchStoreOptions {
  /** Milliseconds after a fetch before its file is written (tests make it short). */
  saveDelayMs?: number;
}

/** The index of one service, read from its files when first needed. */
export class ServiceIndex extends Disposable {
  private loading: Promise<CodeSearch> | undefined;
  private loaded: CodeSearch | undefined;
  /** Recent fetches not yet in the index file, as entries (they go into the index once it is loaded). */
  private recent = new Entries();
  private recentRead: Promise<void> | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private saving: Promise<void> = Promise.resolve();
  /** Index the Catalog's run while one runs, so that a second run is refused (and the store keeps this index loaded). */
  private running: Promise<unknown> | undefined;

  constructor(
    readonly service: string,
    private readonly folder: vscode.Uri,
    private readonly logger: Logger,
    private readonly saveDelayMs: number,
  ) {
    super();
    // VS Code gives dispose no time to wait: the write starts, and finishes if the host lives on.
    this._register(toDisposable(() => void this.flush()));
  }

  /** True while Index the Catalog runs on this index. */
  get indexing(): boolean {
    return this.running !== undefined;
  }

  /** Runs Index the Catalog's `run`, marked as running until it ends. */
  async whileIndexing<T>(run: Promise<T>): Promise<T> {
    this.running = run;
    try {
      return await run;
    } finally {
      this.running = undefined;
    }
  }

  /** The index file. */
  get file(): vscode.Uri {
    return vscode.Uri.joinPath(this.folder, `${savedIndexName(this.service)}.json`);
  }

  private get recentFile(): vscode.Uri {
    return vscode.Uri.joinPath(this.folder, `${savedIndexName(this.service)}.recent.json`);
  }

  /** The index, read from its files the first time; an unreadable file leaves an empty index, logged. */
  index(): Promise<CodeSearch> {
    this.loading ??= this.load();
    return this.loading;
  }

  /** The index if it is in memory already. */
  ifLoaded(): CodeSearch | undefined {
    return this.loaded;
  }

  /** Takes in what an answer showed; written to the file of recent fetches shortly. */
  addFetched(seen: FetchedItems): void {
    void this.readRecent().then(() => {
      const changed = this.takeInto(this.recent, seen);
      if (this.loaded) this.take(this.loaded, seen);
      if (changed) this.scheduleSave();
    });
  }

  /** Writes the whole index and starts the recent fetches over (after Index the Catalog). */
  async saveIndex(): Promise<void> {
    const index = await this.index();
    const saved = this.saving.then(async () => {
      // What is seen from here on is not in the text written, so it starts the recent fetches anew.
      const text = index.toJSON();
      const written = this.recent;
      this.recent = new Entries();
      try {
        await writeAtomically(this.file, text);
      } catch (e) {
        for (const entry of written.values()) this.recent.merge(entry);
        throw e;
      }
      if (this.recent.size === 0 && this.saveTimer === undefined) {
        await vscode.workspace.fs.delete(this.recentFile).then(undefined, () => undefined);
      } else {
        await this.saveRecent();
      }
    });
    this.saving = saved.catch(() => undefined);
    return saved;
  }

  /** Writes what is pending now (recent fetches), and waits for writes under way. */
  async flush(): Promise<void> {
    if (this.saveTimer !== undefined) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      this.saving = this.saving.then(() => this.saveRecent());
    }
    await this.saving;
  }

  /** Forgets the files and what is in memory (tests; a person never needs it). */
  async clear(): Promise<void> {
    await this.flush();
    this.loading = undefined;
    this.loaded = undefined;
    this.recent = new Entries();
    this.recentRead = Promise.resolve();
    for (const uri of [this.file, this.recentFile]) await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
  }

  private takeInto(entries: Entries, seen: FetchedItems): boolean {
    const a = seen.codes?.length ? entries.addCodes(seen.codes, seen.tag).changed.length : 0;
    const b = seen.refactors?.length ? entries.addRefactors(seen.refactors).changed.length : 0;
    return a + b > 0;
  }

  private take(index: CodeSearch, seen: FetchedItems): void {
    if (seen.codes?.length) index.addCodes(seen.codes, seen.tag);
    if (seen.refactors?.length) index.addRefactors(seen.refactors);
  }

  private scheduleSave(): void {
    if (this.recent.size > MAX_RECENT_CODES) {
      // Folded into the index file, which then holds them; the next fetches start a small file again.
      void this.index().then(() => this.saveIndex()).catch((e) => this.logger.warn(`search: could not save the index of ${this.service}: ${(e as Error).message}`));
      return;
    }
    if (this.saveTimer !== undefined) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.saving = this.saving.then(() => this.saveRecent());
    }, this.saveDelayMs);
  }

  private async saveRecent(): Promise<void> {
    const rows = [...this.recent.values()].map(rowOf);
    try {
      await writeAtomically(this.recentFile, JSON.stringify({ format: RECENT_FILE_FORMAT, entries: rows }));
    } catch (e) {
      this.logger.warn(`search: could not save what was seen of ${this.service}: ${(e as Error).message}`);
    }
  }

  /** Reads the file of recent fetches once, before anything is added (so that nothing written before is lost). */
  private readRecent(): Promise<void> {
    this.recentRead ??= (async () => {
      const text = await readText(this.recentFile);
      if (text === undefined) return;
      try {
        const saved = JSON.parse(text) as { format?: unknown; entries?: unknown };
        if (saved?.format !== RECENT_FILE_FORMAT || !Array.isArray(saved.entries)) throw new Error('not in a form this version reads');
        // Each row checked as it is read: another version, or anything with access to the folder, may have written it.
        for (const row of saved.entries) {
          const entry = entryOf(row);
          if (entry) this.recent.merge(entry);
        }
      } catch (e) {
        this.logger.warn(`search: ignored the file of what was seen of ${this.service}: ${(e as Error).message}`);
      }
    })();
    return this.recentRead;
  }

  private async load(): Promise<CodeSearch> {
    let index = CodeSearch.empty();
    // As bytes: only the head is decoded, the rest kept as it lies until a search needs it (searchIndex.ts).
    const bytes = await readBytesFile(this.file).catch(() => undefined);
    if (bytes !== undefined) {
      try {
        const read = CodeSearch.fromJSON(bytes);
        index = read.index;
        if (read.rebuilt) this.logger.warn(`search: the saved index of ${this.service} did not match its entries and was built again`);
      } catch (e) {
        if (!(e instanceof SearchIndexError)) throw e;
        this.logger.warn(`search: ${e.message}; starting the index of ${this.service} over`);
      }
    }
    await this.readRecent();
    index.addEntries([...this.recent.values()].map(rowOf));
    this.loaded = index;
    return index;
  }
}

/** The search indexes of every service used in this window, each read when first needed. */
export class SearchStore extends Disposable {
  private readonly byService = new Map<string, ServiceIndex>();
  private readonly saveDelayMs: number;

  constructor(
    private readonly storage: vscode.Uri,
    private readonly logger: Logger,
    options: SearchStoreOptions = {},
  ) {
    super();
    this._register(toDisposable(() => {
      for (const s of this.byService.values()) s.dispose();
    }));
    this.saveDelayMs = options.saveDelayMs ?? RECENT_SAVE_DELAY_MS;
  }

  /** The index of `service` (a name: `sample` or the base URL). */
  of(service: string): ServiceIndex {
    let kept = this.byService.get(service);
    if (kept) {
      // Most recently used last, so the oldest goes first when the map is trimmed.
      this.byService.delete(service);
      this.byService.set(service, kept);
      return kept;
    }
    kept = new ServiceIndex(service, vscode.Uri.joinPath(this.storage, 'search'), this.logger, this.saveDelayMs);
    this.byService.set(service, kept);
    for (const [name, other] of this.byService) {
      if (this.byService.size <= MAX_LOADED_SERVICES + 1) break;
      if (other.indexing) continue;
      other.dispose();
      this.byService.delete(name);
    }
    return kept;
  }

  /** Takes in what an answer of `service` showed. */
  addFetched(service: string, seen: FetchedItems): void {
    this.of(service).addFetched(seen);
  }

  /** Drops the in-memory index of `service`; the next use reads its files again. */
  forget(service: string): void {
    this.byService.get(service)?.dispose();
    this.byService.delete(service);
  }

  /** Writes everything pending (tests; VS Code gives dispose no time to wait). */
  async flush(): Promise<void> {
    await Promise.all([...this.byService.values()].map((s) => s.flush()));
  }
}

/** The text of `uri`, or undefined when it cannot be read (not written yet, or gone). */
async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return await readTextFile(uri);
  } catch {
    return undefined;
  }
}
