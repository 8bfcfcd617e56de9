// Tokens people write with: random, shown once, stored only as a hash. WebCrypto, so the service's
// core (which hashes the bearer token of each write) needs no Node module.

import { randomBase64url } from '../core/random';

/** 32 random bytes, base64url: 43 characters. */
export function newToken(): string {
  return randomBase64url(32);
}

/** The SHA-256 of the token, in hex: what the store keeps and looks a person up by. */
export async function tokenHash(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
