// The words search indexes: the quick path for words with nothing to split gives the terms that
// splitting every word at its camelCase humps would, for any text (ASCII, accented, other scripts).
import { strict as assert } from 'node:assert';
import * as fc from 'fast-check';
import { indexTerm, STOP_WORDS, tokenize } from '../../../src/search/terms';

/** The definition: the word in lower case, then its camelCase parts, each kept unless a stop word, one letter or a small number. */
function byDefinition(term: string): string[] | null {
  const keep = (w: string): boolean => w.length >= 2 && !STOP_WORDS.has(w) && !/^\d{1,2}$/.test(w);
  const lower = term.toLowerCase();
  if (!keep(lower)) return null;
  const parts = term.split(/(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u).map((p) => p.toLowerCase());
  return [lower, ...new Set(parts.filter((p) => p !== lower && keep(p)))];
}

const asList = (t: string | string[] | null): string[] | null => (t === null ? null : Array.isArray(t) ? t : [t]);

describe('search terms', () => {
  it('indexes a word in lower case with its camelCase parts, leaving out stop words (`by`), one letter and small numbers', () => {
    assert.deepEqual(asList(indexTerm('getElementById')), ['getelementbyid', 'get', 'element', 'id']);
    assert.deepEqual(asList(indexTerm('HTTPServer')), ['httpserver', 'http', 'server']);
    assert.deepEqual(asList(indexTerm('parse')), ['parse']);
    assert.deepEqual(asList(indexTerm('JSON')), ['json']);
    assert.deepEqual(asList(indexTerm('Äpfel')), ['äpfel']);
    for (const out of ['the', 'Return', 'x', '42']) assert.equal(indexTerm(out), null, out);
    assert.deepEqual(asList(indexTerm('123')), ['123']);
  });

  it('gives the same terms as splitting every word, for any text', function () {
    this.timeout(20_000); // 1,000 texts: well under a second alone, more on a busy machine
    const letters = fc.constantFrom('a', 'b', 'Z', 'Q', 'é', 'É', 'ß', 'ĸ', 'ϒ', 'Ǆ', 'ǅ', 'ǆ', 'İ', 'ı', '1', '7', 'я', 'Я', '中', '_', ' ', '#', '+');
    fc.assert(fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: letters, maxLength: 12 })), (text) => {
      for (const word of tokenize(text)) assert.deepEqual(asList(indexTerm(word)), byDefinition(word), JSON.stringify(word));
    }), { numRuns: 1000 });
  });
});
