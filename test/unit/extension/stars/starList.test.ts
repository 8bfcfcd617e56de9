// The list of stars as it lives in the global state: per service, synced, bounded, safe against what
// another machine or version wrote, and never losing a star to two changes made at once.
import * as assert from 'node:assert/strict';
import type { Logger } from '../../../../src/client/logger';
import { MAX_STAR_TITLE_CHARS, MAX_STARS, STARS_KEY, StarLimitError, StarList, type Star } from '../../../../src/extension/stars/starList';
import type { GlobalMemento } from '../../../../src/extension/common/globalStore';

/**
 * globalState's contract, in memory; values go through JSON as VS Code stores them, and get gives the
 * same object until the value changes, as VS Code's does; each update lands a moment later.
 */
class SyncedMemory implements GlobalMemento {
  readonly map = new Map<string, string>();
  private readonly parsed = new Map<string, { text: string; value: unknown }>();
  synced: readonly string[] = [];
  get<T>(key: string): T | undefined {
    const raw = this.map.get(key);
    if (raw === undefined) return undefined;
    const held = this.parsed.get(key);
    if (held?.text === raw) return held.value as T;
    const value = JSON.parse(raw) as unknown;
    this.parsed.set(key, { text: raw, value });
    return value as T;
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

  /** A synced value held as the extension host holds it (no JSON), its stars read through a proxy that counts element reads. */
  function heldStars(stars: unknown[]): { memory: GlobalMemento & { value: unknown }; reads: () => number } {
    let reads = 0;
    const counted = new Proxy(stars, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const memory = {
      value: { v: 1, services: { a: counted } } as unknown,
      get<T>(key: string): T | undefined {
        return key === STARS_KEY ? (this.value as T) : undefined;
      },
      async update(key: string, value: unknown): Promise<void> {
        if (key === STARS_KEY) this.value = JSON.parse(JSON.stringify(value)) as unknown;
      },
      setKeysForSync(): void {},
    };
    return { memory, reads: () => reads };
  }

  function recordingLogger(): Logger & { lines: string[] } {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    return { lines, trace: log, info: log, warn: log, error: log };
  }

  it(`reads no more than the first ${MAX_STARS} of a service's synced stars, however many, and logs what it left`, () => {
    const { memory, reads } = heldStars(Array.from({ length: 1_000_000 }, (_, i) => codeStar(i + 1)));
    const logger = recordingLogger();
    const stars = new StarList(memory, logger);
    const listed = stars.list('a');
    assert.equal(listed.length, MAX_STARS);
    assert.deepEqual(listed.at(-1), codeStar(1), 'the first ones saved are the ones kept');
    assert.ok(reads() <= MAX_STARS, `${reads()} stars read`);
    assert.ok(!stars.has('a', { kind: 'code', codeId: MAX_STARS + 1 }));
    assert.equal(logger.lines.length, 1, logger.lines.join('\n'));
    assert.match(logger.lines[0], new RegExp(`${1_000_000 - MAX_STARS} stars past the first ${MAX_STARS}`));
  });

  it('keeps each target once, the first given, and cuts a long title', () => {
    const logger = recordingLogger();
    const long = { ...codeStar(3), title: 'x'.repeat(100_000) };
    const { memory } = heldStars([codeStar(1, 10), codeStar(1, 99), refactorStar(1, 5, 20), refactorStar(1, 5, 30), refactorStar(1, 6, 40), long]);
    const stars = new StarList(memory, logger);
    const listed = stars.list('a');
    assert.deepEqual(listed.map((s) => [s.kind, s.codeId, s.refactorId, s.starredAt]), [
      ['refactor', 1, 6, 40], ['refactor', 1, 5, 20], ['code', 1, undefined, 10], ['code', 3, undefined, 3],
    ]);
    assert.equal(listed[3].title, 'x'.repeat(MAX_STAR_TITLE_CHARS));
    assert.match(logger.lines.join('\n'), /2 stars given twice/);
  });

  it('checks the synced stars once per change, not on every question', async () => {
    const { memory, reads } = heldStars(Array.from({ length: MAX_STARS }, (_, i) => codeStar(i + 1)));
    const stars = new StarList(memory);
    assert.ok(stars.has('a', { kind: 'code', codeId: 7 }));
    const once = reads();
    assert.ok(once > 0 && once <= MAX_STARS, `${once}`);
    // A tree of 500 rows asks about each, and lists them: nothing is read again.
    for (let i = 1; i <= MAX_STARS; i++) {
      assert.ok(stars.has('a', { kind: 'code', codeId: i }));
      assert.ok(stars.hasCode('a', i));
      assert.ok(!stars.has('a', { kind: 'refactor', codeId: i, refactorId: 1 }));
    }
    assert.equal(stars.list('a').length, MAX_STARS);
    assert.equal(reads(), once, 'nothing re-read while the synced value is the same');
    // Settings Sync brings another value: it is read once, and answers from then on.
    memory.value = { v: 1, services: { a: [codeStar(9001)] } };
    assert.ok(stars.has('a', { kind: 'code', codeId: 9001 }));
    assert.ok(!stars.has('a', { kind: 'code', codeId: 7 }));
    // And a change made here is seen at once.
    await stars.remove('a', { kind: 'code', codeId: 9001 });
    assert.ok(!stars.has('a', { kind: 'code', codeId: 9001 }));
    assert.deepEqual(stars.list('a'), []);
  });
});
