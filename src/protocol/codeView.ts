// The message protocol between the code view webview and the extension, imported by both sides.
// Every message is a discriminated union on `type`; each receiver runs the parser for its direction,
// which checks the type AND every field and returns a fresh object holding only the known fields,
// so nothing a webview (or a compromised page inside it) sends is trusted by shape alone.
// No DOM, node or vscode imports: this file compiles under the extension's and the webview's tsconfig.
import { isHttpUrl } from '../core/httpUrl';
import { isId } from '../core/ids';
import { isRefactoringOrder, type RefactoringOrder } from '../core/ratings';

/** A block in the view: the code itself or one of its refactorings, by numeric id. */
export interface BlockTarget {
  kind: 'code' | 'refactor';
  id: number;
}

/**
 * What Insert at Cursor and Copy act on: a whole block, or with `section` one of its sections (an
 * index into `splitSections` of the block's code, src/core/sections.ts, which both sides run).
 */
export interface TextTarget extends BlockTarget {
  section?: number;
}

/** A refactoring as the webview shows it. Dates are ISO 8601 strings (postMessage loses Date). */
export interface RefactorViewModel {
  id: number;
  codeId: number;
  title: string;
  /** The service's language name as sent (lettercase varies). */
  language: string;
  /** highlight.js language name, or '' to show plain text. */
  highlightLanguage: string;
  code: string;
  comment: string;
  createdAt: string | null;
  rating: number | null;
  ratingsCount: number | null;
  userId: number | null;
  /** '' when unknown: the webview shows "anonymous". */
  userName: string;
  /** As the service sent it; the webview links it only when it is http(s). */
  userWebsite: string;
}

/** A code with every refactoring, plus what the view needs beyond the model (page URL). */
export interface CodeViewModel {
  id: number;
  title: string;
  language: string;
  highlightLanguage: string;
  permalink: string;
  code: string;
  comment: string;
  createdAt: string | null;
  updatedAt: string | null;
  refactorsCount: number | null;
  userId: number | null;
  /** '' when the response carries no nested user (the single-code response never does). */
  userName: string;
  userWebsite: string;
  /** The service's human page for this code (the XML URL without `.xml`). */
  pageUrl: string;
  refactors: RefactorViewModel[];
}

/** Messages the webview posts to the extension. */
export type ToExtension =
  | { type: 'ready' }
  | { type: 'insert'; target: TextTarget }
  | { type: 'compareWithOriginal'; refactorId: number }
  | { type: 'copy'; target: TextTarget }
  | { type: 'openDocument'; target: BlockTarget }
  | { type: 'openExternal'; url: string }
  | { type: 'retry' }
  /** The switch above the refactorings picked this order: remember it (the setting). */
  | { type: 'setOrder'; order: RefactoringOrder }
  /** A block's Star button: star it (`starred` true) or unstar it. */
  | { type: 'star'; target: BlockTarget; starred: boolean }
  /** A refactoring's Rate… button. */
  | { type: 'rate'; refactorId: number }
  /** A block's Delete… button (the extension asks before it deletes). */
  | { type: 'delete'; target: BlockTarget }
  /** The code's Refactor… button: a draft of the view's code. */
  | { type: 'refactor' };

/** Messages the extension posts to the webview. */
export type ToWebview =
  /**
   * The code, its refactorings to be shown in `order`, the blocks that are starred, and a `note` when
   * what is shown is not the service's answer (the copy kept because it is starred, offline); `me`,
   * the signed-in person's user id, offers Rate…, Delete… and Refactor… where they apply.
   */
  | { type: 'show'; code: CodeViewModel; order: RefactoringOrder; starred: BlockTarget[]; note?: string; revealRefactorId?: number; me?: number }
  /** The starred blocks changed (from this view, the Catalog or the palette). */
  | { type: 'stars'; starred: BlockTarget[] }
  | { type: 'loading'; codeId?: number }
  | { type: 'error'; message: string; codeId?: number }
  | { type: 'reveal'; refactorId: number }
  /** The order changed (the setting, from this view, another one or another window): reorder what is shown. */
  | { type: 'order'; order: RefactoringOrder };

/** What the webview persists with `setState`, and the panel serializer reads back after a reload. */
export interface CodeViewState {
  codeId: number;
}

type Fields = Record<string, unknown>;

function isRecord(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export { isId };

/** Counts and section indexes: finite, safe, non-negative integers (no NaN, no 1.5, no "3"). */
function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isNullableCount(v: unknown): v is number | null {
  return v === null || isCount(v);
}

function isNullableId(v: unknown): v is number | null {
  return v === null || isId(v);
}

function isNullableFinite(v: unknown): v is number | null {
  return v === null || (typeof v === 'number' && Number.isFinite(v));
}

function isString(v: unknown): v is string {
  return typeof v === 'string';
}

function isNullableDate(v: unknown): v is string | null {
  return v === null || (typeof v === 'string' && !Number.isNaN(Date.parse(v)));
}

function parseTarget(v: unknown): BlockTarget | undefined {
  if (!isRecord(v) || (v.kind !== 'code' && v.kind !== 'refactor') || !isId(v.id)) return undefined;
  return { kind: v.kind, id: v.id };
}

/** A list of block targets, every one valid, or undefined. */
function parseTargets(v: unknown): BlockTarget[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const targets = v.map(parseTarget);
  return targets.every((t): t is BlockTarget => t !== undefined) ? targets : undefined;
}

/** A block target with an optional section index; whether the block has that section is the extension's check. */
function parseTextTarget(v: unknown): TextTarget | undefined {
  const block = parseTarget(v);
  if (!block || !isRecord(v) || v.section === undefined) return block;
  return isCount(v.section) ? { ...block, section: v.section } : undefined;
}

export function parseToExtension(msg: unknown): ToExtension | undefined {
  if (!isRecord(msg)) return undefined;
  switch (msg.type) {
    case 'ready':
    case 'retry':
    case 'refactor':
      return { type: msg.type };
    case 'insert':
    case 'copy': {
      const target = parseTextTarget(msg.target);
      return target && { type: msg.type, target };
    }
    case 'openDocument': {
      // Opens the whole block whatever else the target names: a `section` is dropped like any extra field.
      const target = parseTarget(msg.target);
      return target && { type: msg.type, target };
    }
    case 'compareWithOriginal':
      return isId(msg.refactorId) ? { type: 'compareWithOriginal', refactorId: msg.refactorId } : undefined;
    case 'openExternal':
      // `openExternal` hands any scheme to the OS (file:, vscode:, ms-msdt: …): http(s) only, here
      // and again where the URL leaves for the OS.
      return isHttpUrl(msg.url) ? { type: 'openExternal', url: msg.url } : undefined;
    case 'setOrder':
      return isRefactoringOrder(msg.order) ? { type: 'setOrder', order: msg.order } : undefined;
    case 'star': {
      const target = parseTarget(msg.target);
      return target && typeof msg.starred === 'boolean' ? { type: 'star', target, starred: msg.starred } : undefined;
    }
    case 'rate':
      return isId(msg.refactorId) ? { type: 'rate', refactorId: msg.refactorId } : undefined;
    case 'delete': {
      const target = parseTarget(msg.target);
      return target && { type: 'delete', target };
    }
    default:
      return undefined;
  }
}

export function parseRefactorViewModel(v: unknown): RefactorViewModel | undefined {
  if (!isRecord(v)) return undefined;
  const { id, codeId, title, language, highlightLanguage, code, comment, createdAt, rating, ratingsCount,
    userId, userName, userWebsite } = v;
  if (!isId(id) || !isId(codeId) || !isString(title) || !isString(language) || !isString(highlightLanguage)
    || !isString(code) || !isString(comment) || !isNullableDate(createdAt) || !isNullableFinite(rating)
    || !isNullableCount(ratingsCount) || !isNullableId(userId) || !isString(userName) || !isString(userWebsite)) {
    return undefined;
  }
  return { id, codeId, title, language, highlightLanguage, code, comment, createdAt, rating, ratingsCount,
    userId, userName, userWebsite };
}

export function parseCodeViewModel(v: unknown): CodeViewModel | undefined {
  if (!isRecord(v) || !Array.isArray(v.refactors)) return undefined;
  const { id, title, language, highlightLanguage, permalink, code, comment, createdAt, updatedAt,
    refactorsCount, userId, userName, userWebsite, pageUrl } = v;
  if (!isId(id) || !isString(title) || !isString(language) || !isString(highlightLanguage)
    || !isString(permalink) || !isString(code) || !isString(comment) || !isNullableDate(createdAt)
    || !isNullableDate(updatedAt) || !isNullableCount(refactorsCount) || !isNullableId(userId)
    || !isString(userName) || !isString(userWebsite) || !isString(pageUrl)) {
    return undefined;
  }
  const refactors: RefactorViewModel[] = [];
  for (const r of v.refactors) {
    const parsed = parseRefactorViewModel(r);
    if (!parsed) return undefined;
    refactors.push(parsed);
  }
  return { id, title, language, highlightLanguage, permalink, code, comment, createdAt, updatedAt,
    refactorsCount, userId, userName, userWebsite, pageUrl, refactors };
}

export function parseToWebview(msg: unknown): ToWebview | undefined {
  if (!isRecord(msg)) return undefined;
  switch (msg.type) {
    case 'show': {
      const code = parseCodeViewModel(msg.code);
      const order = msg.order;
      const starred = parseTargets(msg.starred);
      if (!code || !isRefactoringOrder(order) || !starred || (msg.note !== undefined && !isString(msg.note))) return undefined;
      const shown: ToWebview = { type: 'show', code, order, starred };
      if (msg.note !== undefined) shown.note = msg.note;
      if (msg.me !== undefined) {
        if (!isId(msg.me)) return undefined;
        shown.me = msg.me;
      }
      if (msg.revealRefactorId === undefined) return shown;
      return isId(msg.revealRefactorId) ? { ...shown, revealRefactorId: msg.revealRefactorId } : undefined;
    }
    case 'stars': {
      const starred = parseTargets(msg.starred);
      return starred && { type: 'stars', starred };
    }
    case 'loading':
      if (msg.codeId === undefined) return { type: 'loading' };
      return isId(msg.codeId) ? { type: 'loading', codeId: msg.codeId } : undefined;
    case 'error': {
      if (!isString(msg.message)) return undefined;
      if (msg.codeId === undefined) return { type: 'error', message: msg.message };
      return isId(msg.codeId) ? { type: 'error', message: msg.message, codeId: msg.codeId } : undefined;
    }
    case 'reveal':
      return isId(msg.refactorId) ? { type: 'reveal', refactorId: msg.refactorId } : undefined;
    case 'order':
      return isRefactoringOrder(msg.order) ? { type: 'order', order: msg.order } : undefined;
    default:
      return undefined;
  }
}

/** The serializer's input is whatever was persisted: check it like a message. */
export function parseCodeViewState(state: unknown): CodeViewState | undefined {
  return isRecord(state) && isId(state.codeId) ? { codeId: state.codeId } : undefined;
}
