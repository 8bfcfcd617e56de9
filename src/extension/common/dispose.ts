// The one way a class of the extension owns and releases what it holds: it registers each resource
// with `_register` as it makes it, and `dispose` releases them all, newest first, once. No VS Code
// import: anything with a dispose method fits, so the vscode-free models can use it too.

/** Anything that releases what it holds (a vscode.Disposable among them). */
export interface IDisposable {
  dispose(): unknown;
}

/** Disposes each of `disposables`, newest first; one that throws does not keep the rest alive. */
export function disposeAll(disposables: IDisposable[]): void {
  const failures: unknown[] = [];
  while (disposables.length) {
    const d = disposables.pop() as IDisposable;
    try {
      d.dispose();
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length) throw failures[0];
}

export abstract class Disposable implements IDisposable {
  private readonly disposables: IDisposable[] = [];
  private disposed = false;

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    disposeAll(this.disposables);
  }

  /** Owns `value` until this is disposed; registered after that, it is disposed at once. */
  protected _register<T extends IDisposable>(value: T): T {
    if (this.disposed) value.dispose();
    else this.disposables.push(value);
    return value;
  }
}

/** A Disposable that runs `release` (for what is no object: a timer, a pool of clients). */
export function toDisposable(release: () => void): IDisposable {
  return { dispose: release };
}
