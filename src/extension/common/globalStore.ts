// One queue for every write to the extension's global state. VS Code's Memento keeps the extension's
// whole state as one object: each update sends all of it to the main process, and the main process
// sends the stored object back, which replaces the extension host's copy. Two writers whose updates
// overlap (the offline lists and the stars) can so have one's key replaced by a copy from before it
// was set, and the next write then stores that loss for good. Writes that wait for each other never
// overlap. A store whose change reads and writes more than one key (the offline index and its
// pages, the star list) runs it whole in the same queue. No VS Code import: unit-tested against a
// Memento that echoes as VS Code's does.

/** What the stores need of `context.globalState` (a Map-backed one in unit tests). */
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
    return this.run((memento) => memento.update(key, value));
  }

  /**
   * Runs `work` once every write asked for before it has ended, and starts no other until `work`
   * ends, so that a read-modify-write is whole. `work` writes through the memento it is handed: an
   * update through the queue would wait for `work` itself.
   */
  run<T>(work: (memento: GlobalMemento) => PromiseLike<T> | T): Promise<T> {
    const next = this.writing.then(() => work(this.memento));
    this.writing = next.then(() => undefined, () => undefined);
    return next;
  }

  /** Resolves once every write asked for so far has ended (stored or failed). */
  settled(): Promise<void> {
    return this.writing;
  }

  setKeysForSync(keys: readonly string[]): void {
    this.memento.setKeysForSync(keys);
  }
}

/** `memento` behind the one queue: itself when it is a queue already, as the extension's global state is. */
export function queued(memento: GlobalMemento): QueuedMemento {
  return memento instanceof QueuedMemento ? memento : new QueuedMemento(memento);
}
