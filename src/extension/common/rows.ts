// How a Catalog row says what it is: its contextValue, which package.json's menus match and which
// every command that VS Code hands a row to reads. Commands recognise rows by it (and by their
// payload), never by class, so the tree and the commands can each change their classes. No VS Code import.

/** A starred code's or refactoring's contextValue is its kind's with this mark, so menus offer Unstar instead of Star. */
export const STARRED = '.starred';

/** The contextValue of each kind of row; a root's is `refactorBrowser.root.<kind>`. */
export const RowContext = {
  code: 'refactorBrowser.code',
  refactor: 'refactorBrowser.refactor',
  tag: 'refactorBrowser.tag',
  loadMore: 'refactorBrowser.loadMore',
  empty: 'refactorBrowser.empty',
  note: 'refactorBrowser.note',
  error: 'refactorBrowser.error',
} as const;

export type RowKind = keyof typeof RowContext;

/** The contextValue of a root row. */
export function rootContext(kind: string): string {
  return `refactorBrowser.root.${kind}`;
}

/** The contextValue of a code or refactoring row, marked when it is starred. */
export function itemContext(kind: 'code' | 'refactor', starred: boolean): string {
  return RowContext[kind] + (starred ? STARRED : '');
}

/** True when `arg` is a row of that kind (a starred code or refactoring counts as its kind). */
export function isRow(arg: unknown, kind: RowKind): boolean {
  if (typeof arg !== 'object' || arg === null) return false;
  const context = (arg as { contextValue?: unknown }).contextValue;
  return context === RowContext[kind] || ((kind === 'code' || kind === 'refactor') && context === RowContext[kind] + STARRED);
}
