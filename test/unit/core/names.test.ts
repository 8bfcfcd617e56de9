// How codes and refactorings are named wherever they are shown: one rule for a missing title and
// a missing author (the tree, the code view, Go to Code, the CLI and the service's pages use it).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { authorOf, ENGLISH, nameWords, ratingWords, titleOf, type Translator } from '../../../src/core/names';
import { ratingPhrase } from '../../../src/core/ratings';

/** Translates as the code view does: the shipped German bundle, `{0}`-style arguments filled in. */
function bundleTranslator(language: string): Translator {
  const bundle = JSON.parse(readFileSync(path.resolve(__dirname, `../../../../l10n/bundle.l10n.${language}.json`), 'utf8')) as Record<string, string>;
  return { t: (message: string, ...args: Array<string | number | boolean>) => ENGLISH.t(bundle[message] ?? `untranslated: ${message}`, ...args) };
}

describe('names', () => {
  it('shows the title, or says which code or refactoring it is when the title is empty', () => {
    assert.equal(titleOf({ id: 20, title: 'Clamp a value' }), 'Clamp a value');
    assert.equal(titleOf({ id: 20, title: '' }), 'Code #20');
    assert.equal(titleOf({ id: 81, codeId: 20, title: '' }), 'Refactoring #81');
    assert.equal(titleOf({ id: 81, codeId: 20, title: 'Use min/max' }), 'Use min/max');
  });

  it('names the author as posted first, then the registered user, then by id, else anonymous', () => {
    assert.equal(authorOf({ userId: 7, userName: 'ana', user: { name: 'Ana B.' } }), 'ana', 'the name the refactoring was posted under');
    assert.equal(authorOf({ userId: 7, userName: '', user: { name: 'Ana B.' } }), 'Ana B.');
    assert.equal(authorOf({ userId: 7, user: { name: 'Ana B.' } }), 'Ana B.', 'a code names its author only through its user');
    assert.equal(authorOf({ userId: 7 }), 'user #7', 'the single-code response nests no user');
    assert.equal(authorOf({ userId: null, userName: 'guest' }), 'guest', 'an anonymous author who left a name');
    assert.equal(authorOf({ userId: null, userName: '' }), 'anonymous');
    assert.equal(authorOf({ userId: null }), 'anonymous');
  });

  it('says the same words in the extension and the code view: one set, in the language it is given', () => {
    const de = bundleTranslator('de');
    const words = nameWords(de);
    assert.equal(titleOf({ id: 20, title: '' }, words), 'Code #20');
    assert.equal(titleOf({ kind: 'refactor', refactor: { id: 81, codeId: 20, title: '' } }, words), 'Refactoring #81', 'an item is named by what it holds');
    assert.equal(authorOf({ userId: 7 }, words), 'Benutzer #7');
    assert.equal(authorOf({ userId: null }, words), 'anonym');
    const rating = ratingWords(de);
    assert.equal(ratingPhrase({ rating: 4.5, ratingsCount: 1234 }, rating, 'de'), 'bewertet mit 4,5 (1.234 Stimmen)');
    assert.equal(ratingPhrase({ rating: 5, ratingsCount: 1 }, rating, 'de'), 'bewertet mit 5 (1 Stimme)');
    assert.equal(ratingPhrase({ rating: 0, ratingsCount: 0 }, rating, 'de'), 'nicht bewertet');
  });

  it('fills English messages in for the CLI and the service, leaving a placeholder without an argument as written', () => {
    assert.equal(ENGLISH.t('rated {0} ({1} votes)', '4.5', '12'), 'rated 4.5 (12 votes)');
    assert.equal(ENGLISH.t('{0} and {1}', 'a'), 'a and {1}');
    assert.equal(ratingPhrase({ rating: 5, ratingsCount: 1 }, ratingWords(ENGLISH)), 'rated 5 (1 vote)');
  });
});
