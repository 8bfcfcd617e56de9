// The list of stars as it lives in the global state: per service, synced, bounded, safe against what
// another machine or version wrote, and never losing a star to two changes made at once.
import * as assert from 'node:assert/strict';
import { MAX_STARS, STARS_KEY, StarLimitError, StarList, type Star } from '../../src/extension/stars/starList';
import type { GlobalMemento } from '../../src/extension/globalStore';

/** globalState's contract, in memory; values go through JSON as VS Code stores them; each update lands a moment later. */
class SyncedMemory implements GlobalMemento {
  readonly map = new Map<string, string>();
  synced: readonly string[] = [];
  get<T>(key: string): T | undefined {
    const raw = this.map.get(key);
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (value === undefined) this.map.delete(key);
    else this.map.set(key, JSON.stringify(value));
  }
  setKeysForSync(keys: readonly string[]): void {
    this.synced = keys;
  }
}

function codeStar(codeId: number, starredAt = codeId): Star {
  return { kind: 'code', codeId, title: `Code ${codeId}`, language: 'Ruby', starredAt };
}

function refactorStar(codeId: number, refactorId: number, starredAt = refactorId): Star {
  return { kind: 'refactor', codeId, refactorId, title: `Refactoring ${refactorId}`, language: 'Ruby', starredAt };
}

describe('the list of stars', () => {
  it('is kept under the key Settings Sync carries to a person\'s other machines', async () => {
    const memory = new SyncedMemory();
    const stars = new StarList(memory);
    assert.deepEqual(memory.synced, [STARS_KEY]);
    await stars.add('https://a.example/', codeStar(1));
    assert.ok(memory.map.get(STARS_KEY)?.includes('"codeId":1'), 'the star is in the synced key');
    // Another machine reads what this one wrote.
    assert.deepEqual(new StarList(memory).list('https://a.example/'), [codeStar(1)]);
  });

  it('keeps each service\'s stars apart, newest first', async () => {
    const stars = new StarList(new SyncedMemory());
    await stars.add('a', codeStar(1, 10));
    await stars.add('a', refactorStar(1, 7, 30));
    await stars.add('b', codeStar(2, 20));
    assert.deepEqual(stars.list('a'), [refactorStar(1, 7, 30), codeStar(1, 10)]);
    assert.deepEqual(stars.list('b'), [codeStar(2, 20)]);
    assert.deepEqual(stars.list('c'), []);
    assert.ok(stars.has('a', { kind: 'refactor', codeId: 1, refactorId: 7 }));
    assert.ok(!stars.has('a', { kind: 'refactor', codeId: 1, refactorId: 8 }));
    assert.ok(!stars.has('b', { kind: 'code', codeId: 1 }), 'a star of one service is not one of another');
  });

  it('stars a thing once, keeping when it was first starred', async () => {
    const stars = new StarList(new SyncedMemory());
    await stars.add('a', codeStar(1, 10));
    await stars.add('a', codeStar(1, 99));
    assert.deepEqual(stars.list('a'), [codeStar(1, 10)]);
  });

  it('says on removal whether anything of the same code is still starred (its kept copy is then kept)', async () => {
    const stars = new StarList(new SyncedMemory());
    await stars.add('a', codeStar(1));
    await stars.add('a', refactorStar(1, 5));
    assert.equal(await stars.remove('a', { kind: 'code', codeId: 1 }), true, 'its refactoring is still starred');
    assert.equal(await stars.remove('a', { kind: 'refactor', codeId: 1, refactorId: 5 }), false);
    assert.deepEqual(stars.list('a'), []);
  });

  it('loses no star when several are added and removed at once', async () => {
    const stars = new StarList(new SyncedMemory());
    await Promise.all(Array.from({ length: 20 }, (_, i) => stars.add('a', codeStar(i + 1))));
    assert.equal(stars.list('a').length, 20);
    await Promise.all([stars.remove('a', { kind: 'code', codeId: 3 }), stars.add('a', codeStar(21)), stars.remove('a', { kind: 'code', codeId: 4 })]);
    assert.deepEqual(stars.list('a').map((s) => s.codeId).sort((x, y) => x - y), [1, 2, ...Array.from({ length: 17 }, (_, i) => i + 5)]);
  });

  it(`refuses a star past ${MAX_STARS} a service, with a reason, and keeps the ones it has`, async () => {
    const memory = new SyncedMemory();
    memory.map.set(STARS_KEY, JSON.stringify({ v: 1, services: { a: Array.from({ length: MAX_STARS }, (_, i) => codeStar(i + 1)) } }));
    const stars = new StarList(memory);
    await assert.rejects(stars.add('a', codeStar(MAX_STARS + 1)), (err: unknown) => err instanceof StarLimitError && /at most 500/.test(err.message));
    assert.equal(stars.list('a').length, MAX_STARS);
    await stars.add('b', codeStar(1)); // another service has room
    assert.equal(stars.list('b').length, 1);
  });

  it('reads past what it cannot use in a list another machine or version wrote', () => {
    for (const saved of [undefined, null, 'x', 3, [], { services: null }, { services: 'x' }, { services: { a: 'x' } }]) {
      const memory = new SyncedMemory();
      if (saved !== undefined) memory.map.set(STARS_KEY, JSON.stringify(saved));
      assert.deepEqual(new StarList(memory).list('a'), [], JSON.stringify(saved));
    }
    const memory = new SyncedMemory();
    memory.map.set(STARS_KEY, JSON.stringify({ v: 1, services: { a: [
      codeStar(1), null, 'x', { kind: 'user', codeId: 2, title: '', language: '', starredAt: 1 },
      { kind: 'refactor', codeId: 3, title: '', language: '', starredAt: 1 }, // no refactorId
      { ...codeStar(4), codeId: -4 }, { ...codeStar(5), title: 5 }, { ...codeStar(6), starredAt: 'now' }, refactorStar(7, 70),
    ] } }));
    assert.deepEqual(new StarList(memory).list('a'), [refactorStar(7, 70), codeStar(1)]);
  });
});
