// How text becomes search terms, for the index and for a query alike: words of letters and digits
// (keeping `c#`, `c++`, `f#`), lower case, with the parts of a camelCase name (`getElementById` is
// also found by `element`), without one-letter words, numbers under three digits and the words
// every code holds (`return`, `the`), which would only make the index bigger and every query slower.

/** Words so common in code and prose that searching for them finds everything. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // English
  'the', 'and', 'for', 'with', 'that', 'this', 'from', 'are', 'was', 'not', 'but', 'of', 'to', 'in', 'is', 'it',
  'as', 'at', 'be', 'by', 'on', 'or', 'an', 'if', 'do', 'so', 'no', 'you', 'your', 'one', 'has', 'have', 'can', 'all',
  'when', 'what', 'does', 'too', 'only', 'like', 'don', 'my', 'our', 'there', 'into', 'up', 'out', 'same', 'than',
  'its', 'they', 'we', 'which', 'also', 'just', 'now', 'here', 'how', 'any', 'more', 'will', 'would', 'should',
  // keywords most of the service's languages share
  'end', 'def', 'return', 'var', 'let', 'const', 'function', 'void', 'new', 'else', 'then', 'elif', 'null', 'nil',
  'none', 'true', 'false', 'self', 'public', 'private', 'static', 'while', 'done', 'dim', 'sub',
]);

const WORD = /[\p{L}\p{N}]+(?:#|\+\+)?/gu;

/** The words of `text`; a language's name is one word (`VB.NET`, `C++`). */
export function tokenize(text: string, field?: string): string[] {
  if (field === 'language') return [text];
  return text.match(WORD) ?? [];
}

const CAMEL_PARTS = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

/** A word as the index keeps it: lower case, with its camelCase parts; null for a word left out. */
export function indexTerm(term: string, field?: string): string | string[] | null {
  const lower = term.toLowerCase();
  if (field === 'language') return lower;
  if (!keep(lower)) return null;
  // Parts need an upper-case letter beside a lower-case one: an ASCII word without both (most words
  // of code) has none. Other scripts have letters of one case that change in neither direction.
  if ((lower === term || term.toUpperCase() === term) && isAscii(term)) return lower;
  const parts = term.split(CAMEL_PARTS);
  if (parts.length === 1) return lower;
  return [lower, ...new Set(parts.map((p) => p.toLowerCase()).filter((p) => p !== lower && keep(p)))];
}

/** A word of a query: lower case; null for one the index leaves out. */
export function queryTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return keep(lower) || lower.length === 1 ? lower : null;
}

function keep(lower: string): boolean {
  if (lower.length < 2 || STOP_WORDS.has(lower)) return false;
  // A number of one or two digits (one-letter words are out already).
  return !(lower.length === 2 && isDigit(lower.charCodeAt(0)) && isDigit(lower.charCodeAt(1)));
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
