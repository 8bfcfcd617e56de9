// undici's fetch as a browser's behaves for the transport (src/client/http.ts): `redirect: 'manual'`
// gives an answer of type "opaqueredirect" with no status or Location for a 3xx; `redirect: 'follow'`
// follows it. Lets a Node test see what the transport does where a browser hides a redirect.
import { fetch as undiciFetch, type Dispatcher } from 'undici';
import type { FetchLike } from '../../src/client/http';

export function browserLike(agent: Dispatcher): FetchLike {
  return async (input, init) => {
    const res = await undiciFetch(input, { ...(init as object), dispatcher: agent }) as unknown as Response;
    if (init.redirect !== 'manual' || res.status < 300 || res.status > 399) return res;
    await res.body?.cancel();
    return { type: 'opaqueredirect', status: 0, statusText: '', redirected: false, url: '', headers: new Headers(), body: null, bodyUsed: false } as unknown as Response;
  };
}
