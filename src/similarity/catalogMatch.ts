// What finding similar code needs of the catalog around the fingerprints: which language a file is
// in, and which of a code's refactorings to offer.
import type { Refactor } from '../api/model';
import { sortRefactorings } from '../api/ratings';

/** File extensions to the service's language of the codes they match (TypeScript matches JavaScript). */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  rb: 'Ruby', php: 'PHP', js: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript', jsx: 'JavaScript',
  ts: 'JavaScript', mts: 'JavaScript', cts: 'JavaScript', tsx: 'JavaScript', as: 'ActionScript', java: 'Java',
  c: 'C', h: 'C', cpp: 'C++', cc: 'C++', cxx: 'C++', hpp: 'C++', hh: 'C++', cs: 'C#', vb: 'VB.NET', py: 'Python',
  pl: 'Perl', pm: 'Perl', lisp: 'Lisp', lsp: 'Lisp', cl: 'Lisp', el: 'Lisp', erl: 'Erlang', hrl: 'Erlang',
  hs: 'Haskell', sh: 'Bash', bash: 'Bash', pas: 'Delphi', dpr: 'Delphi',
};

/** The service's language of a file, by its extension; undefined when none says. */
export function languageOfFile(file: string): string | undefined {
  const dot = file.lastIndexOf('.');
  if (dot < 0 || /[\\/]/.test(file.slice(dot))) return undefined;
  const ext = file.slice(dot + 1).toLowerCase();
  return Object.prototype.hasOwnProperty.call(BY_EXTENSION, ext) ? BY_EXTENSION[ext] : undefined;
}

/** The refactoring to offer: the first in the code view's best-rated order. */
export function bestRefactor(refactors: readonly Refactor[]): Refactor | undefined {
  return sortRefactorings(refactors, 'bestRated')[0];
}
