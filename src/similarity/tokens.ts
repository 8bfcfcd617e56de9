// The tokens similarity compares: a code's leaves in order, with what a person may rename set aside.
// A name (a variable, function, field, type) is the kind `ID` and a literal (a string, number or
// character) the kind `LIT`, whatever their text; keywords, operators and punctuation keep their
// own kind; comments are left out. Two codes that differ only in their names and literals have the
// same kinds, which is what fingerprints (fingerprint.ts) are made of; the texts are kept for
// adapting a refactoring to the user's names (adapt.ts). No `vscode` or Node import: the extension
// (both hosts) and the CLI tokenize alike.

export type TokenClass = 'name' | 'literal' | 'other';

export interface Token {
  /** `ID` for a name, `LIT` for a literal, else the token's own kind (a keyword, an operator). */
  kind: string;
  cls: TokenClass;
  /** The token's text as written. */
  text: string;
  /** Offsets into the text tokenized (UTF-16 code units), end exclusive. */
  start: number;
  end: number;
  /** 0-based line of the token's start. */
  line: number;
  /**
   * Where a name stands, when not as a local does: `member` after `.`, `?.`, `->` or `::`, as an
   * object's key, a keyword argument's name or a Ruby hash key (a member named like a local is
   * another name: `sep = os.sep` has two); `shorthand` for a JavaScript shorthand property
   * (`{ href }`), the key and the local at once. Left out for every other token.
   */
  role?: NameRole;
}

export type NameRole = 'member' | 'shorthand';

export const NAME_KIND = 'ID';
export const LITERAL_KIND = 'LIT';

/** How a text was tokenized: with a syntax tree (`tree`), or by its characters alone (`lexical`, less certain). */
export type TokenizerKind = 'tree' | 'lexical';

export interface Tokenized {
  tokens: Token[];
  by: TokenizerKind;
}

/** The most characters tokenized: past this a text is refused with TooLongError, never worked through. */
export const MAX_TOKENIZED_CHARS = 200_000;
/** The most lines of code compared at once (a selection, or a document). */
export const MAX_COMPARED_LINES = 2_000;

export class TooLongError extends Error {
  override readonly name = 'TooLongError';
}

/** Refuses a text too long to compare, with the reason in one line. */
export function checkLength(text: string): void {
  let lines = 1;
  // A line break at the very end starts no line: a file of 2,000 lines ends with one.
  for (let i = text.indexOf('\n'); i >= 0 && i < text.length - 1; i = text.indexOf('\n', i + 1)) {
    if (++lines > MAX_COMPARED_LINES) throw new TooLongError(`the code is too long to compare (more than ${MAX_COMPARED_LINES} lines)`);
  }
  if (text.length > MAX_TOKENIZED_CHARS) {
    throw new TooLongError(`the code is too long to compare (${text.length} characters; at most ${MAX_TOKENIZED_CHARS})`);
  }
}

/** The 0-based line of each offset: lineStarts(text) then lineAt(starts, offset). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
