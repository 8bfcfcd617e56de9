// A minimal event emitter for the parts that import no VS Code (the Catalog model): its `event` has
// the shape of a vscode.Event as far as the extension uses one (subscribe, get a Disposable back).
import type { IDisposable } from './dispose';

export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => IDisposable;

export class Emitter<T> implements IDisposable {
  private listeners: Array<Listener<T>> = [];

  /** Subscribes `listener`; disposing what it returns unsubscribes it. */
  readonly event: Event<T> = (listener) => {
    this.listeners.push(listener);
    return { dispose: () => { this.listeners = this.listeners.filter((l) => l !== listener); } };
  };

  /** Calls every listener in the order they subscribed. */
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners = [];
  }
}
