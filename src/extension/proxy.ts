// VS Code's `http.proxy` and `http.proxyStrictSSL` as the client's proxy option. VS Code patches
// Node's http stack for its proxy support but not the undici the extension bundles, so the extension
// passes the setting itself; with `http.proxy` empty, the client falls back to HTTP(S)_PROXY.
import type { ProxySettings } from '../api/dispatcher';

export function proxyFromHttpSettings(proxy: unknown, strictSSL: unknown): ProxySettings | undefined {
  const url = typeof proxy === 'string' ? proxy.trim() : '';
  if (url === '') return undefined;
  // VS Code's default is strict; only an explicit false relaxes it.
  return { url, strictSSL: strictSSL !== false };
}

export function sameProxy(a: ProxySettings | undefined, b: ProxySettings | undefined): boolean {
  return a?.url === b?.url && a?.strictSSL === b?.strictSSL;
}
