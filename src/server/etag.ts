// The reference service's strong ETags: a 64-bit FNV-1a hash of the body's bytes (core/hash.ts) with
// the body's length, the same under node:http and inside a browser's extension host. FNV-1a is not
// collision-resistant against someone crafting bodies, but the bodies are rendered from the catalog
// its owner serves, and a tag is only ever compared with an earlier tag of the same URL.
import { fnv1a64 } from '../core/hash';

/** `"<length in hex>-<FNV-1a 64 in hex>"`: changes whenever a byte of the body does. */
export function strongEtag(body: Uint8Array): string {
  return `"${body.length.toString(16)}-${fnv1a64(body)}"`;
}
