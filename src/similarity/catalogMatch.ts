// What finding similar code needs of the catalog around the fingerprints: which language a file is
// in, and which of a code's refactorings to offer.
import { serviceLanguageOfExtension } from '../core/languages';
import type { Refactor } from '../core/model';
import { sortRefactorings } from '../core/ratings';

/** The service's language of a file, by its extension (the table's, src/core/languages.ts); undefined when none says. */
export function languageOfFile(file: string): string | undefined {
  const dot = file.lastIndexOf('.');
  if (dot < 0 || /[\\/]/.test(file.slice(dot))) return undefined;
  return serviceLanguageOfExtension(file.slice(dot + 1));
}

/** The refactoring to offer: the first in the code view's best-rated order. */
export function bestRefactor(refactors: readonly Refactor[]): Refactor | undefined {
  return sortRefactorings(refactors, 'bestRated')[0];
}
