// What the service's answers carry as features pass them on: what one answer showed (the Catalog's
// lists and the code views tell search and stars through the service connection), and the model
// read back from JSON kept on this machine (lists kept offline, starred codes kept whole).
import type { Code, Refactor } from '../../core/model';

/** What one answer of the service showed: codes (seen under `tag` when a tag's list), or refactorings. */
export interface FetchedItems {
  codes?: readonly Code[];
  refactors?: readonly Refactor[];
  tag?: string;
}

/** Dates travel as ISO strings through JSON; these are the fields that hold one. */
const DATE_FIELDS = new Set(['createdAt', 'updatedAt']);

/** JSON.parse's reviver for the model: its dates come back as Dates. */
export function revive(key: string, value: unknown): unknown {
  return DATE_FIELDS.has(key) && typeof value === 'string' ? new Date(value) : value;
}
