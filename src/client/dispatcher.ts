// The Node transport (the CLI and the tests; never the extension, which uses its host's fetch):
// undici's fetch over a dispatcher that carries the requests: an explicit proxy, else the proxy the
// environment names (HTTP(S)_PROXY, NO_PROXY), else a plain Agent.

import { Agent, EnvHttpProxyAgent, ProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';
import { ApiError } from '../core/errors';
import { httpUrl, schemeOf } from '../core/httpUrl';
import type { FetchLike } from './http';

export interface ProxySettings {
  /** `http://host:port` (credentials in the URL become a Proxy-Authorization header). */
  url: string;
  /** False accepts any certificate, from the proxy and through it (VS Code's `http.proxyStrictSSL`). */
  strictSSL?: boolean;
}

export interface DispatcherOptions {
  proxy?: ProxySettings;
  connectTimeoutMs?: number;
  /** Where HTTP(S)_PROXY and NO_PROXY are read from; tests pass their own. */
  env?: NodeJS.ProcessEnv;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export function createDispatcher(options: DispatcherOptions = {}): Dispatcher {
  const timeout = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  if (options.proxy?.url) {
    const uri = checkProxyUrl(options.proxy.url);
    const tls = { timeout, ...(options.proxy.strictSSL === false ? { rejectUnauthorized: false } : {}) };
    // proxyTunnel false: plain-http targets go as absolute-form requests, which every forward proxy
    // understands; https targets are tunnelled with CONNECT regardless.
    // Every connection of a ProxyAgent, to the proxy or tunnelled through it, is made with proxyTls
    // or requestTls: undici overrides a `connect` option given to it, so none is.
    return new ProxyAgent({ uri, proxyTunnel: false, requestTls: tls, proxyTls: tls });
  }
  const env = options.env ?? process.env;
  const httpProxy = env.http_proxy || env.HTTP_PROXY || undefined;
  const httpsProxy = env.https_proxy || env.HTTPS_PROXY || undefined;
  if (httpProxy || httpsProxy) {
    return new EnvHttpProxyAgent({
      httpProxy,
      // Like curl: an https proxy setting falls back to the http one.
      httpsProxy: httpsProxy ?? httpProxy,
      noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
      proxyTunnel: false,
      connect: { timeout },
      requestTls: { timeout },
      proxyTls: { timeout },
    });
  }
  return new Agent({ connect: { timeout } });
}

function checkProxyUrl(url: string): string {
  const parsed = httpUrl(url);
  if (!parsed) throw new ApiError('invalid-url', url, schemeOf(url) === undefined ? 'proxy URL is not a valid URL' : 'proxy URL must be http or https');
  return parsed.href;
}

/** undici's fetch through `dispatcher`, in the shape the client takes. */
export function fetchVia(dispatcher: Dispatcher): FetchLike {
  return (input, init) => undiciFetch(input, { ...(init as object), dispatcher });
}
