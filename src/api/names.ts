// How a code or refactoring is named wherever it is shown (the tree, the code view, Go to Code,
// the CLI, the service's pages): one rule for a missing title and a missing author. Pure, so the
// webview uses it too. The words default to English; the extension and the code view pass their
// localized ones (src/extension/names.ts, src/webview/main.ts).

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

/** The words the rules fill in: how an untitled item and an unnamed author are called. */
export interface NameWords {
  code(id: number): string;
  refactoring(id: number): string;
  user(id: number): string;
  anonymous: string;
}

export const ENGLISH_NAMES: NameWords = {
  code: (id) => `Code #${id}`,
  refactoring: (id) => `Refactoring #${id}`,
  user: (id) => `user #${id}`,
  anonymous: 'anonymous',
};

/** The title, or `Code #20` / `Refactoring #81` when it is empty. */
export function titleOf(item: Titled, words: NameWords = ENGLISH_NAMES): string {
  return item.title || (item.codeId === undefined ? words.code(item.id) : words.refactoring(item.id));
}

/**
 * The author's name as posted, else the registered user's name, else `user #7` for a registered
 * author the response does not name (the single-code response nests no user), else `anonymous`.
 */
export function authorOf(item: Authored, words: NameWords = ENGLISH_NAMES): string {
  return item.userName || item.user?.name || (item.userId !== null ? words.user(item.userId) : words.anonymous);
}
