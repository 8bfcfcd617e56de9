// A 64-bit FNV-1a hash: pure JavaScript and synchronous, so it runs the same under Node and inside
// a browser's extension host (which has no node:crypto, and only an async SubtleCrypto). The
// reference service's ETags (server/etag.ts) and the extension's file names per service (drafts,
// kept codes, search indexes) use it. It is not collision-resistant against someone crafting input.

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
