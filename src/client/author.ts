// The name of a single code's author. The single-code answer names the author by `user-id` alone
// (the spec's rule 4; lists nest the whole `<user>`), so whatever shows one code (the code view, the
// CLI's `show`, the MCP server's get_code, the language model tool) asks here, and each source only
// when the ones before it did not name the author: the list the code was reached from, what search's
// index kept of the lists, then the service's `/users/<id>.xml`. Nothing is asked for a code whose
// answer names its author (another service may nest the `<user>`) or an anonymous one. A lookup that
// fails leaves the code as it came, shown as by "user #N" (names.ts's authorOf): the author's name is
// not worth failing the view for. No `vscode` import: the extension and the CLI share it.

import type { Code, User } from '../core/model';

/** A code by a registered author whose answer did not name them (the single-code answer). */
export function lacksAuthorName(code: Pick<Code, 'userId' | 'user'>): boolean {
  return !code.user?.name && code.userId !== null;
}

/** Where a code's author's name may be found, asked in this order. */
export interface AuthorSources {
  /** The code as the list it was reached from gave it, when the caller has one. */
  readonly listed?: Pick<Code, 'id' | 'userId' | 'user'>;
  /**
   * What search keeps of the lists (src/search/searchIndex.ts's withListedAuthor); called only when
   * the list did not name the author. Undefined, or resolving to undefined, when there is no index.
   */
  readonly index?: () => Promise<{ withListedAuthor(code: Code): Code } | undefined>;
  /** The service, asked for `/users/<id>.xml` last. */
  readonly client?: { user(id: number, o?: { signal?: AbortSignal }): Promise<User> };
  readonly signal?: AbortSignal;
  /** Told of a source that failed (the code is shown without the name all the same). */
  readonly failed?: (source: 'index' | 'service', err: unknown) => void;
}

/** `code` with its author named by the first source that names them; as it came when none does. */
export async function withAuthor(code: Code, sources: AuthorSources): Promise<Code> {
  const userId = code.userId;
  if (!lacksAuthorName(code) || userId === null) return code;

  const { listed } = sources;
  if (listed && listed.id === code.id && listed.userId === userId && listed.user?.name) return namedBy(code, listed.user);

  if (sources.index) {
    try {
      const user = (await sources.index())?.withListedAuthor(code).user;
      if (user?.name) return namedBy(code, user);
    } catch (err) {
      sources.failed?.('index', err);
    }
  }

  if (sources.client) {
    try {
      const user = await sources.client.user(userId, { signal: sources.signal });
      // The answer is for the id asked; a service naming someone else is not believed.
      if (user.id === userId && user.name) return namedBy(code, user);
    } catch (err) {
      sources.failed?.('service', err);
    }
  }
  return code;
}

/** The code with `user`, its fields in the order --json prints them (user before refactors). */
function namedBy(code: Code, user: User): Code {
  const { refactors, ...fields } = code;
  return refactors === undefined ? { ...fields, user } : { ...fields, user, refactors };
}
