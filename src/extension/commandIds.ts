// Every command the extension contributes, by one name each: registrations, tree rows and
// executeCommand calls name a command through this table, and a unit test holds it equal to
// package.json's contributes.commands. No VS Code import.

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
