// Paths of refactoring drafts (scheme `refactor-browser-draft`): `/<service>/<codeId>/<name>.<ext>`,
// where <service> is the service's host and base path (`127.0.0.1:8080`, `example.com/api`), <codeId>
// the code the draft refactors and <name> its title, cleaned to one segment. The name and extension
// are for a person and for VS Code's guess of the language; a draft is found by its service and code
// alone. Pure (no vscode import), so it runs under mocha.
import { isId } from '../../core/ids';
import { fileExtensionOf } from '../../core/languages';
import { namedPath } from '../common/labels';

export const DRAFT_SCHEME = 'refactor-browser-draft';

/** A normalized base URL (`http://example.com/api/`) as a draft's path shows it: `example.com/api`. */
export function placeOf(serviceKey: string): string {
  const url = new URL(serviceKey);
  return `${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** The path of the draft refactoring code `codeId` of the service `serviceKey` (a normalized base URL). */
export function draftPath(serviceKey: string, codeId: number, title: string, serviceLanguage: string): string {
  if (!isId(codeId)) throw new RangeError(`a draft's code id must be a whole number from 1, got ${String(codeId)}`);
  return `/${placeOf(serviceKey)}/${codeId}${namedPath(title)}.${fileExtensionOf(serviceLanguage)}`;
}

/** What a draft's path names: its service's place and its code; undefined for any other path. */
export function parseDraftPath(path: string): { place: string; codeId: number } | undefined {
  const m = /^\/([^/]+(?:\/[^/]+)*)\/(\d{1,15})\/[^/]+$/.exec(path);
  if (!m || m[1].split('/').some((s) => s === '.' || s === '..')) return undefined;
  const codeId = Number(m[2]);
  return isId(codeId) ? { place: m[1], codeId } : undefined;
}
