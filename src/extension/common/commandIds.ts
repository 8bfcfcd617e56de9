// Every command the extension contributes and every context key it sets, by one name each:
// registrations, tree rows and executeCommand calls name a command through these tables, setContext
// calls a key, and a unit test holds them equal to package.json's contributes.commands and to the keys
// its `when` clauses read. No VS Code import.

export const Commands = {
  refresh: 'refactorBrowser.refresh',
  filterLanguage: 'refactorBrowser.filterLanguage',
  addTag: 'refactorBrowser.addTag',
  removeTag: 'refactorBrowser.removeTag',
  loadMore: 'refactorBrowser.loadMore',
  retry: 'refactorBrowser.retry',
  openSettings: 'refactorBrowser.openSettings',
  openCode: 'refactorBrowser.openCode',
  goToCode: 'refactorBrowser.goToCode',
  insertAtCursor: 'refactorBrowser.insertAtCursor',
  compareWithOriginal: 'refactorBrowser.compareWithOriginal',
  compareSelected: 'refactorBrowser.compareSelected',
  compareWithEditor: 'refactorBrowser.compareWithEditor',
  compareAllRefactorings: 'refactorBrowser.compareAllRefactorings',
  copyCode: 'refactorBrowser.copyCode',
  copyPageUrl: 'refactorBrowser.copyPageUrl',
  openInBrowser: 'refactorBrowser.openInBrowser',
  openAsDocument: 'refactorBrowser.openAsDocument',
  search: 'refactorBrowser.search',
  findSimilar: 'refactorBrowser.findSimilar',
  indexCatalog: 'refactorBrowser.indexCatalog',
  star: 'refactorBrowser.star',
  unstar: 'refactorBrowser.unstar',
  signIn: 'refactorBrowser.signIn',
  signOut: 'refactorBrowser.signOut',
  shareSelection: 'refactorBrowser.shareSelection',
  refactorCode: 'refactorBrowser.refactorCode',
  submitRefactoring: 'refactorBrowser.submitRefactoring',
  useAsComment: 'refactorBrowser.useAsComment',
  rate: 'refactorBrowser.rate',
  delete: 'refactorBrowser.delete',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];

/** The context keys package.json's `when` clauses read, each true while what it says holds. */
export const ContextKeys = {
  /** A person is signed in to the current service: Sign Out, Rate…, Delete… and Refactor… show. */
  signedIn: 'refactorBrowser.signedIn',
  /** The service cannot be reached and the Catalog shows nothing: its welcome content says so. */
  unreachable: 'refactorBrowser.unreachable',
  /** At least one code view is open: the palette offers the commands that act on it. */
  hasCodeView: 'refactorBrowser.hasCodeView',
  /** The code of the code view looked at last is starred: the palette offers Unstar, else Star. */
  codeViewStarred: 'refactorBrowser.codeViewStarred',
  /** The active editor holds a comment being written: Use as Comment shows in its title. */
  commentEditor: 'refactorBrowser.commentEditor',
} as const;
