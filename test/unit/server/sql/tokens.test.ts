// Tokens are shown once and kept only as their SHA-256: the store and the HTTP side must hash alike.

import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { newToken, tokenHash } from '../../../../src/server/tokens';

describe('tokens', () => {
  it('are 32 random bytes in base64url, never the same twice', () => {
    const tokens = Array.from({ length: 50 }, newToken);
    for (const t of tokens) {
      assert.match(t, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(Buffer.from(t, 'base64url').length, 32);
    }
    assert.equal(new Set(tokens).size, tokens.length);
  });

  it('are kept as the lower-case hex SHA-256 of their UTF-8 bytes', async () => {
    assert.equal(await tokenHash('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const token = newToken();
    assert.equal(await tokenHash(token), createHash('sha256').update(token, 'utf8').digest('hex'));
    assert.equal(await tokenHash('é'), createHash('sha256').update('é', 'utf8').digest('hex'));
  });
});
