// Syntax trees for the languages VS Code's own prebuilt tree-sitter grammars cover
// (`@vscode/tree-sitter-wasm`), parsed by `web-tree-sitter`. Nothing loads at activation: the
// runtime and each grammar are read on first use, one language at a time, through a GrammarFiles
// the host gives (the extension reads its own files with workspace.fs, in both extension hosts; the
// CLI reads them beside itself). web-tree-sitter itself is imported on first use too: the Node
// extension host loads it from a file of its own beside the extension's bundle, so that activation
// does not read it (the browser's host has it inside its bundle: a web worker loads one file). A
// grammar that cannot be read or loaded is a GrammarError, said in one line; nothing falls back
// silently, because a lexical token stream does not match a tree's.
import type { Language, Node } from 'web-tree-sitter';
import { checkLength, lineAt, lineStarts, LITERAL_KIND, NAME_KIND, type NameRole, type Token } from './tokens';

/** The file of the parser's own WebAssembly runtime. */
export const RUNTIME_FILE = 'web-tree-sitter.wasm';

/** The grammar file of each service language that has one (C parses with the C++ grammar). */
const GRAMMAR_FILES: Readonly<Record<string, string>> = {
  Ruby: 'tree-sitter-ruby.wasm',
  Python: 'tree-sitter-python.wasm',
  JavaScript: 'tree-sitter-javascript.wasm',
  Java: 'tree-sitter-java.wasm',
  PHP: 'tree-sitter-php.wasm',
  'C#': 'tree-sitter-c-sharp.wasm',
  'C++': 'tree-sitter-cpp.wasm',
  C: 'tree-sitter-cpp.wasm',
  Bash: 'tree-sitter-bash.wasm',
};

/** Every file the grammars need, runtime first: what a build copies beside the bundles. */
export const GRAMMAR_ASSETS: readonly string[] = [RUNTIME_FILE, ...new Set(Object.values(GRAMMAR_FILES))];

/** Reads one of GRAMMAR_ASSETS by its file name. */
export type GrammarFiles = (file: string) => Promise<Uint8Array>;

export class GrammarError extends Error {
  override readonly name = 'GrammarError';
}

/** True when `language` (the service's name) is parsed with a grammar. */
export function hasGrammar(language: string): boolean {
  return Object.prototype.hasOwnProperty.call(GRAMMAR_FILES, language);
}

/** Node types that are one literal whatever they hold (a string with its quotes, a character). */
const WHOLE_LITERAL = /(^|_)(string|char|character|heredoc|regex|encapsed_string|nowdoc)(_literal|_expression|_body)?$/;
/** Leaves that are literals. */
const LITERAL_LEAF = /(^|_)(integer|float|number|decimal|real|hex|octal|binary|numeric|string_content|string_fragment|escape_sequence)(_literal)?$|^(integer|float|number)$/;
/** Leaves that are names a person chose. */
const NAME_LEAF = /identifier$|^(name|constant|word|variable_name|instance_variable|class_variable|global_variable|simple_symbol|hash_key_symbol|special_variable_name|field_identifier|property_identifier|type_identifier)$/;
const COMMENT = /comment/;

type TreeSitter = typeof import('web-tree-sitter');

export class Grammars {
  private runtime: Promise<TreeSitter> | undefined;
  private readonly languages = new Map<string, Promise<Language>>();

  constructor(private readonly files: GrammarFiles) {}

  /** The parser's runtime, loaded once. */
  private init(): Promise<TreeSitter> {
    this.runtime ??= (async () => {
      const [treeSitter, wasmBinary] = await Promise.all([import('web-tree-sitter'), this.files(RUNTIME_FILE)]);
      // `locateFile` as well as the bytes: bundled from the package's ES module, its own URL is empty.
      await treeSitter.Parser.init({ wasmBinary, locateFile: (file: string) => file });
      return treeSitter;
    })().catch((e: unknown) => {
      this.runtime = undefined;
      throw new GrammarError(`could not load the parser (${(e as Error).message})`);
    });
    return this.runtime;
  }

  /** The grammar of `language`, loaded on its first use, with the parser's module. */
  private async language(language: string): Promise<[TreeSitter, Language]> {
    const file = GRAMMAR_FILES[language];
    if (!hasGrammar(language) || !file) throw new GrammarError(`no grammar for ${language}`);
    let loading = this.languages.get(file);
    if (!loading) {
      loading = this.init().then(async (treeSitter) => treeSitter.Language.load(await this.files(file))).catch((e: unknown) => {
        this.languages.delete(file);
        throw e instanceof GrammarError ? e : new GrammarError(`could not load the ${language} grammar (${(e as Error).message})`);
      });
      this.languages.set(file, loading);
    }
    return [await this.init(), await loading];
  }

  /** The tokens of `text`, parsed with `language`'s grammar. */
  async tokens(text: string, language: string): Promise<Token[]> {
    checkLength(text);
    const [treeSitter, grammar] = await this.language(language);
    return withTree(treeSitter, grammar, text, (root) => treeTokens(root, text));
  }

  /**
   * Parses `text` with `language`'s grammar and hands the tree's root to `use`, freeing the tree
   * after it. No bound on the text's length here: the caller sets its own.
   */
  async withSyntaxTree<T>(text: string, language: string, use: (root: Node) => T): Promise<T> {
    const [treeSitter, grammar] = await this.language(language);
    return withTree(treeSitter, grammar, text, use);
  }

  /**
   * The lines (0-based, first and last) of the innermost function or method around `line`, or
   * undefined when `line` is in none.
   */
  async functionAround(text: string, language: string, line: number): Promise<[number, number] | undefined> {
    checkLength(text);
    const [treeSitter, grammar] = await this.language(language);
    return withTree(treeSitter, grammar, text, (root) => {
      let node: Node | null = root.descendantForPosition({ row: line, column: indentOf(text, line) });
      while (node) {
        if (FUNCTION.test(node.type)) return [node.startPosition.row, node.endPosition.row] as [number, number];
        node = node.parent;
      }
      return undefined;
    });
  }

  /**
   * Each function or method of `text` that is inside no other (a class's methods each), in the
   * file's order: its lines (0-based, first and last) and its name where it has one. The functions
   * functionAround finds, taken one by one: what the command line compares of a whole file.
   */
  async functions(text: string, language: string): Promise<FunctionSpan[]> {
    checkLength(text);
    const [treeSitter, grammar] = await this.language(language);
    return withTree(treeSitter, grammar, text, (root) => {
      const found: FunctionSpan[] = [];
      const stack: Node[] = [root];
      while (stack.length > 0) {
        const node = stack.pop()!;
        if (FUNCTION.test(node.type)) {
          found.push({ first: node.startPosition.row, last: node.endPosition.row, name: nameOf(node) });
          continue;
        }
        for (let i = node.childCount - 1; i >= 0; i--) {
          const child = node.child(i);
          if (child) stack.push(child);
        }
      }
      return found;
    });
  }
}

/** A function of a file: its lines (0-based, first and last), and its name; undefined for one without. */
export interface FunctionSpan {
  first: number;
  last: number;
  name: string | undefined;
}

/** A function's name: its own, else (a function given to a name: `const f = () => ...`) the one it is given to. */
function nameOf(node: Node): string | undefined {
  let named: Node | null = node.childForFieldName('name');
  // C and C++: the name is inside the declarator (`int f(int x)`, `T C::f()`).
  for (let declarator = node.childForFieldName('declarator'); !named && declarator; declarator = declarator.childForFieldName('declarator')) {
    if (/identifier$/.test(declarator.type)) named = declarator;
  }
  const parent = node.parent;
  if (!named && parent) named = parent.childForFieldName('name') ?? parent.childForFieldName('left') ?? parent.childForFieldName('key');
  const name = named?.text.trim();
  return name && name.length <= 100 && !/\s/.test(name) ? name : undefined;
}

/** Node types of the grammars here that are a function or a method (not a call, not a type). */
const FUNCTION = /^(function_definition|function_declaration|function_expression|generator_function_declaration|method_definition|method_declaration|constructor_declaration|method|singleton_method|arrow_function|function|local_function_statement|lambda)$/;

function indentOf(text: string, line: number): number {
  const start = lineStarts(text)[line] ?? 0;
  let i = start;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i - start;
}

/** Parses `text`, hands its root to `use`, and frees the tree (WebAssembly memory is not collected). */
function withTree<T>(treeSitter: TreeSitter, grammar: Language, text: string, use: (root: Node) => T): T {
  const parser = new treeSitter.Parser();
  try {
    parser.setLanguage(grammar);
    const tree = parser.parse(text);
    if (!tree) throw new GrammarError('the parser gave no tree');
    try {
      return use(tree.rootNode);
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

/** The tokens after which a name is a member's: `a.b`, `a?.b`, `a&.b`, `a->b`, `a?->b`, `A::b`. */
const ACCESSOR = new Set(['.', '?.', '&.', '->', '?->', '::']);
/** Leaf types that are always a member's name: a JavaScript key or property, a C++ field, a Ruby hash key (`sep:`). */
const MEMBER_LEAF = new Set(['property_identifier', 'private_property_identifier', 'field_identifier', 'hash_key_symbol']);
const SHORTHAND_LEAF = new Set(['shorthand_property_identifier', 'shorthand_property_identifier_pattern']);
/**
 * A parent's type and the field a name stands in there, where that name is a member's: Python's
 * keyword argument (`f(sep=…)`), a C# or PHP named argument (`F(sep: …)`), a Java or Ruby method
 * called without its object (their methods are not their variables: Ruby's `stat = stat(path)`).
 */
const MEMBER_FIELDS = new Set(['keyword_argument name', 'argument name', 'method_invocation name', 'call method']);

/** How the name leaf `node`, in `field` of its parent, stands (Token.role), or undefined for a local's. */
function roleOf(node: Node, field: string | null): NameRole | undefined {
  if (SHORTHAND_LEAF.has(node.type)) return 'shorthand';
  if (MEMBER_LEAF.has(node.type)) return 'member';
  const parent = node.parent;
  if (!parent) return undefined;
  if (field && MEMBER_FIELDS.has(`${parent.type} ${field}`)) return 'member';
  // A C# object initializer's `Name = name`.
  if (field === 'left' && parent.type === 'assignment_expression' && parent.parent?.type === 'initializer_expression') return 'member';
  const before = node.previousSibling;
  return before && !before.isNamed && ACCESSOR.has(before.type) ? 'member' : undefined;
}

/**
 * The leaves of a tree in order, comments left out, a string (with its quotes and any
 * interpolation) as one literal, each name with its role. tree-sitter's positions are in bytes of
 * UTF-8 only for its own input encoding: web-tree-sitter parses a JavaScript string as UTF-16, so
 * `startIndex` counts code units, as `text` does.
 */
function treeTokens(root: Node, text: string): Token[] {
  const starts = lineStarts(text);
  const tokens: Token[] = [];
  const stack: Array<[Node, string | null]> = [[root, null]];
  while (stack.length > 0) {
    const [node, field] = stack.pop()!;
    const type = node.type;
    if (COMMENT.test(type)) continue;
    const whole = node.isNamed && WHOLE_LITERAL.test(type);
    if (node.childCount === 0 || whole) {
      const start = node.startIndex;
      const end = node.endIndex;
      if (end <= start) continue;
      const leafText = text.slice(start, end);
      let kind: string;
      let cls: Token['cls'];
      if (whole || (node.isNamed && LITERAL_LEAF.test(type))) {
        kind = LITERAL_KIND;
        cls = 'literal';
      } else if (node.isNamed && NAME_LEAF.test(type)) {
        kind = NAME_KIND;
        cls = 'name';
      } else {
        // A keyword or operator is its own kind; a named leaf that is neither name nor literal
        // (`true`, `self`, a primitive type) is its type and text, so `int` and `double` differ.
        kind = node.isNamed ? `${type}:${leafText.length <= 16 ? leafText : ''}` : type;
        cls = 'other';
      }
      const token: Token = { kind, cls, text: leafText, start, end, line: lineAt(starts, start) };
      const role = cls === 'name' || SHORTHAND_LEAF.has(type) ? roleOf(node, field) : undefined;
      if (role) token.role = role;
      tokens.push(token);
      continue;
    }
    for (let i = node.childCount - 1; i >= 0; i--) {
      const child = node.child(i);
      if (child) stack.push([child, node.fieldNameForChild(i)]);
    }
  }
  return tokens;
}
