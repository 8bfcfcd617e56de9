// What the code commands act on: a code or a refactoring, whether it comes from a tree row, the
// code view or the command palette, plus the few facts every command derives from it (title,
// language, text, sections, page URL, virtual document). Tree rows are recognised by their contextValue
// (rows.ts) and payload, not by class, so either side can change its classes.
import { codeRefOf, codeUrl, pageUrl } from '../../client/urls';
import type { Code, Refactor } from '../../core/model';
import { splitSections, type Section } from '../../core/sections';
import { isRow } from './rows';

export type Item = { kind: 'code'; code: Code } | { kind: 'refactor'; refactor: Refactor };

/** What an item is, by id: a code, or one refactoring of a code (what a star or a document points at). */
export type ItemTarget = { kind: 'code'; codeId: number } | { kind: 'refactor'; codeId: number; refactorId: number };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}


/** The item a tree row (CodeNode / RefactorNode) or an Item stands for; undefined for anything else. */
export function itemOf(arg: unknown): Item | undefined {
  if (!isRecord(arg)) return undefined;
  if ((isRow(arg, 'code') || arg.kind === 'code') && isRecord(arg.code) && typeof arg.code.id === 'number') {
    return { kind: 'code', code: arg.code as unknown as Code };
  }
  if ((isRow(arg, 'refactor') || arg.kind === 'refactor') && isRecord(arg.refactor)
    && typeof arg.refactor.id === 'number') {
    return { kind: 'refactor', refactor: arg.refactor as unknown as Refactor };
  }
  return undefined;
}

/**
 * The items a tree command was run on: VS Code passes the clicked row and, with multi-select, every
 * selected row (which includes the clicked one). Rows that are not codes or refactorings are dropped.
 */
export function itemsOf(clicked: unknown, selected: unknown): Item[] {
  const rows = Array.isArray(selected) && selected.length > 0 ? selected : [clicked];
  return rows.map(itemOf).filter((i): i is Item => i !== undefined);
}

export function codeIdOf(item: Item): number {
  return item.kind === 'code' ? item.code.id : item.refactor.codeId;
}

export function languageOf(item: Item): string {
  return item.kind === 'code' ? item.code.language : item.refactor.language;
}

export function textOf(item: Item): string {
  return item.kind === 'code' ? item.code.code : item.refactor.code;
}

/** The item's sections (src/core/sections.ts): one untitled section when its code has no heading line. */
export function sectionsOf(item: Item): Section[] {
  return splitSections(textOf(item), languageOf(item));
}

/** What Insert at Cursor and Copy put somewhere: an item's whole text, or one section of it. */
export interface Snippet {
  text: string;
  /** The service's language name, for an untitled document. */
  language: string;
  /** The section's title for messages ('' for the text before the first heading); absent for the whole item. */
  sectionTitle?: string;
}

export function snippetOf(item: Item, section?: Section): Snippet {
  if (!section) return { text: textOf(item), language: languageOf(item) };
  return { text: section.text, language: section.language, sectionTitle: section.title };
}

export function targetOf(item: Item): ItemTarget {
  return item.kind === 'code'
    ? { kind: 'code', codeId: item.code.id }
    : { kind: 'refactor', codeId: item.refactor.codeId, refactorId: item.refactor.id };
}

/**
 * The service's human page: the code's XML URL without `.xml`; a refactoring is the anchor the
 * service's page gives it (`#refactor-<id>`) on its code's page.
 */
export function pageUrlOf(item: Item, baseUrl: string): string {
  if (item.kind === 'code') return pageUrl(codeUrl(baseUrl, codeRefOf(item.code)));
  return `${pageUrl(codeUrl(baseUrl, item.refactor.codeId))}#refactor-${item.refactor.id}`;
}
