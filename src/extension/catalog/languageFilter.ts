// The language filter: the choices offered, matching languages whose lettercase varies between
// responses, and the fallback for lists whose language form the service does not offer (the original
// service documented `/<language>.xml` only for recent codes and tags): on a 404 the unfiltered list is fetched
// and filtered here.
import { isApiError } from '../../core/errors';
import { canonicalServiceLanguage, SERVICE_LANGUAGES } from '../../core/languages';

export interface LanguageChoice {
  label: string;
  /** '' for all languages. */
  language: string;
  description?: string;
}

/**
 * "All Languages" and the service's languages, the current one marked; a typed name is added by the
 * quick pick. `words`: the two phrases in the display language (English by default).
 */
export function languageChoices(current: string, words = { all: 'All Languages', current: 'current' }): LanguageChoice[] {
  const mark = (language: string): string | undefined => (sameLanguage(language, current) ? words.current : undefined);
  return [
    { label: words.all, language: '', description: current === '' ? words.current : undefined },
    ...SERVICE_LANGUAGES.map((language) => ({ label: language, language, description: mark(language) })),
  ];
}

/** The language a typed filter means: the service's spelling where it is one of its languages. */
export function normalizeLanguageInput(text: string): string {
  return canonicalServiceLanguage(text.trim());
}

/** Whether two language names are the same language (`ruby` and `Ruby` are). */
export function sameLanguage(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** A 404 for a language form: the service lacks that form, so filtering falls back to the client. */
export function isMissingLanguageForm(err: unknown): boolean {
  return isApiError(err) && err.kind === 'http-status' && err.status === 404;
}

export interface Filtered<T> {
  /** What to show. */
  items: T[];
  /** What the service returned, before filtering here (paging rules look at this). */
  served: T[];
  /** True when the service did not filter and these items were filtered here. */
  filteredHere: boolean;
}

/**
 * One page of a list for `language`. With `filteredHere` already known (from an earlier page), the
 * language form is not tried again.
 */
export async function fetchForLanguage<T extends { language: string }>(
  language: string,
  fetch: (language: string | undefined) => Promise<T[]>,
  options: { canFallBack: boolean; filteredHere?: boolean },
): Promise<Filtered<T>> {
  if (language === '') {
    const served = await fetch(undefined);
    return { items: served, served, filteredHere: false };
  }
  if (!options.filteredHere) {
    try {
      const served = await fetch(language);
      return { items: served, served, filteredHere: false };
    } catch (err) {
      if (!options.canFallBack || !isMissingLanguageForm(err)) throw err;
    }
  }
  const served = await fetch(undefined);
  return { items: served.filter((i) => sameLanguage(i.language, language)), served, filteredHere: true };
}
