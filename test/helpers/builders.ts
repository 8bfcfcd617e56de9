// Test data builders for the model (src/core/model.ts): aUser, aRefactor and aCode each give a whole,
// consistent value with plain defaults, and take as overrides only what a test is about:
//   aCode({ id: 3, refactors: [aRefactor({ rating: 4 })] })
// A field added to the model is added here once, not in every test that builds one by hand
// (test/unit/testHelpers.test.ts refuses a whole Code, Refactor or User written out elsewhere; an
// expected value inside an assertion is the exception, spelling each field being its point). It
// imports no Node module, so the tests the browser's web worker extension host runs use it too.
import type { Code, Refactor, User } from '../../src/core/model';
import { permalinkOf } from '../../src/server/catalog/datasetFields';

/** A registered user with no rating and no refactorings counted. */
export function aUser(over: Partial<User> = {}): User {
  return { id: 1, name: 'Ana Lima', identityUrl: '', rating: null, refactorsCount: null, website: '', ...over };
}

/** Refactorings built without a codeId, which aCode gives its own id. */
const unparented = new WeakSet<Refactor>();

/**
 * A refactoring of code 1 in Ruby, unrated, by nobody registered. Given a `user`, its userId,
 * userName and userWebsite are the user's unless given too. Put in aCode's `refactors` without a
 * codeId of its own, it takes the code's id.
 */
export function aRefactor(over: Partial<Refactor> = {}): Refactor {
  const refactor: Refactor = {
    id: 1, codeId: 1, title: '', language: 'Ruby', code: 'y = 2\n', comment: '', createdAt: null, rating: null, ratingsCount: null,
    userId: over.user?.id ?? null, userName: over.user?.name ?? '', userWebsite: over.user?.website ?? '',
    ...over,
  };
  if (over.codeId === undefined) unparented.add(refactor);
  return refactor;
}

/**
 * Code 1, "A code" in Ruby, by nobody registered, with no dates. Its permalink is the one the
 * service makes of its title, its refactorsCount is how many `refactors` it is given (0 without), and given a `user` its
 * userId is the user's, each unless given too. It has `user` and `refactors` keys only when given
 * them, as a list item has no refactorings and the single-code answer may have no user.
 */
export function aCode(over: Partial<Code> = {}): Code {
  const id = over.id ?? 1;
  const title = over.title ?? 'A code';
  const code: Code = {
    id, title, language: 'Ruby', permalink: permalinkOf(title), code: 'x = 1\n', comment: '', createdAt: null, updatedAt: null,
    refactorsCount: over.refactors?.length ?? 0, trackbackUrl: '', userId: over.user?.id ?? null,
    ...over,
  };
  if (over.refactors !== undefined) code.refactors = over.refactors.map((r) => (unparented.has(r) ? { ...r, codeId: id } : r));
  return code;
}
