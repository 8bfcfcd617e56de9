// How a code or refactoring is named wherever it is shown (the tree, the code view, Go to Code,
// the CLI, the service's pages): one rule for a missing title and a missing author, and one set of
// words for it. Pure, so the webview uses it too: the extension passes `vscode.l10n`, the code view
// `@vscode/l10n` (which reads the extension's bundle), and the CLI and the service English.

import type * as l10n from '@vscode/l10n';

export interface Titled {
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

/**
 * What translates a message with `{0}`-style arguments: `@vscode/l10n` (the code view) or
 * `vscode.l10n` (the extension). The parameters below are named `l10n` after the import, so
 * `npm run l10n:export` finds their messages as it finds any `l10n.t` call.
 */
export type Translator = Pick<typeof l10n, 't'> | { t(message: string, ...args: Array<string | number | boolean>): string };

/** The messages as written, their `{0}`-style arguments filled in: for the CLI and the service. */
export const ENGLISH: Translator = {
  t: (message: string, ...args: Array<string | number | boolean>) => message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole)),
};

/** The naming words in the language `l10n` translates to. */
export function nameWords(l10n: Translator): NameWords {
  return {
    code: (id) => l10n.t('Code #{0}', id),
    refactoring: (id) => l10n.t('Refactoring #{0}', id),
    user: (id) => l10n.t('user #{0}', id),
    get anonymous() {
      return l10n.t('anonymous');
    },
  };
}

/** The phrases a rating is said in; `{0}`-style arguments come formatted. */
export interface RatingWords {
  notRated: string;
  rated(rating: string): string;
  ratedOneVote(rating: string): string;
  ratedVotes(rating: string, votes: string): string;
}

/** How a rating is said (src/core/ratings.ts), in the language `l10n` translates to. */
export function ratingWords(l10n: Translator): RatingWords {
  return {
    get notRated() {
      return l10n.t('not rated');
    },
    rated: (rating) => l10n.t('rated {0}', rating),
    ratedOneVote: (rating) => l10n.t('rated {0} (1 vote)', rating),
    ratedVotes: (rating, votes) => l10n.t('rated {0} ({1} votes)', rating, votes),
  };
}

export const ENGLISH_NAMES: NameWords = nameWords(ENGLISH);

/** A code or a refactoring as the extension's commands pass it around (src/extension/common/items.ts). */
export type ItemOf<C extends Titled, R extends Titled> = { kind: 'code'; code: C } | { kind: 'refactor'; refactor: R };

/** The title, or `Code #20` / `Refactoring #81` when it is empty; of a code or refactoring, or of an item holding one. */
export function titleOf(item: Titled | ItemOf<Titled, Titled>, words: NameWords = ENGLISH_NAMES): string {
  const titled = 'kind' in item ? (item.kind === 'code' ? item.code : item.refactor) : item;
  return titled.title || (titled.codeId === undefined ? words.code(titled.id) : words.refactoring(titled.id));
}

/**
 * The author's name as posted, else the registered user's name, else `user #7` for a registered
 * author the response does not name (the single-code response nests no user), else `anonymous`.
 */
export function authorOf(item: Authored, words: NameWords = ENGLISH_NAMES): string {
  return item.userName || item.user?.name || (item.userId !== null ? words.user(item.userId) : words.anonymous);
}
