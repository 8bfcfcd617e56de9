// Adapting a refactoring to the user's names: the catalog code's tokens, laid beside the user's
// code, give a one-to-one map of names (and literals); the refactoring is rewritten through it,
// keeping the names it introduces unless the user's code already uses them for something else (then
// they get a number). Precision over coverage: the user's code must have the catalog code's shape
// token for token (names and literals aside), and every name the refactoring takes from the
// catalog code must map to one name of the user's and back; otherwise nothing is adapted and the
// reason names the names. Applying a refactoring to code it was not written for could drop what
// the user's code does (an extra condition, an extra call) without a word.
import type { Tokenizers } from './tokenize';
import { NAME_KIND, TooLongError, type Token } from './tokens';

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
  // `{ href }` is `{ href: href }`, so that it lines up with the `{ href: link }` a rename leaves.
  const a = spelledOut(original.tokens);
  const b = spelledOut(user.tokens);
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
  // Each catalog name (and literal) to the user's, and back; a name seen with two partners is
  // ambiguous. A member's name (`os.sep`) and a local's (`sep`) are two names, mapped each on its own.
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
  const userLocals = new Set(b.filter((t) => t.cls === 'name' && t.role !== 'member').map((t) => t.text));
  const used = refactor.tokens.filter((t) => t.cls !== 'other' || t.role === 'shorthand');
  // A name the refactoring uses as a member where the catalog code has it as a local the user
  // renamed (or the other way round) is unclear too: a member it brings, or a parse gone astray.
  const crossed = (t: Token): boolean => {
    if (t.cls !== 'name' || forward.has(key(t))) return false;
    const other = forward.get(`${t.role === 'member' ? 'n' : 'm'}:${t.text}`);
    return other !== undefined && other.slice(2) !== t.text;
  };
  const unclear = [...new Set(used.flatMap((t) => keys(t).filter((k) => ambiguous.has(k) || crossed(t))).map(shown))];
  if (unclear.length > 0) {
    return { ok: false, reason: `these names do not map one to one onto your code: ${unclear.join(', ')}` };
  }
  // The refactoring's own new locals, numbered where the user's code already has a local of that
  // name; a member it names that the catalog code does not is some object's, and stays as it is.
  const taken = new Set([...b, ...refactor.tokens].filter((t) => t.cls === 'name' || t.role === 'shorthand').map((t) => t.text));
  const fresh = new Map<string, string>();
  const renamed = new Map<string, string>();
  const rename = (t: Token, k: string): string => {
    let to = forward.get(k)?.slice(2);
    if (to === undefined && k.startsWith('n:') && userLocals.has(t.text)) {
      to = fresh.get(t.text);
      if (to === undefined) {
        let n = 2;
        while (taken.has(`${t.text}${n}`)) n++;
        to = `${t.text}${n}`;
        taken.add(to);
        fresh.set(t.text, to);
      }
    }
    to ??= t.text;
    if (to !== t.text && !renamed.has(t.text)) renamed.set(t.text, to);
    return to;
  };
  let out = '';
  let at = 0;
  for (const t of used) {
    let to: string;
    if (t.role === 'shorthand') {
      // The local renamed and the key kept: `{ href }` becomes `{ href: link }`.
      const local = rename(t, `n:${t.text}`);
      const member = rename(t, `m:${t.text}`);
      to = local === member ? local : `${member}: ${local}`;
    } else to = rename(t, key(t));
    if (to === t.text) continue;
    out += refactor.text.slice(at, t.start) + to;
    at = t.end;
  }
  out += refactor.text.slice(at);
  const eol = /\r\n/.test(user.text) ? '\r\n' : '\n';
  // Ending as the user's code ends: with a line break or without one.
  const text = reindent(out, indentOf(user.text), eol).replace(/(\r?\n)+$/, '') + (/\n$/.test(user.text) ? eol : '');
  return { ok: true, text, renamed };
}

/**
 * A name and a literal with the same text are different things, and so are a local and a member
 * spelt alike: each is keyed with its class (`n` a local's name, `m` a member's, `l` a literal).
 */
function key(t: Token): string {
  if (t.cls !== 'name') return `l:${t.text}`;
  return `${t.role === 'member' ? 'm' : 'n'}:${t.text}`;
}

/** The keys a token of the refactoring stands for: a shorthand property both its key's and its local's. */
function keys(t: Token): string[] {
  return t.role === 'shorthand' ? [`m:${t.text}`, `n:${t.text}`] : [key(t)];
}

function shown(k: string): string {
  return `\`${k.slice(2)}\``;
}

/** `tokens` with each shorthand property written out as the member's name, a `:` and the local's. */
function spelledOut(tokens: readonly Token[]): readonly Token[] {
  if (!tokens.some((t) => t.role === 'shorthand')) return tokens;
  return tokens.flatMap((t): Token[] => {
    if (t.role !== 'shorthand') return [t];
    const name = { kind: NAME_KIND, cls: 'name' as const, text: t.text, start: t.start, end: t.end, line: t.line };
    return [{ ...name, role: 'member' }, { kind: ':', cls: 'other', text: ':', start: t.end, end: t.end, line: t.line }, name];
  });
}

/**
 * How many tokens `a` and `b` have alike from their start: of the same kind, and where the kind does
 * not hold a token's text (a leaf too long to spell in its kind, as a parse gone astray can give), of
 * the same text, since the refactoring's copy of it is not rewritten.
 */
function matchingPrefix(a: readonly Token[], b: readonly Token[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i].kind === b[i].kind && (a[i].cls !== 'other' || !a[i].kind.endsWith(':') || a[i].text === b[i].text)) i++;
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
