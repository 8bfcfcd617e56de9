// The order of a code's refactorings and how a rating is said (src/core/ratings.ts): the one rule the
// code view, the Catalog and Compare All Refactorings share. Ties, missing ratings, votes and dates,
// and properties that the order is total and deterministic whatever the refactorings hold.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { inspect } from 'node:util';
import fc from 'fast-check';
import {
  bestRatedIds, compareRefactorings, DEFAULT_REFACTORING_ORDER, isRated, isRefactoringOrder, ratingPhrase, REFACTORING_ORDERS, sortRefactorings,
  type Rated, type RefactoringOrder,
} from '../../../src/core/ratings';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';

/** A refactoring with only what the order reads. */
function r(id: number, rating: number | null, ratingsCount: number | null, createdAt: string | null): Rated {
  return { id, rating, ratingsCount, createdAt: createdAt === null ? null : new Date(createdAt) };
}

const ids = (items: readonly Rated[], order: RefactoringOrder): number[] => sortRefactorings(items, order).map((x) => x.id);

describe('the order of refactorings', () => {
  it('names its orders as the setting refactorBrowser.refactoringOrder does, best rated first and by default', () => {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { enum?: unknown[]; default?: unknown }> } };
    };
    const setting = pkg.contributes.configuration.properties['refactorBrowser.refactoringOrder'];
    assert.deepEqual([...REFACTORING_ORDERS], ['bestRated', 'newest', 'oldest']);
    assert.deepEqual(setting.enum, [...REFACTORING_ORDERS]);
    assert.equal(setting.default, DEFAULT_REFACTORING_ORDER);
    assert.equal(DEFAULT_REFACTORING_ORDER, 'bestRated');
    for (const o of REFACTORING_ORDERS) assert.ok(isRefactoringOrder(o));
    for (const v of ['', 'best', 'Newest', 'rating', null, 1, undefined, {}]) assert.equal(isRefactoringOrder(v), false, inspect(v));
  });

  it('counts a refactoring as rated when it has a rating from at least one vote, or an unknown number of votes', () => {
    assert.equal(isRated({ rating: 4.5, ratingsCount: 12 }), true);
    assert.equal(isRated({ rating: 0, ratingsCount: 3 }), true, 'a low rating is a rating');
    assert.equal(isRated({ rating: 4, ratingsCount: null }), true, 'votes unknown');
    assert.equal(isRated({ rating: 0, ratingsCount: 0 }), false, 'how the service writes "not rated"');
    assert.equal(isRated({ rating: 5, ratingsCount: 0 }), false, 'no votes, whatever the number says');
    assert.equal(isRated({ rating: null, ratingsCount: 7 }), false);
    assert.equal(isRated({ rating: NaN, ratingsCount: 7 }), false);
  });

  it('best rated: by rating, equal ratings by votes, then the newest, then the higher id; unrated ones last, newest first', () => {
    const items = [
      r(1, 4, 10, '2008-01-01T00:00:00Z'),
      r(2, 5, 3, '2008-01-02T00:00:00Z'),
      r(3, 0, 0, '2008-01-09T00:00:00Z'), // unrated, the newest of all
      r(4, 5, 30, '2008-01-03T00:00:00Z'),
      r(5, 4, 10, '2008-01-05T00:00:00Z'), // ties 1 on rating and votes, newer
      r(6, null, null, '2008-01-04T00:00:00Z'), // unrated
      r(7, 4.5, 1, null), // no date
      r(8, 4, 10, '2008-01-05T00:00:00Z'), // ties 5 on everything but the id
      r(9, 1, 2, '2008-01-06T00:00:00Z'),
    ];
    assert.deepEqual(ids(items, 'bestRated'), [4, 2, 7, 8, 5, 1, 9, 3, 6]);
  });

  it('best rated: unrated ones newest first, whatever number their rating holds without votes', () => {
    // The service may send a leftover rating with 0 votes: it is no rating, so it must not order them.
    const items = [r(1, 5, 0, '2008-01-01T00:00:00Z'), r(2, 0, 0, '2008-01-03T00:00:00Z'), r(3, 3, 0, '2008-01-02T00:00:00Z'), r(4, 2, 1, '2007-01-01T00:00:00Z')];
    assert.deepEqual(ids(items, 'bestRated'), [4, 2, 3, 1]);
  });

  it('best rated: votes unknown count as fewer than any known, and a refactoring without a date follows the dated ties', () => {
    const items = [r(1, 5, null, '2008-01-01T00:00:00Z'), r(2, 5, 1, '2007-01-01T00:00:00Z'), r(3, 3, 2, null), r(4, 3, 2, '2000-01-01T00:00:00Z')];
    assert.deepEqual(ids(items, 'bestRated'), [2, 1, 4, 3]);
  });

  it('newest and oldest: by date either way, a refactoring without a date last in both, equal dates by id', () => {
    const items = [
      r(1, 5, 5, '2008-01-02T00:00:00Z'),
      r(2, null, null, null),
      r(3, 1, 1, '2008-01-01T00:00:00Z'),
      r(4, 0, 0, '2008-01-03T00:00:00Z'),
      r(5, 2, 2, '2008-01-02T00:00:00Z'),
      r(6, 3, 3, null),
    ];
    assert.deepEqual(ids(items, 'newest'), [4, 5, 1, 3, 6, 2]);
    assert.deepEqual(ids(items, 'oldest'), [3, 1, 5, 4, 2, 6]);
  });

  it('reads the code view\'s ISO dates as the model\'s Dates, and an unreadable date as none', () => {
    const model = [r(1, 4, 2, '2008-01-01T00:00:00Z'), r(2, 4, 2, '2008-01-02T00:00:00Z'), r(3, 4, 2, null)];
    const view = model.map((x) => ({ ...x, createdAt: x.createdAt === null ? null : (x.createdAt as Date).toISOString() }));
    for (const order of REFACTORING_ORDERS) assert.deepEqual(ids(view, order), ids(model, order), order);
    const unreadable = [{ ...model[0], createdAt: 'yesterday' }, model[1]];
    assert.deepEqual(ids(unreadable, 'oldest'), [2, 1]);
    assert.deepEqual(ids([{ ...model[0], createdAt: new Date(NaN) }, model[1]], 'oldest'), [2, 1]);
  });

  it('orders sample code 1 as its code view shows it', () => {
    const code = loadSampleDataset().codes.get(1)!;
    const refactors = code.refactors.map((x) => ({ ...x, createdAt: x.createdAt.date }));
    // The service's order (oldest first), ratings/votes: 1 5/5, 4 4/8, 5 2/10, 10 4/5, 15 4/2, 22 0/0, 24 3/38, 28 5/4, 34 5/31.
    assert.deepEqual(refactors.map((x) => x.id), [1, 4, 5, 10, 15, 22, 24, 28, 34]);
    assert.deepEqual(ids(refactors, 'bestRated'), [34, 1, 28, 4, 10, 15, 24, 5, 22]);
    assert.deepEqual(ids(refactors, 'newest'), [34, 28, 24, 22, 15, 10, 5, 4, 1]);
    assert.deepEqual(ids(refactors, 'oldest'), [1, 4, 5, 10, 15, 22, 24, 28, 34]);
    assert.deepEqual([...bestRatedIds(refactors)], [34]);
  });

  it('sorts a copy, leaving what it was given as it was', () => {
    const items = [r(1, 1, 1, null), r(2, 5, 5, null)];
    const sorted = sortRefactorings(items, 'bestRated');
    assert.deepEqual(items.map((x) => x.id), [1, 2]);
    assert.deepEqual(sorted.map((x) => x.id), [2, 1]);
  });

  describe('properties', () => {
    const date = fc.option(fc.oneof(
      fc.date({ min: new Date('2000-01-01'), max: new Date('2000-01-03'), noInvalidDate: true }),
      fc.constant(new Date(NaN)),
    ));
    // Few distinct values, so that ties on rating, votes and date are common.
    const rated: fc.Arbitrary<Rated> = fc.record({
      id: fc.nat({ max: 1000 }),
      rating: fc.option(fc.oneof(fc.constantFrom(0, 1, 2.5, 4, 4.5, 5), fc.double())),
      ratingsCount: fc.option(fc.constantFrom(0, 1, 2, 10)),
      createdAt: date,
    });
    const distinct = fc.uniqueArray(rated, { selector: (x) => x.id, maxLength: 12 });
    const order = fc.constantFrom(...REFACTORING_ORDERS);

    it('is a total order: antisymmetric, transitive, and equal only for the same id', () => {
      fc.assert(fc.property(rated, rated, rated, order, (a, b, c, o) => {
        const cmp = compareRefactorings(o);
        assert.equal(Math.sign(cmp(a, b)) + Math.sign(cmp(b, a)), 0);
        if (cmp(a, b) <= 0 && cmp(b, c) <= 0) assert.ok(cmp(a, c) <= 0);
        if (a.id !== b.id) assert.notEqual(cmp(a, b), 0);
        assert.ok(!Number.isNaN(cmp(a, b)));
      }), { numRuns: 2000 });
    });

    it('is deterministic: any arrangement of the same refactorings sorts to the same list', () => {
      fc.assert(fc.property(distinct.chain((items) => fc.tuple(fc.constant(items), fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length }))), order,
        ([items, shuffled], o) => {
          assert.deepEqual(ids(shuffled, o), ids(items, o));
        }), { numRuns: 500 });
    });

    it('puts every rated refactoring before every unrated one, and the best-rated ones first', () => {
      fc.assert(fc.property(distinct, (items) => {
        const sorted = sortRefactorings(items, 'bestRated');
        const firstUnrated = sorted.findIndex((x) => !isRated(x));
        if (firstUnrated >= 0) assert.ok(sorted.slice(firstUnrated).every((x) => !isRated(x)));
        const best = bestRatedIds(items);
        assert.deepEqual(sorted.slice(0, best.size).map((x) => x.id).sort(), [...best].sort());
        assert.equal(best.size === 0, items.length < 2 || !items.some(isRated));
      }), { numRuns: 500 });
    });
  });
});

describe('the best-rated mark', () => {
  it('marks the highest rating with the most votes, every one tied with it on both, and nothing when nothing is rated', () => {
    assert.deepEqual([...bestRatedIds([r(1, 5, 3, null), r(2, 5, 9, null), r(3, 4, 50, null)])], [2]);
    assert.deepEqual([...bestRatedIds([r(1, 5, 9, '2008-01-01T00:00:00Z'), r(2, 5, 9, '2009-01-01T00:00:00Z'), r(3, 4, 50, null)])].sort(), [1, 2]);
    assert.deepEqual([...bestRatedIds([r(1, 0, 0, null), r(2, null, null, null)])], []);
    assert.deepEqual([...bestRatedIds([r(1, 1, 1, null), r(2, 0, 0, null)])], [1], 'a low rating is still the best there is');
  });

  it('marks nothing among one refactoring', () => {
    assert.deepEqual([...bestRatedIds([r(1, 5, 10, null)])], []);
    assert.deepEqual([...bestRatedIds([])], []);
  });
});

describe('ratingPhrase', () => {
  it('says the rating with its votes, at most one decimal, and "not rated" where there is none', () => {
    assert.equal(ratingPhrase({ rating: 4.5, ratingsCount: 12 }), 'rated 4.5 (12 votes)');
    assert.equal(ratingPhrase({ rating: 5, ratingsCount: 1 }), 'rated 5 (1 vote)');
    assert.equal(ratingPhrase({ rating: 4.333333, ratingsCount: 3 }), 'rated 4.3 (3 votes)');
    assert.equal(ratingPhrase({ rating: 3, ratingsCount: null }), 'rated 3');
    assert.equal(ratingPhrase({ rating: 0, ratingsCount: 0 }), 'not rated');
    assert.equal(ratingPhrase({ rating: null, ratingsCount: null }), 'not rated');
  });

  it('writes the numbers as the locale does, in the words it is given', () => {
    const words = { notRated: 'nicht bewertet', rated: (x: string) => `bewertet mit ${x}`,
      ratedOneVote: (x: string) => `${x} (1)`, ratedVotes: (x: string, n: string) => `bewertet mit ${x} (${n} Stimmen)` };
    assert.equal(ratingPhrase({ rating: 4.5, ratingsCount: 1234 }, words, 'de'), 'bewertet mit 4,5 (1.234 Stimmen)');
    assert.equal(ratingPhrase({ rating: 0, ratingsCount: 0 }, words, 'de'), 'nicht bewertet');
  });
});
