// Base URLs, references and list parameters at their edges (urls.test.ts covers the common cases):
// a base pasted with non-breaking spaces around it, the wording of the errors a caller of the typed
// client reads for a bad scheme, an empty tag or reference, a bad code id or page, and a pasted code
// URL whose percent-escapes do not decode.
import { strict as assert } from 'node:assert';
import { codeUrl, normalizeBaseUrl, parseCodeRef, recentCodesUrl, tagCodesUrl } from '../../../src/client/urls';

const BASE = 'https://catalog.example/';

describe('urls at their edges', () => {
  it('takes a base URL pasted with non-breaking spaces around it', () => {
    assert.equal(normalizeBaseUrl('\u00a0https://catalog.example/api\u00a0').href, 'https://catalog.example/api/');
  });

  it('names the scheme it refuses without its colon', () => {
    assert.throws(() => normalizeBaseUrl('ftp://catalog.example/'),
      { name: 'ApiError', kind: 'invalid-url', message: 'ftp://catalog.example/: ftp URLs are not supported, only http and https' });
  });

  it('says what is wrong with an empty tag, an empty reference, a bad code id and a bad page', () => {
    assert.throws(() => tagCodesUrl(BASE, ' \t'), { name: 'RangeError', message: 'a tag must not be empty' });
    assert.throws(() => codeUrl(BASE, '  '), { name: 'RangeError', message: 'a code reference must not be empty' });
    assert.throws(() => codeUrl(BASE, -1), { name: 'RangeError', message: 'a code id must be a non-negative integer, got -1' });
    assert.throws(() => codeUrl(BASE, 1.5), { name: 'RangeError', message: 'a code id must be a non-negative integer, got 1.5' });
    assert.throws(() => recentCodesUrl(BASE, { page: 0 }), { name: 'RangeError', message: 'a page must be a positive integer, got 0' });
  });

  it('finds no reference in a pasted code URL whose percent-escapes do not decode', () => {
    assert.equal(parseCodeRef('https://catalog.example/codes/42-caf%C3%A9'), '42-café');
    assert.equal(parseCodeRef('https://catalog.example/codes/42-caf%C3'), undefined);
    assert.equal(parseCodeRef('https://catalog.example/codes'), undefined);
    assert.equal(parseCodeRef('https://catalog.example/'), undefined);
  });
});
