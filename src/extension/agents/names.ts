// The language model tools' names, as package.json contributes them: tools.ts registers them, and
// answering.ts names getCode in the answers that point to a code.
export const Tools = {
  searchCatalog: 'refactorBrowser_searchCatalog',
  getCode: 'refactorBrowser_getCode',
  findSimilar: 'refactorBrowser_findSimilar',
} as const;
