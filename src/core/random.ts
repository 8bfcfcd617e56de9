// Random text from the OS's CSPRNG through Web Crypto (never Math.random), available in Node and in
// a browser's extension host alike: the service's tokens and the code view's script nonces.

/** `bytes` random bytes as base64url without padding (32 bytes: 43 characters). */
export function randomBase64url(bytes: number): string {
  const random = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...random)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
