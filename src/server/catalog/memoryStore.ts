// A read-only store over a Dataset held in memory: the built-in sample catalog, `serve --catalog` and
// `serve --generate`. Every listing is already sorted in the Dataset, so a page is a slice; the
// version never changes, so the Responder renders each page once.

import { PAGE_SIZE } from '../../core/model';
import type { Dataset, DatasetCode, DatasetRefactor, Listing } from './dataset';
import type { CatalogStore, ListedRefactor, Page, Summary } from '../store';

export function memoryStore(dataset: Dataset): CatalogStore {
  const withCode = (r: DatasetRefactor): ListedRefactor => {
    const code = dataset.codes.get(r.codeId)!;
    return { ...r, of: { id: code.id, title: code.title, permalink: code.permalink } };
  };
  const summary: Summary = {
    codes: dataset.codes.size,
    refactors: dataset.recentRefactors.all.length,
    languages: dataset.languages,
    tags: [...dataset.tags.values()].map((t) => ({ name: t.name, count: t.codes.all.length })),
  };
  return {
    version: 0,
    summary: async () => summary,
    recentCodes: async (language, page) => pageOf(dataset.recentCodes, language, page),
    popularCodes: async (language, page) => pageOf(dataset.popularCodes, language, page),
    taggedCodes: async (tag, language, page) => {
      const found = dataset.tags.get(tag);
      return found && { name: found.name, page: pageOf(found.codes, language, page) };
    },
    recentRefactors: async (language, page) => {
      const { items, hasNext } = pageOf(dataset.recentRefactors, language, page);
      return { items: items.map(withCode), hasNext };
    },
    code: async (id) => dataset.codes.get(id),
    refactor: async (codeId, id) => {
      const found = dataset.codes.get(codeId)?.refactors.find((r) => r.id === id);
      return found && withCode(found);
    },
    user: async (id) => dataset.users.get(id),
    close: async () => undefined,
  };
}

function pageOf<T extends DatasetCode | DatasetRefactor>(listing: Listing<T>, language: string, page: number): Page<T> {
  const all = language === '' ? listing.all : (listing.byLanguage.get(language) ?? []);
  const start = (page - 1) * PAGE_SIZE;
  return { items: all.slice(start, start + PAGE_SIZE), hasNext: all.length > start + PAGE_SIZE };
}
