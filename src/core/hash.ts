// A 64-bit FNV-1a hash: pure JavaScript and synchronous, so it runs the same under Node and inside
// a browser's extension host (which has no node:crypto, and only an async SubtleCrypto). The
// reference service's ETags (server/etag.ts) and the extension's file names per service (drafts,
// kept codes, search indexes) use it. It is not collision-resistant against someone crafting input.

/**
 * FNV-1a with its 64-bit state in four 16-bit limbs, lowest first. Multiplying by the 64-bit FNV
 * prime, 2^40 + 0x1b3, is a multiply of each limb by 0x1b3 plus limbs 0 and 1 shifted 8 bits into
 * limbs 2 and 3 (2^40 = 2^32 · 2^8), carries passed up. Every value stays a small integer (below
 * 2^27), so no step makes a heap number: the first hash of a page's body runs before the code is
 * optimized (the Catalog's first expansion hashes one for its ETag), where the doubles an earlier
 * version multiplied cost several times as long. 16 lower-case hex digits.
 */
export function fnv1a64(bytes: Uint8Array): string {
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let i = 0; i < bytes.length; i++) {
    h0 ^= bytes[i];
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (h0 << 8) + (t1 >>> 16);
    h3 = (h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16)) & 0xffff;
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
  }
  return hex4(h3) + hex4(h2) + hex4(h1) + hex4(h0);
}

function hex4(limb: number): string {
  return limb.toString(16).padStart(4, '0');
}
