// How a code or refactoring is named wherever it is shown (the tree, the code view, Go to Code,
// the CLI, the service's HTML pages): one rule for a missing title and a missing author. Pure, so
// the webview uses it too.

interface Titled {
  id: number;
  title: string;
  /** Present on refactorings only. */
  codeId?: number;
}

interface Authored {
  userId: number | null;
  /** A refactoring's author as it posted (registered or not). */
  userName?: string;
  /** The registered author, where the response nests one. */
  user?: { name: string };
}

/** The title, or `Code #20` / `Refactoring #81` when it is empty. */
export function titleOf(item: Titled): string {
  return item.title || `${item.codeId === undefined ? 'Code' : 'Refactoring'} #${item.id}`;
}

/**
 * The author's name as posted, else the registered user's name, else `user #7` for a registered
 * author the response does not name (the single-code response nests no user), else `anonymous`.
 */
export function authorOf(item: Authored): string {
  return item.userName || item.user?.name || (item.userId !== null ? `user #${item.userId}` : 'anonymous');
}
