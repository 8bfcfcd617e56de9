// The one way the extension's classes release what they hold.
import * as assert from 'node:assert/strict';
import { Disposable, disposeAll, toDisposable } from '../../../../src/extension/common/dispose';

class Owner extends Disposable {
  register<T extends { dispose(): unknown }>(d: T): T {
    return this._register(d);
  }
}

describe('Disposable', () => {
  it('releases what it registered, newest first, once', () => {
    const released: string[] = [];
    const owner = new Owner();
    owner.register(toDisposable(() => released.push('a')));
    owner.register(toDisposable(() => released.push('b')));
    owner.dispose();
    owner.dispose();
    assert.deepEqual(released, ['b', 'a']);
  });

  it('releases at once what is registered after it is disposed', () => {
    const released: string[] = [];
    const owner = new Owner();
    owner.dispose();
    owner.register(toDisposable(() => released.push('late')));
    assert.deepEqual(released, ['late']);
  });

  it('releases the rest when one throws, then throws the first failure', () => {
    const released: string[] = [];
    const list = [
      toDisposable(() => released.push('first')),
      toDisposable(() => { throw new Error('broken'); }),
      toDisposable(() => released.push('last')),
    ];
    assert.throws(() => disposeAll(list), /broken/);
    assert.deepEqual(released, ['last', 'first']);
    assert.equal(list.length, 0);
  });
});
