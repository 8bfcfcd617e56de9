// Required first by a child process (see noResolver.ts): every dns.lookup fails as for an unknown name.

import dns from 'node:dns';
import { lookupNothing } from './noResolver';

dns.lookup = lookupNothing as unknown as typeof dns.lookup;
