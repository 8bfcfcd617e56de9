// Paths of the read-only virtual documents (scheme `refactor-browser`) that show codes, refactorings
// and editor selections, and the query naming the service a code came from. Paths are built from
// numeric ids only, never from titles or other text a stranger wrote, and read back strictly. The file extension only helps VS Code guess the language: the
// extension sets the language explicitly as well. A compare entry's path is a name to read instead,
// never read back: its document's own path travels in the query. Pure (no vscode import), so it runs under mocha.
import { isId } from '../../core/ids';
import { fileExtensionOf } from '../../core/languages';
import type { ItemTarget } from '../common/items';

export const DOCUMENT_SCHEME = 'refactor-browser';

/** What a virtual document shows. */
export type DocumentTarget =
  | ItemTarget
  /** A snapshot of an editor's selection, for Compare with Active Editor; `id` is a counter. */
  | { kind: 'selection'; id: number };

/**
 * `/codes/42/code.rb`, `/codes/42/refactors/7.rb`, `/selections/3.rb`. Throws a RangeError for an
 * id that is not an id (ids.ts; selections are counted from 1 too), so no other text can reach a path.
 */
export function documentPath(target: DocumentTarget, serviceLanguage: string): string {
  const ext = fileExtensionOf(serviceLanguage);
  const ids = target.kind === 'code' ? [target.codeId]
    : target.kind === 'refactor' ? [target.codeId, target.refactorId] : [target.id];
  if (!ids.every((n) => isId(n))) throw new RangeError(`document ids must be whole numbers from 1, got ${ids.join(', ')}`);
  switch (target.kind) {
    case 'code': return `/codes/${target.codeId}/code.${ext}`;
    case 'refactor': return `/codes/${target.codeId}/refactors/${target.refactorId}.${ext}`;
    case 'selection': return `/selections/${target.id}.${ext}`;
  }
}

const CODE_PATH = /^\/codes\/(\d{1,15})\/code\.[a-z]+$/;
const REFACTOR_PATH = /^\/codes\/(\d{1,15})\/refactors\/(\d{1,15})\.[a-z]+$/;
const SELECTION_PATH = /^\/selections\/(\d{1,15})\.[a-z]+$/;

/** The target of a virtual document's path, or undefined for any other path. */
export function parseDocumentPath(path: string): DocumentTarget | undefined {
  let m = CODE_PATH.exec(path);
  if (m) return allIds(m) ? { kind: 'code', codeId: Number(m[1]) } : undefined;
  m = REFACTOR_PATH.exec(path);
  if (m) return allIds(m) ? { kind: 'refactor', codeId: Number(m[1]), refactorId: Number(m[2]) } : undefined;
  m = SELECTION_PATH.exec(path);
  if (m) return allIds(m) ? { kind: 'selection', id: Number(m[1]) } : undefined;
  return undefined;
}

function allIds(m: RegExpExecArray): boolean {
  return m.slice(1).every((digits) => isId(Number(digits)));
}

/** A document's query with its own path added (`doc=`), for a URI whose path is a name (`namedPath`). */
export function namedQuery(query: string, documentPath: string): string {
  const params = new URLSearchParams(query);
  params.set('doc', documentPath);
  return params.toString();
}

/** The document path a named URI's query carries; undefined when it carries none, or more than one. */
export function documentPathOfQuery(query: string): string | undefined {
  const paths = new URLSearchParams(query).getAll('doc');
  return paths.length === 1 ? paths[0] : undefined;
}

/** The query of a code's document: `service=sample`, or `service=` and the base URL as configured. */
export function serviceQuery(service: string): string {
  return new URLSearchParams({ service }).toString();
}

/** The service a document's query names; undefined when it names none. */
export function serviceOfQuery(query: string): string | undefined {
  const params = new URLSearchParams(query);
  const services = params.getAll('service');
  return services.length === 1 && services[0] !== '' ? services[0] : undefined;
}
