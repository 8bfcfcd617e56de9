// The reference service's strong ETags: a 64-bit FNV-1a hash of the body's bytes with the body's
// length. Pure JavaScript and synchronous, so the service answers the same tags under node:http and
// inside a browser's extension host (which has no node:crypto, and only an async SubtleCrypto).
// FNV-1a is not collision-resistant against someone crafting bodies, but the bodies are rendered from
// the catalog its owner serves, and a tag is only ever compared with an earlier tag of the same URL.

/** `"<length in hex>-<FNV-1a 64 in hex>"`: changes whenever a byte of the body does. */
export function strongEtag(body: Uint8Array): string {
  return `"${body.length.toString(16)}-${fnv1a64(body)}"`;
}

const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
/** The 64-bit FNV prime is 2^40 + 0x1b3. */
const PRIME_LOW_BITS = 0x1b3;
const TWO_TO_32 = 0x1_0000_0000;

/**
 * FNV-1a with 64-bit state held in two 32-bit halves. Multiplying by 2^40 + 0x1b3 is a multiply by
 * 0x1b3 (each product stays below 2^42, exact in a double) plus the low half shifted into the high one.
 * 16 lower-case hex digits.
 */
export function fnv1a64(bytes: Uint8Array): string {
  let hi = OFFSET_HI;
  let lo = OFFSET_LO;
  for (let i = 0; i < bytes.length; i++) {
    lo = (lo ^ bytes[i]) >>> 0;
    const low = lo * PRIME_LOW_BITS;
    hi = (hi * PRIME_LOW_BITS + Math.floor(low / TWO_TO_32) + ((lo << 8) >>> 0)) >>> 0;
    lo = low >>> 0;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}
