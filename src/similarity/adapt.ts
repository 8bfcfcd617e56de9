// Adapting a refactoring to the user's names: the catalog code's tokens, laid beside the user's
// code, give a one-to-one map of names (and literals); the refactoring is rewritten through it,
// keeping the names it introduces unless the user's code already uses them for something else (then
// they get a number). Precision over coverage: the user's code must have the catalog code's shape
// token for token (names and literals aside), and every name the refactoring takes from the
// catalog code must map to one name of the user's and back; otherwise nothing is adapted and the
// reason names the names. Applying a refactoring to code it was not written for could drop what
// the user's code does (an extra condition, an extra call) without a word.
import type { Tokenizers } from './tokenize';
import { TooLongError, type Token } from './tokens';

export interface TokenizedText {
  text: string;
  tokens: readonly Token[];
}

export type Adapted =
  | { ok: true; text: string; renamed: ReadonlyMap<string, string> }
  | { ok: false; reason: string };

/** More tokens than this on either side are not adapted (aligning is cheap, but no snippet is this long). */
export const MAX_ADAPTED_TOKENS = 20_000;

/**
 * A catalog code's refactoring rewritten into the names of `user` (tokenized in the code's language),
 * the catalog's two texts tokenized here. Either of those too long to compare is a reason it does not
 * adapt, as anything else is, not a failure: the code was found, its refactoring is just not rewritten.
 */
export async function adaptRefactoring(
  tokenizers: Pick<Tokenizers, 'tokenize'>,
  code: { readonly code: string; readonly language: string },
  refactor: { readonly code: string },
  user: TokenizedText,
): Promise<Adapted> {
  try {
    const [original, rewritten] = await Promise.all([code.code, refactor.code].map((t) => tokenizers.tokenize(t, code.language)));
    return adapt({ text: code.code, tokens: original.tokens }, { text: refactor.code, tokens: rewritten.tokens }, user);
  } catch (e) {
    if (e instanceof TooLongError) return { ok: false, reason: e.message };
    throw e;
  }
}

/**
 * The refactoring `refactor` of the catalog code `original`, rewritten into the names of `user`.
 * The result is indented as `user` is, with its line breaks, and ends as it ends.
 */
export function adapt(original: TokenizedText, refactor: TokenizedText, user: TokenizedText): Adapted {
  if (Math.max(original.tokens.length, user.tokens.length, refactor.tokens.length) > MAX_ADAPTED_TOKENS) {
    return { ok: false, reason: `the code is too long to adapt (more than ${MAX_ADAPTED_TOKENS} tokens)` };
  }
  const a = original.tokens;
  const b = user.tokens;
  const same = matchingPrefix(a, b);
  if (a.length !== b.length || same < a.length) {
    const line = same < b.length ? b[same].line + 1 : undefined;
    return {
      ok: false,
      reason: line === undefined
        ? 'your code is not the same shape as the catalog code (it ends where the catalog code goes on)'
        : `your code is not the same shape as the catalog code (they part at your line ${line})`,
    };
  }
  // Each catalog name (and literal) to the user's, and back; a name seen with two partners is ambiguous.
  const forward = new Map<string, string>();
  const backward = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (let i = 0; i < a.length; i++) {
    if (a[i].cls === 'other') continue;
    const from = key(a[i]);
    const to = key(b[i]);
    const had = forward.get(from);
    if (had !== undefined && had !== to) ambiguous.add(from);
    const back = backward.get(to);
    if (back !== undefined && back !== from) {
      ambiguous.add(from);
      ambiguous.add(back);
    }
    forward.set(from, to);
    backward.set(to, from);
  }
  const userNames = new Set(b.filter((t) => t.cls === 'name').map((t) => t.text));
  const used = refactor.tokens.filter((t) => t.cls !== 'other');
  const unclear = [...new Set(used.map(key).filter((k) => ambiguous.has(k)))];
  if (unclear.length > 0) {
    return { ok: false, reason: `these names do not map one to one onto your code: ${unclear.map(shown).join(', ')}` };
  }
  // The refactoring's own new names, numbered where the user's code already uses them.
  const taken = new Set([...userNames, ...refactor.tokens.filter((t) => t.cls === 'name').map((t) => t.text)]);
  const fresh = new Map<string, string>();
  const renamed = new Map<string, string>();
  let out = '';
  let at = 0;
  for (const t of used) {
    let to = forward.get(key(t));
    if (to !== undefined) to = to.slice(2);
    else if (t.cls === 'name' && userNames.has(t.text)) {
      to = fresh.get(t.text);
      if (to === undefined) {
        let n = 2;
        while (taken.has(`${t.text}${n}`)) n++;
        to = `${t.text}${n}`;
        taken.add(to);
        fresh.set(t.text, to);
      }
    } else continue;
    if (to !== t.text) renamed.set(t.text, to);
    out += refactor.text.slice(at, t.start) + to;
    at = t.end;
  }
  out += refactor.text.slice(at);
  const eol = /\r\n/.test(user.text) ? '\r\n' : '\n';
  // Ending as the user's code ends: with a line break or without one.
  const text = reindent(out, indentOf(user.text), eol).replace(/(\r?\n)+$/, '') + (/\n$/.test(user.text) ? eol : '');
  return { ok: true, text, renamed };
}

/** A name and a literal with the same text are different things: each is keyed with its class. */
function key(t: Token): string {
  return `${t.cls === 'name' ? 'n' : 'l'}:${t.text}`;
}

function shown(k: string): string {
  return `\`${k.slice(2)}\``;
}

function matchingPrefix(a: readonly Token[], b: readonly Token[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i].kind === b[i].kind) i++;
  return i;
}

/** The indentation every non-blank line of `text` starts with. */
export function indentOf(text: string): string {
  let common: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const indent = /^[ \t]*/.exec(line)![0];
    if (common === undefined) common = indent;
    else {
      let i = 0;
      while (i < common.length && i < indent.length && common[i] === indent[i]) i++;
      common = common.slice(0, i);
    }
  }
  return common ?? '';
}

/** `text` with its own common indentation replaced by `indent`, and its line ends made `eol`. */
function reindent(text: string, indent: string, eol: string): string {
  const own = indentOf(text);
  return text.split(/\r?\n/).map((line) => (line.trim() === '' ? '' : indent + line.slice(own.length))).join(eol);
}
