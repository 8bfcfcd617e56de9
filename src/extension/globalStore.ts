// One queue for every write to the extension's global state. VS Code's Memento keeps the extension's
// whole state as one object: each update sends all of it to the main process, and the main process
// sends the stored object back, which replaces the extension host's copy. Two writers whose updates
// overlap (the offline lists and the stars) can so have one's key replaced by a copy from before it
// was set, and the next write then stores that loss for good. Writes that wait for each other never
// overlap. No VS Code import: unit-tested against a Memento that echoes as VS Code's does.

/** What the stores need of `context.globalState`. */
export interface GlobalMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
  setKeysForSync(keys: readonly string[]): void;
}

export class QueuedMemento implements GlobalMemento {
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly memento: GlobalMemento) {}

  get<T>(key: string): T | undefined {
    return this.memento.get<T>(key);
  }

  /** Resolves once this write is stored; it starts only after every earlier one has. */
  update(key: string, value: unknown): Promise<void> {
    const next = this.writing.then(() => this.memento.update(key, value));
    this.writing = next.then(undefined, () => undefined);
    return next;
  }

  setKeysForSync(keys: readonly string[]): void {
    this.memento.setKeysForSync(keys);
  }
}
