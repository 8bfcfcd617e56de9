// Runtime checks that a decoded value has exactly the model's shape (src/core/model.ts): every field
// present with its type, no other own key, plain prototypes, valid dates. Used by the fuzz test on
// whatever the decoder returns for mutated XML.

import { strict as assert } from 'node:assert';
import type { Code, Refactor, User } from '../../src/core/model';

type Kind = 'string' | 'int' | 'number?' | 'date?';

const USER: Record<keyof User, Kind> = {
  id: 'int', name: 'string', identityUrl: 'string', rating: 'number?', refactorsCount: 'number?', website: 'string',
};
const CODE: Record<Exclude<keyof Code, 'user' | 'refactors' | 'tags'>, Kind> = {
  id: 'int', title: 'string', language: 'string', permalink: 'string', code: 'string', comment: 'string',
  createdAt: 'date?', updatedAt: 'date?', refactorsCount: 'number?', trackbackUrl: 'string', userId: 'number?',
};
const REFACTOR: Record<Exclude<keyof Refactor, 'user'>, Kind> = {
  id: 'int', codeId: 'int', title: 'string', language: 'string', code: 'string', comment: 'string', createdAt: 'date?',
  rating: 'number?', ratingsCount: 'number?', userId: 'number?', userName: 'string', userWebsite: 'string',
};

function checkFields(value: unknown, fields: Record<string, Kind>, optional: readonly string[], where: string): Record<string, unknown> {
  assert.ok(typeof value === 'object' && value !== null && !Array.isArray(value), `${where} is an object`);
  assert.equal(Object.getPrototypeOf(value), Object.prototype, `${where} has a plain prototype`);
  const obj = value as Record<string, unknown>;
  for (const key of Object.keys(obj)) assert.ok(key in fields || optional.includes(key), `${where} has no unexpected key ${key}`);
  for (const [key, kind] of Object.entries(fields)) {
    assert.ok(Object.hasOwn(obj, key), `${where}.${key} is present`);
    const v = obj[key];
    const ok =
      kind === 'string' ? typeof v === 'string'
      : kind === 'int' ? Number.isSafeInteger(v)
      : kind === 'number?' ? v === null || (typeof v === 'number' && Number.isFinite(v))
      : v === null || (v instanceof Date && !Number.isNaN(v.getTime()));
    assert.ok(ok, `${where}.${key} is ${kind}, got ${String(v)}`);
  }
  return obj;
}

export function checkUser(value: unknown, where: string): void {
  checkFields(value, USER, [], where);
}

export function checkRefactor(value: unknown, where: string): void {
  const r = checkFields(value, REFACTOR, ['user'], where);
  if (r.user !== undefined) checkUser(r.user, `${where}.user`);
}

/**
 * `single`: the one-code response, which always carries `refactors`. The spec's single code has no
 * `user`, but the decoder keeps one a service sends anyway (the model's `user` is optional everywhere).
 */
export function checkCode(value: unknown, where: string, single: boolean): void {
  const c = checkFields(value, CODE, single ? ['refactors', 'user', 'tags'] : ['user', 'tags'], where);
  if (c.user !== undefined) checkUser(c.user, `${where}.user`);
  if (c.tags !== undefined) {
    assert.ok(Array.isArray(c.tags) && c.tags.every((t) => typeof t === 'string'), `${where}.tags is an array of strings`);
  }
  if (single) {
    assert.ok(Array.isArray(c.refactors), `${where}.refactors is an array`);
    (c.refactors as unknown[]).forEach((r, i) => checkRefactor(r, `${where}.refactors[${i}]`));
  }
}

export function checkList(value: unknown, item: (v: unknown, where: string) => void, where: string): void {
  assert.ok(Array.isArray(value), `${where} is an array`);
  value.forEach((v, i) => item(v, `${where}[${i}]`));
}
