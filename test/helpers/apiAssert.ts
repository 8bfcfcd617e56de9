// Assertions shared by the transport, client and decoder tests: a failure is judged by its kind and
// by the exact one-line message a user would read.

import * as assert from 'node:assert/strict';
import { ApiError, DecodeError, type ApiErrorKind } from '../../src/core/errors';

/** Asserts that `promise` rejects with an ApiError of `kind` whose whole message is `message`. */
export async function rejectsWith(promise: Promise<unknown>, kind: ApiErrorKind, message: string): Promise<ApiError> {
  const err = await promise.then(
    () => assert.fail(`expected an ApiError '${kind}', but the request succeeded`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiError, `expected an ApiError, got ${String(err)}`);
  assert.equal(err.message, message);
  assert.equal(err.kind, kind);
  assert.ok(!err.message.includes('\n'), 'messages are one line');
  return err;
}

/** The ApiError `promise` rejects with: what a service's refusal of a write became. */
export async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e;
  }
  assert.fail('expected the service to refuse');
}

/** Asserts that `fn` throws a DecodeError of `kind` whose message is (or matches) `message`, about `element` if given. */
export function throwsDecode(fn: () => unknown, kind: DecodeError['kind'], message: string | RegExp, element?: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof DecodeError, `expected a DecodeError, got ${String(e)}`);
    assert.equal(e.kind, kind, e.message);
    if (typeof message === 'string') assert.equal(e.message, message);
    else assert.match(e.message, message);
    if (element !== undefined) assert.equal(e.element, element);
    return true;
  });
}
