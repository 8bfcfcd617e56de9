// Every writer of the global state goes through one queue (src/extension/common/globalStore.ts): the offline
// lists and the stars both write there, and VS Code's Memento loses a key when writes overlap. The
// Memento here behaves as VS Code's ExtensionMemento does: an update sets the key in the host's copy,
// the whole copy is then sent to the main process (`send`), which stores it and sends it back
// (`deliver`); the copy that comes back replaces the host's, whatever was set in between. The tests
// step it by hand, or let it step itself (`auto`) where any timing must do.
import * as assert from 'node:assert/strict';
import { QueuedMemento, type GlobalMemento } from '../../../../src/extension/common/globalStore';
import { OfflineStore } from '../../../../src/extension/catalog/offlineStore';
import { StarList, type Star } from '../../../../src/extension/stars/starList';
import type { Code } from '../../../../src/core/model';
import { aCode } from '../../../helpers/builders';

class EchoingMemento implements GlobalMemento {
  private value: Record<string, unknown> = {};
  /** Updates not sent yet, and copies on their way with the updates they carry. */
  private unsent: Array<() => void> = [];
  private onTheirWay: Array<{ copy: Record<string, unknown>; done: Array<() => void> }> = [];
  /** The keys updated, in order. */
  readonly updated: string[] = [];

  constructor(private readonly auto = false) {}

  get<T>(key: string): T | undefined {
    return this.value[key] as T | undefined;
  }

  update(key: string, value: unknown): Promise<void> {
    this.updated.push(key);
    if (value === undefined) delete this.value[key];
    else this.value[key] = structuredClone(value);
    return new Promise((resolve) => {
      this.unsent.push(resolve);
      if (this.auto && this.unsent.length === 1) {
        setImmediate(() => {
          this.send();
          setImmediate(() => this.deliver());
        });
      }
    });
  }

  /** The host sends its whole copy, with the updates made since the last send. */
  send(): void {
    this.onTheirWay.push({ copy: structuredClone(this.value), done: this.unsent });
    this.unsent = [];
  }

  /** The oldest copy on its way comes back stored and replaces the host's; its updates resolve. */
  deliver(): void {
    const next = this.onTheirWay.shift();
    if (!next) return;
    this.value = structuredClone(next.copy);
    for (const d of next.done) d();
  }

  setKeysForSync(): void {}
}

/** Lets every promise chain waiting to run run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function code(id: number): Code {
  return aCode({ id, title: `c${id}`, permalink: '', code: 'x' });
}

function star(codeId: number): Star {
  return { kind: 'code', codeId, title: `c${codeId}`, language: 'Ruby', starredAt: codeId };
}

describe('the global state\'s one write queue', () => {
  it('is needed: a write made while another\'s copy is on its way is lost once a third is made', async () => {
    const state = new EchoingMemento();
    const a = state.update('a', 1);
    state.send();
    const b = state.update('b', 2); // set while a's copy is on its way
    state.send();
    state.deliver(); // a's copy comes back, without b
    await a;
    const c = state.update('c', 3); // so c's copy is sent without b too
    state.send();
    state.deliver();
    state.deliver();
    await Promise.all([b, c]);
    assert.deepEqual(['a', 'b', 'c'].map((k) => state.get(k)), [1, undefined, 3]);
  });

  it('starts each write only once the one before is stored, so none is on its way while another is made', async () => {
    const memento = new EchoingMemento();
    const state = new QueuedMemento(memento);
    const a = state.update('a', 1);
    const b = state.update('b', 2);
    const c = state.update('c', 3);
    await settle();
    assert.deepEqual(memento.updated, ['a'], 'b waits');
    memento.send();
    memento.deliver();
    await a;
    await settle();
    assert.deepEqual(memento.updated, ['a', 'b'], 'c waits');
    memento.send();
    memento.deliver();
    await settle();
    memento.send();
    memento.deliver();
    await Promise.all([b, c]);
    assert.deepEqual(['a', 'b', 'c'].map((k) => state.get(k)), [1, 2, 3]);
  });

  it('keeps every star and every offline list written at the same time', async () => {
    const state = new QueuedMemento(new EchoingMemento(true));
    const stars = new StarList(state);
    const offline = new OfflineStore(state);
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => stars.add('s', star(i + 1))),
      ...Array.from({ length: 20 }, (_, i) => offline.save(`page${i}`, { items: [code(i)], served: [i], filteredHere: false })),
    ]);
    assert.equal(stars.list('s').length, 20);
    assert.equal(Array.from({ length: 20 }, (_, i) => offline.load(`page${i}`)).filter((p) => p !== undefined).length, 20);
  });
});
