// Name resolution that knows no names, for the tests of an unknown host: they must not ask the
// machine's resolver, which may be slow or absent and is asked even for `.invalid` names (RFC 6761).
// `lookupNothing` fails as dns.lookup does for a name that does not exist; `NO_RESOLVER_ENV` puts it in
// place of dns.lookup in a child process (the command line run by the tests).

import type { LookupFunction } from 'node:net';
import * as path from 'node:path';

export const lookupNothing: LookupFunction = (hostname, options, callback?: unknown) => {
  const cb = (typeof options === 'function' ? options : callback) as (err: NodeJS.ErrnoException) => void;
  const err: NodeJS.ErrnoException & { hostname?: string } = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  Object.assign(err, { code: 'ENOTFOUND', errno: -3008, syscall: 'getaddrinfo', hostname });
  process.nextTick(cb, err);
};

/** The environment for a child Node process that resolves no names. */
export const NO_RESOLVER_ENV: NodeJS.ProcessEnv = {
  NODE_OPTIONS: `--require "${path.join(__dirname, 'noResolverPreload.js')}"`,
};
