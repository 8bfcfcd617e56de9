// The tokenizer for the service's languages that no grammar covers (ActionScript, VB.NET, Perl,
// Lisp, Erlang, Haskell, Delphi) and for a language the service does not know: comments, strings,
// numbers, names and keywords told apart by their characters alone. It cannot tell a name from a
// keyword it does not list, nor a division from a regular expression, so its matches are shown as
// less certain than a syntax tree's.
import { checkLength, lineAt, lineStarts, LITERAL_KIND, NAME_KIND, type Token } from './tokens';

interface LexicalRules {
  line: readonly string[];
  block: ReadonlyArray<readonly [string, string]>;
  /** Quote characters; a quote doubled inside (`''`) is an escape where `doubled`, else a backslash is. */
  quotes: string;
  doubled?: boolean;
  /** Keywords (lower case when `caseless`). */
  keywords: ReadonlySet<string>;
  caseless?: boolean;
  /** The characters a name starts with and continues with, beyond letters, digits and `_`. */
  nameStart?: string;
  nameRest?: string;
  /** `.` and `::` here are no member access, so a name after them is as any other. */
  noMembers?: boolean;
}

/** The operators a member's name follows, written right after them. */
const MEMBER_ACCESS = new Set(['.', '?.', '->', '::']);

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter(Boolean));

const C_LIKE = words(`if else for while do switch case default break continue return function var let const new
  this super class extends implements interface import package public private protected static final try
  catch finally throw null true false typeof instanceof void in`);

const RULES: Record<string, LexicalRules> = {
  ActionScript: {
    line: ['//'], block: [['/*', '*/']], quotes: `"'`, nameStart: '$',
    keywords: words(`${[...C_LIKE].join(' ')} each internal override dynamic native namespace use is as get set`),
  },
  'VB.NET': {
    line: [`'`], block: [], quotes: '"', doubled: true, caseless: true,
    keywords: words(`dim as if then else elseif end for each in to step next while wend do loop until function sub
      return class module structure public private protected friend shared new nothing true false and or not
      andalso orelse xor is isnot select case try catch finally throw with of byval byref optional imports
      namespace property get set me mybase const exit continue mod handles overrides overridable
      overloads implements inherits interface enum call redim preserve let`),
  },
  Perl: {
    line: ['#'], block: [], quotes: `"'`, nameStart: '$@%&', nameRest: ':',
    keywords: words(`my our local sub if elsif else unless while until for foreach return last next redo use no
      package require eq ne lt gt le ge cmp and or not xor defined undef do eval`),
  },
  Lisp: {
    line: [';'], block: [['#|', '|#']], quotes: '"', nameStart: '-+*/<>=!?&%:', nameRest: '-+*/<>=!?&%:.',
    caseless: true, noMembers: true,
    keywords: words(`defun defvar defparameter defconstant defmacro defclass defmethod defgeneric let let* flet labels
      lambda if cond when unless case loop do do* dolist dotimes setf setq progn prog1 and or not quote function
      return return-from block nil t`),
  },
  Erlang: {
    line: ['%'], block: [], quotes: `"'`, nameRest: '@', noMembers: true,
    keywords: words(`fun end case of if receive after when try catch throw begin andalso orelse not and or div rem
      band bor bxor bnot bsl bsr xor -module -export -import -define -record -spec -type`),
  },
  Haskell: {
    line: ['--'], block: [['{-', '-}']], quotes: '"', nameRest: `'`, noMembers: true,
    keywords: words(`module import qualified as hiding where let in if then else case of do data type newtype class
      instance deriving infixl infixr infix forall`),
  },
  Delphi: {
    line: ['//'], block: [['{', '}'], ['(*', '*)']], quotes: `'`, doubled: true, caseless: true,
    keywords: words(`begin end if then else for to downto do while repeat until case of var const type procedure
      function program unit uses interface implementation class record array string integer boolean nil true
      false and or not xor div mod shl shr with try except finally raise property private public published
      protected constructor destructor inherited exit in set object override virtual overload result`),
  },
};

/** For a language the service does not know: C-like comments and strings, and C-like keywords. */
const FALLBACK: LexicalRules = { line: ['//', '#'], block: [['/*', '*/']], quotes: `"'\``, keywords: C_LIKE };

/** The languages with rules of their own here (the others have a grammar, or the fallback). */
export const LEXICAL_LANGUAGES: readonly string[] = Object.keys(RULES);

/** Longest first, so `===` wins over `==`. */
const OPERATORS = [
  '<<=', '>>=', '>>>', '===', '!==', '**=', '...', '<=>', '->', '=>', '==', '!=', '<=', '>=', '&&', '||', '++', '--',
  '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<', '>>', '::', '**', '<-', '..', ':=', '<>', '=~', '!~', '|>',
];

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isWordChar = (c: string): boolean => /[\p{L}\p{N}_]/u.test(c);

/** The tokens of `text` in `language` (the service's name), by its characters alone. */
export function lexicalTokens(text: string, language: string): Token[] {
  checkLength(text);
  const rules = RULES[language] ?? FALLBACK;
  const starts = lineStarts(text);
  const tokens: Token[] = [];
  const push = (kind: string, cls: Token['cls'], start: number, end: number): void => {
    tokens.push({ kind, cls, text: text.slice(start, end), start, end, line: lineAt(starts, start) });
  };
  let i = 0;
  scan: while (i < text.length) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
      i++;
      continue;
    }
    for (const open of rules.line) {
      if (text.startsWith(open, i)) {
        const end = text.indexOf('\n', i);
        i = end < 0 ? text.length : end;
        continue scan;
      }
    }
    for (const [open, close] of rules.block) {
      if (text.startsWith(open, i)) {
        const end = text.indexOf(close, i + open.length);
        i = end < 0 ? text.length : end + close.length;
        continue scan;
      }
    }
    if (rules.quotes.includes(c)) {
      let j = i + 1;
      while (j < text.length) {
        if (!rules.doubled && text[j] === '\\') j += 2;
        else if (text[j] === c) {
          if (rules.doubled && text[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      const end = Math.min(j + 1, text.length);
      push(LITERAL_KIND, 'literal', i, end);
      i = end;
      continue;
    }
    if (isDigit(c)) {
      let j = i + 1;
      while (j < text.length && (isWordChar(text[j]) || (text[j] === '.' && isDigit(text[j + 1] ?? '')))) j++;
      push(LITERAL_KIND, 'literal', i, j);
      i = j;
      continue;
    }
    if (isWordChar(c) || (rules.nameStart?.includes(c) && (isWordChar(text[i + 1] ?? '') || rules.nameRest?.includes(c)))) {
      let j = i + 1;
      while (j < text.length && (isWordChar(text[j]) || rules.nameRest?.includes(text[j]))) j++;
      // Erlang's module attributes and a Lisp symbol's ending `-` are words with their mark.
      const word = text.slice(i, j);
      const key = rules.caseless ? word.toLowerCase() : word;
      if (rules.keywords.has(key)) push(key, 'other', i, j);
      else {
        const before = tokens[tokens.length - 1];
        push(NAME_KIND, 'name', i, j);
        // `obj.name`, `$obj->name`: a member's name, not the local spelt alike (Haskell's `.` composes, Lisp's pairs).
        if (!rules.noMembers && before && before.end === i && MEMBER_ACCESS.has(before.text)) tokens[tokens.length - 1].role = 'member';
      }
      i = j;
      continue;
    }
    if (c === '-' && rules.keywords.has('-module')) {
      const m = /^-[a-z]+/.exec(text.slice(i, i + 16));
      if (m && rules.keywords.has(m[0])) {
        push(m[0], 'other', i, i + m[0].length);
        i += m[0].length;
        continue;
      }
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i)) ?? c;
    // A lone high or low surrogate, a control character: one token of its own, never a loop.
    push(op, 'other', i, i + op.length);
    i += op.length;
  }
  return tokens;
}
