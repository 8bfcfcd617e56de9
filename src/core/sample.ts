// The built-in sample catalog's address: where the extension and the command line answer it in
// process, with no service configured. `.invalid` resolves nowhere (RFC 2606), so nothing on a
// network ever answers it, and no message shows it as an address to open (errors.ts).

/** The built-in sample catalog's base URL. */
export const SAMPLE_BASE_URL = 'http://sample.refactor-browser.invalid/';

const SAMPLE_HOST = new URL(SAMPLE_BASE_URL).host;

/** True for an address of the built-in sample catalog (and for no other `.invalid` host a person configured). */
export function isSampleAddress(url: string): boolean {
  try {
    return new URL(url).host === SAMPLE_HOST;
  } catch {
    return false;
  }
}
