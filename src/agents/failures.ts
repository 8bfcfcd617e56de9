// What the tools for agents answer when they cannot: one line a model can act on (try another id,
// try later, make an index), never a stack. No `vscode` and no Node import.
import { isApiError } from '../core/errors';
import { isSampleAddress } from '../core/sample';
import { normalizeBaseUrl } from '../client/urls';

// `service` below is the service's base URL, or a name for it (`the built-in sample catalog`).

/** `no code 42 on http://host/`: the service answered that it has no such code. */
export function noCodeLine(ref: string, service: string): string {
  return `no code ${ref} on ${shown(service)}; search the catalog for an id that exists`;
}

/**
 * No search index has been made for the service yet. `howToMake` says how in the host's words
 * (run `refactor-browser search QUERY` once; the Index the Catalog command).
 */
export function noIndexLine(service: string, howToMake: string): string {
  return `no search index of ${shown(service)} yet: ${howToMake}`;
}

/**
 * One line for what went wrong while reading the code `ref` (or searching, without one) on
 * `service`: the client's errors name the URL and the cause; anything else its first line.
 */
export function failureLine(e: unknown, service: string, ref?: string): string {
  if (isApiError(e)) {
    switch (e.kind) {
      case 'http-status':
        if (e.status === 404 && ref !== undefined) return noCodeLine(ref, service);
        return `the service answered with an error: ${e.message}`;
      case 'timeout':
      case 'connection':
        return `the service did not answer: ${e.message}; try again later, or check that ${shown(service)} is the service's address`;
      case 'aborted':
        return 'the request was cancelled';
      case 'invalid-url':
        return `the service's address is not usable: ${e.message}`;
      default:
        return `the service's answer could not be read: ${e.message}`;
    }
  }
  const message = e instanceof Error ? e.message : String(e);
  return message.split('\n')[0] || 'something went wrong';
}

/** A base URL as the client uses it (`http://h/api/`); a name as it is; the sample by its name. */
function shown(service: string): string {
  if (isSampleAddress(service)) return 'the built-in sample catalog';
  try {
    return normalizeBaseUrl(service).href;
  } catch {
    return service;
  }
}
