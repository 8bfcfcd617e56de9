// The service's resources as typed objects. Field names are the camelCase of the XML element names
// (the API is described in docs/api.md). Shared by the client, the reference service and the extension.

/** A registered user, nested in list items (`user` element). */
export interface User {
  id: number;
  name: string;
  identityUrl: string;
  /** `float` in the XML; null when the element is empty. */
  rating: number | null;
  refactorsCount: number | null;
  website: string;
}

/** A refactoring: a revised version of a code (`refactor` element). */
export interface Refactor {
  id: number;
  codeId: number;
  title: string;
  language: string;
  /** The revised source text, kept exactly (indentation, blank lines, trailing newline). */
  code: string;
  comment: string;
  createdAt: Date | null;
  rating: number | null;
  ratingsCount: number | null;
  /** null when the author is not a registered user (an empty `user-id` element). */
  userId: number | null;
  userName: string;
  userWebsite: string;
  /** Present only where the XML carries a nested `user` (registered authors in the recent list). */
  user?: User;
}

/** A posted code snippet (`code` element). */
export interface Code {
  id: number;
  title: string;
  language: string;
  permalink: string;
  /** The source text of the snippet (the inner `code` element), kept exactly. */
  code: string;
  comment: string;
  createdAt: Date | null;
  updatedAt: Date | null;
  refactorsCount: number | null;
  trackbackUrl: string;
  userId: number | null;
  /**
   * Its tags, as the service spells them: present only where the XML carries a `tags` array (the
   * reference service's, in lists and in the single code; the original service's XML had none).
   */
  tags?: string[];
  /** Present in list responses; absent in the single-code response. */
  user?: User;
  /** Present only in the single-code response. */
  refactors?: Refactor[];
}

/** The size the service's pages are believed to have. */
export const PAGE_SIZE = 25;

// Deep copies for the client, which hands each caller its own value so that no caller can change
// what the cache or another caller holds. Written for the model's shape (the Dates and the nested
// user, the tags and the refactorings are the only objects in it): ten times cheaper than structuredClone.

export function copyUser(u: User): User {
  return { ...u };
}

export function copyRefactor(r: Refactor): Refactor {
  const copy = { ...r, createdAt: copyDate(r.createdAt) };
  if (r.user) copy.user = copyUser(r.user);
  return copy;
}

export function copyCode(c: Code): Code {
  const copy = { ...c, createdAt: copyDate(c.createdAt), updatedAt: copyDate(c.updatedAt) };
  if (c.tags) copy.tags = [...c.tags];
  if (c.user) copy.user = copyUser(c.user);
  if (c.refactors) copy.refactors = c.refactors.map(copyRefactor);
  return copy;
}

function copyDate(d: Date | null): Date | null {
  return d === null ? null : new Date(d.getTime());
}
