// Draft paths: the service's place and the code's id come back from every path made; the name (a
// stranger's title) stays one segment and never decides which draft a path names.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { draftPath, parseDraftPath, placeOf } from '../../../../src/extension/drafts/draftPaths';

describe('draftPaths', () => {
  it('names a draft by its service\'s host and base path, its code and its title in the code\'s file extension', () => {
    assert.equal(draftPath('http://127.0.0.1:8080/', 42, 'Sum prices', 'Ruby'), '/127.0.0.1:8080/42/Sum prices.rb');
    assert.equal(draftPath('https://example.com/api/', 7, 'a/b\\c', 'C#'), '/example.com/api/7/a b c.cs');
    assert.equal(placeOf('https://example.com/api/'), 'example.com/api');
  });

  it('reads back the place and code of every path it makes, whatever the title', () => {
    const key = fc.constantFrom('http://127.0.0.1:8080/', 'https://example.com/', 'https://example.com/a/b/');
    fc.assert(fc.property(key, fc.integer({ min: 1, max: 1e12 }), fc.string(), (k, codeId, title) => {
      assert.deepEqual(parseDraftPath(draftPath(k, codeId, title, 'Python')), { place: placeOf(k), codeId });
    }));
  });

  it('refuses paths that name no draft', () => {
    for (const path of ['/', '/42/x.rb', '/host/0/x.rb', '/host/1.5/x.rb', '/host/x/1.rb', '/../1/x.rb', '/host/1/', 'host/1/x.rb']) {
      assert.equal(parseDraftPath(path), undefined, path);
    }
    assert.throws(() => draftPath('http://h/', 0, 't', 'Ruby'), RangeError);
  });
});
