// The tools for agents as both hosts offer them (the extension's language model tools and
// `refactor-browser mcp`): their descriptions, their inputs' JSON Schemas, and the reading of an
// input into what the tool runs on, with a one-line answer for an input it cannot use. No `vscode`
// and no Node import: both extension hosts and the CLI bundle it.
import { isServiceLanguage, SERVICE_LANGUAGES, canonicalServiceLanguage } from '../core/languages';
import { isHttpUrl } from '../core/httpUrl';
import { normalizeBaseUrl, parseCodeRef } from '../client/urls';
import { MAX_COMPARED_LINES } from '../similarity/tokens';

/** The tools' names in `refactor-browser mcp` (the extension's are in package.json). */
export const MCP_TOOL_NAMES = { search: 'search_catalog', code: 'get_code', similar: 'find_similar_code' } as const;

/** The most hits a search answers with; the default is fewer, to leave a model's context room. */
export const MAX_SEARCH_LIMIT = 50;
export const DEFAULT_SEARCH_LIMIT = 10;

export const SEARCH_DESCRIPTION =
  'Search the Refactor Browser catalog: code snippets people posted, with refactorings others wrote and rated. ' +
  'Matches titles, comments, code, authors and tags; answers each match with its code id, title, language, author and page URL. ' +
  'Use it to find reviewed human answers to "is there a better way to write this?".';

export const CODE_DESCRIPTION =
  'Read one code of the Refactor Browser catalog with its refactorings, best rated first, each with its rating and votes. ' +
  'Give the code as an id (42), a code ref (42-some-title) or the page URL of the code.';

export const SIMILAR_DESCRIPTION =
  'Find the codes of the Refactor Browser catalog whose structure is like the given code (names and literals set aside, so renamed variables still match), ' +
  'each with how alike it is and its best rated refactoring, rewritten into the given code\'s names where it adapts. ' +
  'Use it on code the person is writing, to find reviewed better versions of it.';

/** The JSON Schema of the similar-code tool's input: `{ code, language }`. */
export const SIMILAR_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    code: { type: 'string', description: `The code to compare: a function or a few (at most ${MAX_COMPARED_LINES} lines).` },
    language: { type: 'string', description: 'Its language, as the catalog names it.', enum: [...SERVICE_LANGUAGES] },
  },
  required: ['code', 'language'],
} as const;

export interface SimilarInput {
  code: string;
  /** The service's spelling. */
  language: string;
}

/** The similar-code tool's input, checked: code with something in it, a language of the catalog. */
export function readSimilarInput(input: unknown): Read<SimilarInput> {
  if (!isRecord(input)) return refuse('the input must be an object: { "code": "the code", "language": "Python" }');
  const { code, language } = input;
  if (typeof code !== 'string' || code.trim() === '') return refuse('"code" must be the code to compare, as a non-empty string');
  if (typeof language !== 'string' || !isServiceLanguage(language)) return refuse(`"language" must be one of ${SERVICE_LANGUAGES.join(', ')}`);
  return { ok: true, value: { code, language: canonicalServiceLanguage(language) } };
}

/** The JSON Schema of the search tool's input: `{ query, language?, limit? }`. */
export const SEARCH_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'Words to look for, e.g. "memoize fibonacci".' },
    language: { type: 'string', description: 'Only codes in this language.', enum: [...SERVICE_LANGUAGES] },
    limit: { type: 'integer', description: `How many matches at most (default ${DEFAULT_SEARCH_LIMIT}).`, minimum: 1, maximum: MAX_SEARCH_LIMIT },
  },
  required: ['query'],
} as const;

/** The JSON Schema of the code tool's input: `{ code }`. */
export const CODE_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    code: { type: 'string', description: 'The code: its id (42), its code ref (42-some-title) or its page URL.' },
  },
  required: ['code'],
} as const;

export interface SearchInput {
  query: string;
  /** The service's spelling of the language, or undefined for all. */
  language?: string;
  limit: number;
}

/** What the tool runs on, or the one line to answer instead. */
export type Read<T> = { ok: true; value: T } | { ok: false; error: string };

/** The search tool's input, checked: a query with a word in it, a known language, a limit in range. */
export function readSearchInput(input: unknown): Read<SearchInput> {
  if (!isRecord(input)) return refuse('the input must be an object: { "query": "words to look for" }');
  const { query, language, limit } = input;
  if (typeof query !== 'string' || query.trim() === '') return refuse('"query" must be a non-empty string of words to look for');
  let lang: string | undefined;
  if (language !== undefined && language !== null && language !== '') {
    if (typeof language !== 'string' || !isServiceLanguage(language)) {
      return refuse(`"language" must be one of ${SERVICE_LANGUAGES.join(', ')}`);
    }
    lang = canonicalServiceLanguage(language);
  }
  let max = DEFAULT_SEARCH_LIMIT;
  if (limit !== undefined && limit !== null) {
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
      return refuse(`"limit" must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`);
    }
    max = limit;
  }
  return { ok: true, value: { query: query.trim(), language: lang, limit: max } };
}

/**
 * The code tool's input as a code_ref to fetch (`42`, `42-some-title`): an id, a code ref, or a page
 * URL (or XML URL) of a code on the service at `baseUrl`. A URL of another service is refused: the
 * tool reads the one it was set up with.
 */
export function readCodeInput(input: unknown, baseUrl: string): Read<string> {
  const code = isRecord(input) ? input.code : undefined;
  if (typeof code === 'number') {
    return Number.isSafeInteger(code) && code >= 1 ? { ok: true, value: String(code) } : refuse(`"code" ${code} is not a code id (a whole number from 1)`);
  }
  if (typeof code !== 'string' || code.trim() === '') {
    return refuse('"code" must be a code id (42), a code ref (42-some-title) or a code\'s page URL');
  }
  const text = code.trim();
  const ref = parseCodeRef(text);
  if (ref === undefined) return refuse(`"${oneLine(text)}" is not a code id (42), a code ref (42-some-title) or a code's page URL`);
  if (isHttpUrl(text) && !onService(text, baseUrl)) {
    return refuse(`${oneLine(text)} is not a page of ${normalizeBaseUrl(baseUrl).href}: give its id, or a page URL of that service`);
  }
  return { ok: true, value: ref };
}

/** Whether `url` lies below the base address (same scheme, host, port, and path prefix). */
function onService(url: string, baseUrl: string): boolean {
  const base = normalizeBaseUrl(baseUrl);
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.origin === base.origin && u.pathname.startsWith(base.pathname);
}

function refuse<T>(error: string): Read<T> {
  return { ok: false, error };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function oneLine(text: string): string {
  const t = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\s+/g, ' ').trim();
  return t.length <= 200 ? t : `${t.slice(0, 199)}…`;
}
