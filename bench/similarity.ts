// similarity.*: Find Refactorings for This Code on code nobody in the project wrote. The corpus is
// every function of 5 to 40 lines (found with the tree-sitter grammars the feature parses with) in
// the JavaScript of packages the project already installs, and in the Python standard library of the
// machine's python3 when it has one. Ten thousand of them (each with one refactoring: the function
// with a line added) make the catalog, held in a CodeSearch and fingerprinted by
// SimilarityIndex.update, as the extension and the CLI do; the queries are catalog codes renamed,
// renamed with one line added or changed, and reformatted, and functions the catalog does not hold.
// Everything is drawn with a fixed seed, so two runs on the same packages ask the same queries.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Language, Node } from 'web-tree-sitter';
import type { Code } from '../src/core/model';
import { nodeGrammarFiles } from '../src/cli/grammarFiles';
import { CodeSearch } from '../src/search/searchIndex';
import { adapt, indentOf, type Adapted } from '../src/similarity/adapt';
import { fingerprint } from '../src/similarity/fingerprint';
import { Grammars } from '../src/similarity/grammars';
import { MIN_SIMILARITY, SimilarityIndex, type SimilarMatch } from '../src/similarity/similarIndex';
import { Tokenizers } from '../src/similarity/tokenize';
import type { Token } from '../src/similarity/tokens';
import { adaptRealFigures } from './adaptReal';
import { figure, median, type Figure } from './measure';

const REPO = path.resolve(__dirname, '../..');

/**
 * JavaScript written by others, from packages the project depends on directly (so they are in
 * node_modules whatever npm hoists): each package and the folder of its own sources.
 */
const JS_SOURCES: ReadonlyArray<[string, string]> = [
  ['undici', 'lib'], ['fast-xml-parser', 'src'], ['highlight.js', 'lib'], ['minisearch', 'dist/cjs'],
  ['mocha', 'lib'], ['pg', 'lib'], ['eslint', 'lib'], ['esbuild', 'lib'],
];
/** Folders of the Python standard library left out: tests repeat one shape hundreds of times, and site-packages is not the library. */
const PYTHON_SKIPPED = new Set(['test', 'tests', 'idle_test', 'site-packages', 'lib2to3', '__pycache__']);

type Lang = 'JavaScript' | 'Python';
const LANGUAGES: readonly Lang[] = ['JavaScript', 'Python'];

/** The catalog's size: the issue's 10,000 codes. */
const CATALOG = 10_000;
/** Catalog codes made into queries, per language and kind; as many functions outside the catalog. */
const QUERIES = 250;
const SEED = 20_260_101;
const FIRST_USE_RUNS = 5;

const BUDGET_MEDIAN_MS = 30;
const BUDGET_P99_MS = 100;
const BUDGET_FIRST_USE_MS = 300;

/** The grammar's node types taken as functions, and those of the statements a line is added before. */
const FUNCTION_TYPES: Record<Lang, string[]> = {
  JavaScript: ['function_declaration', 'generator_function_declaration', 'method_definition'],
  Python: ['function_definition'],
};
const STATEMENT_TYPES: Record<Lang, string[]> = {
  JavaScript: ['expression_statement', 'lexical_declaration', 'variable_declaration', 'return_statement', 'if_statement', 'for_statement',
    'for_in_statement', 'while_statement', 'do_statement', 'try_statement', 'throw_statement', 'switch_statement', 'break_statement', 'continue_statement'],
  Python: ['expression_statement', 'return_statement', 'if_statement', 'for_statement', 'while_statement', 'try_statement', 'with_statement',
    'raise_statement', 'assert_statement', 'pass_statement', 'break_statement', 'continue_statement', 'delete_statement'],
};
/** A statement is only edited inside a block: elsewhere (a `for` header split over lines) a line added would not parse. */
const BLOCK_TYPES: Record<Lang, string> = { JavaScript: 'statement_block', Python: 'block' };
const GRAMMAR_FILES: Record<Lang, string> = { JavaScript: 'tree-sitter-javascript.wasm', Python: 'tree-sitter-python.wasm' };

interface Statement {
  /** 0-based line in the function's text. */
  line: number;
  /** The statement is the whole of its line, so the line can be replaced. */
  whole: boolean;
}

interface Fn {
  language: Lang;
  text: string;
  /** Package (or `stdlib`) and function name, for the code's title. */
  title: string;
  /** Its names (the tokens of class `name`), each once, in the order they first appear. */
  names: string[];
  /** How many tokens it has. */
  tokens: number;
  statements: Statement[];
}

/** mulberry32: a small seeded generator, so that the queries are the same every run. */
export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(xs: readonly T[], rnd: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function filesUnder(dir: string, ext: RegExp, skipped: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (!skipped.has(e.name)) out.push(...filesUnder(p, ext, skipped));
    } else if (e.isFile() && ext.test(e.name) && !e.name.endsWith('.min.js')) out.push(p);
  }
  return out;
}

/** The folder of python3's standard library, or undefined when there is no python3 or no sources. */
function pythonLibrary(): string | undefined {
  try {
    const dir = execFileSync('python3', ['-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], { encoding: 'utf8', timeout: 10_000 }).trim();
    return fs.existsSync(path.join(dir, 'json', '__init__.py')) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Each file of the corpus, with its language and the name its functions' titles carry. */
function corpusFiles(): Array<{ file: string; language: Lang; origin: string }> {
  const files: Array<{ file: string; language: Lang; origin: string }> = [];
  for (const [pkg, folder] of JS_SOURCES) {
    const dir = path.join(REPO, 'node_modules', pkg, folder);
    if (!fs.existsSync(dir)) continue;
    for (const file of filesUnder(dir, /\.c?js$/, new Set(['node_modules', 'test', 'tests']))) files.push({ file, language: 'JavaScript', origin: pkg });
  }
  const stdlib = pythonLibrary();
  if (stdlib) for (const file of filesUnder(stdlib, /\.py$/, PYTHON_SKIPPED)) files.push({ file, language: 'Python', origin: 'python' });
  return files;
}

/** Every line of `text` without its trailing blanks, the lines' common indentation taken off. */
function dedented(text: string): string {
  const lines = text.split('\n').map((l) => l.replace(/[ \t]+$/, ''));
  const common = indentOf(lines.join('\n'));
  return lines.map((l) => l.slice(common.length)).join('\n');
}

/**
 * The functions of 5 to 40 lines in `text` that begin their line, none inside another taken (a
 * longer function is looked into; a shorter one holds none of 5 lines).
 */
function functionsIn(root: Node, text: string, language: Lang, origin: string): Fn[] {
  const found: Fn[] = [];
  let takenEnd = -1;
  // Document order, outer before inner: what lies inside a taken function starts before its end.
  for (const node of root.descendantsOfType(FUNCTION_TYPES[language])) {
    if (!node || node.startIndex < takenEnd) continue;
    const first = node.startPosition.row;
    const lines = node.endPosition.row - first + 1;
    if (lines < 5 || lines > 40) continue;
    const lineStart = text.lastIndexOf('\n', node.startIndex - 1) + 1;
    if (text.slice(lineStart, node.startIndex).trim() !== '' || node.hasError) continue;
    takenEnd = node.endIndex;
    const statements: Statement[] = [];
    for (const s of node.descendantsOfType(STATEMENT_TYPES[language])) {
      if (!s || s.parent?.type !== BLOCK_TYPES[language] || s.startPosition.row === first) continue;
      const sLineStart = text.lastIndexOf('\n', s.startIndex - 1) + 1;
      if (text.slice(sLineStart, s.startIndex).trim() !== '') continue;
      const lineEnd = text.indexOf('\n', s.endIndex);
      const whole = s.endPosition.row === s.startPosition.row && text.slice(s.endIndex, lineEnd < 0 ? text.length : lineEnd).trim() === '';
      statements.push({ line: s.startPosition.row - first, whole });
    }
    const name = node.childForFieldName('name')?.text ?? 'anonymous';
    found.push({ language, text: dedented(text.slice(lineStart, node.endIndex)), title: `${name} (${origin})`, names: [], tokens: 0, statements });
  }
  return found;
}

/**
 * The corpus's functions, each once: two of the same text, or of the same structure (token kinds),
 * are one, since no structural measure can tell such a pair apart and a catalog holding both would
 * score a tie, not a miss. Nothing here depends on K or W, so runs with other values ask the same
 * queries of the same catalog.
 */
async function corpus(tokenizers: Tokenizers): Promise<Fn[]> {
  // The runtime is the one Grammars loaded (the same module): Parser.init again would replace it
  // under the Grammars that tokenizes.
  for (const language of LANGUAGES) await tokenizers.tokenize('x = 1', language);
  const treeSitter = await import('web-tree-sitter');
  const files = nodeGrammarFiles();
  const grammars = new Map<Lang, Language>();
  for (const language of LANGUAGES) grammars.set(language, await treeSitter.Language.load(await files(GRAMMAR_FILES[language])));
  const parser = new treeSitter.Parser();
  const seenTexts = new Set<string>();
  const seenShapes = new Set<string>();
  const out: Fn[] = [];
  try {
    for (const { file, language, origin } of corpusFiles()) {
      const text = fs.readFileSync(file, 'utf8').replace(/\r\n?/g, '\n');
      // Bundled or generated files of a megabyte hold no function a person wrote that others do not.
      if (text.length > 1_000_000) continue;
      parser.setLanguage(grammars.get(language)!);
      const tree = parser.parse(text);
      if (!tree) continue;
      let fns: Fn[];
      try {
        fns = functionsIn(tree.rootNode, text, language, origin);
      } finally {
        tree.delete();
      }
      for (const fn of fns) {
        if (seenTexts.has(fn.text)) continue;
        seenTexts.add(fn.text);
        const { tokens } = await tokenizers.tokenize(fn.text, language);
        const shape = `${language}\n${tokens.map((t) => t.kind).join(' ')}`;
        if (seenShapes.has(shape)) continue;
        seenShapes.add(shape);
        out.push({ ...fn, names: [...new Set(tokens.filter((t) => t.cls === 'name').map((t) => t.text))], tokens: tokens.length });
      }
    }
  } finally {
    parser.delete();
  }
  return out;
}

/** `text` with line `at` (0-based) replaced by `lines`. */
function spliceLine(text: string, at: number, remove: number, lines: string[]): string {
  const all = text.split('\n');
  all.splice(at, remove, ...lines);
  return all.join('\n');
}

function indentOfLine(text: string, line: number): string {
  return /^[ \t]*/.exec(text.split('\n')[line] ?? '')![0];
}

/** The refactoring each catalog code carries: a line naming a value, before its first statement, which adapt must carry over. */
function refactoringOf(fn: Fn): string {
  const statement = fn.statements[0];
  const name = fn.names[0] ?? 'value';
  const fresh = uniqueName('refactoredValue', new Set(fn.names));
  const line = fn.language === 'Python' ? `${fresh} = ${name}` : `const ${fresh} = ${name};`;
  if (!statement) return `${fn.text}\n${line}`;
  return spliceLine(fn.text, statement.line, 0, [indentOfLine(fn.text, statement.line) + line]);
}

function uniqueName(base: string, taken: ReadonlySet<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  return name;
}

/**
 * Words of the language, never renamed: a method taken out of its class parses as something else (a
 * call and a block, or an error), where `static`, `async` or `get` can come out as names, and no
 * person renaming their names renames those.
 */
const KEYWORDS: Record<Lang, ReadonlySet<string>> = {
  JavaScript: new Set(('break case catch class const continue debugger default delete do else export extends finally for function if import in ' +
    'instanceof new return super switch this throw try typeof var void while with yield let static async await get set of as from enum').split(' ')),
  Python: new Set(('False None True and as assert async await break class continue def del elif else except finally for from global if import in ' +
    'is lambda nonlocal not or pass raise return try while with yield match case type').split(' ')),
};

const NEW_NAMES = ['item', 'entry', 'node', 'part', 'total', 'other', 'value', 'piece', 'slot', 'state', 'cell', 'chunk'];

/** Where a name stands for a person renaming a function's locals: a member's place keeps its name. */
type Place = 'local' | 'member' | 'shorthand';

/**
 * The place of each leaf of `text` that is not a local's, by its start, read from its syntax tree
 * by the grammar's own node types (not from the tokenizer's roles, so that the benchmark does not
 * grade adapt by adapt's reading): in JavaScript a `property_identifier` (after `.` or `?.`, an
 * object's key, a method's name) and a `#private` one are a member's, and `{ href }` a shorthand; in Python an attribute's
 * name (`os.sep`) and a keyword argument's (`f(sep=…)`) are a member's.
 */
async function placesIn(tokenizers: Tokenizers, text: string, language: Lang): Promise<Map<number, Place>> {
  return tokenizers.grammars.withSyntaxTree(text, language, (root) => {
    const places = new Map<number, Place>();
    const types = ['property_identifier', 'private_property_identifier', 'shorthand_property_identifier', 'shorthand_property_identifier_pattern', 'identifier'];
    for (const node of root.descendantsOfType(types)) {
      if (!node) continue;
      const parent = node.parent;
      if (node.type === 'property_identifier' || node.type === 'private_property_identifier') places.set(node.startIndex, 'member');
      else if (node.type !== 'identifier') places.set(node.startIndex, 'shorthand');
      else if (language === 'Python' && parent && ((parent.type === 'attribute' && parent.childForFieldName('attribute')?.id === node.id)
        || (parent.type === 'keyword_argument' && parent.childForFieldName('name')?.id === node.id))) places.set(node.startIndex, 'member');
    }
    return places;
  });
}

const placeOf = (places: ReadonlyMap<number, Place>, t: Token): Place => places.get(t.start) ?? 'local';
const isRenamable = (t: Token, places: ReadonlyMap<number, Place>): boolean => t.cls === 'name' || placeOf(places, t) === 'shorthand';

/**
 * A renaming of a function's locals, as a person renames them: every name that stands as a local
 * somewhere becomes one new name there, and stays as it is in a member's place (`os.sep` keeps `sep`
 * where the local `sep` is renamed; `{ href }` becomes `{ href: node1 }`); KEYWORDS stay.
 */
function renaming(tokens: readonly Token[], places: ReadonlyMap<number, Place>, language: Lang, rnd: () => number): Map<string, string> {
  const names = [...new Set(tokens.filter((t) => isRenamable(t, places) && placeOf(places, t) !== 'member' && !KEYWORDS[language].has(t.text)).map((t) => t.text))];
  return freshNames(names, new Set(tokens.filter((t) => isRenamable(t, places)).map((t) => t.text)), rnd);
}

/** A new name for each of `names` (`entry3`), none of them in `taken` (which takes them), starting at random. */
export function freshNames(names: readonly string[], taken: Set<string>, rnd: () => number): Map<string, string> {
  const map = new Map<string, string>();
  let n = Math.floor(rnd() * NEW_NAMES.length);
  for (const name of names) {
    let to: string;
    do {
      to = `${NEW_NAMES[n % NEW_NAMES.length]}${Math.floor(n / NEW_NAMES.length) + 1}`;
      n++;
    } while (taken.has(to));
    taken.add(to);
    map.set(name, to);
  }
  return map;
}

const PUNCTUATION = new Set(['(', ')', '[', ']', '{', '}', ',', ';', ':']);

/**
 * `text` with its locals renamed through `names` (placesIn: a member's place keeps its name, a
 * shorthand becomes `key: new`) and, given `reformat`, its layout changed: every indentation doubled
 * (which keeps Python's blocks as they were), and spaces added between tokens written together or
 * taken away beside punctuation, at random. Comments stay as they were.
 */
function rewrite(text: string, tokens: readonly Token[], places: ReadonlyMap<number, Place>, names: ReadonlyMap<string, string>, reformat?: () => number): string {
  let out = '';
  let at = 0;
  tokens.forEach((t, i) => {
    let gap = text.slice(at, t.start);
    if (reformat) {
      const nl = gap.lastIndexOf('\n');
      if (nl >= 0) gap = gap.slice(0, nl + 1) + gap.slice(nl + 1).replace(/[ \t]/g, (c) => c + c);
      else if (gap === '' && i > 0 && reformat() < 0.3) gap = ' ';
      else if (gap === ' ' && (PUNCTUATION.has(t.text) || PUNCTUATION.has(tokens[i - 1]?.text ?? '')) && reformat() < 0.5) gap = '';
    }
    const to = names.get(t.text);
    const place = placeOf(places, t);
    let written = t.text;
    if (to !== undefined && place === 'shorthand') written = `${t.text}: ${to}`;
    else if (to !== undefined && place === 'local' && t.cls === 'name') written = to;
    out += gap + written;
    at = t.end;
  });
  return out + text.slice(at);
}

/** `fn` with one line added before a statement, or a statement's whole line replaced: a line that uses one of its names. */
function editedOneLine(fn: Fn, names: readonly string[], rnd: () => number): string {
  const name = names.length > 0 ? names[Math.floor(rnd() * names.length)] : 'value';
  const semicolon = fn.language === 'JavaScript' ? ';' : '';
  const whole = fn.statements.filter((s) => s.whole);
  if (whole.length > 0 && rnd() < 0.5) {
    const s = whole[Math.floor(rnd() * whole.length)];
    return spliceLine(fn.text, s.line, 1, [`${indentOfLine(fn.text, s.line)}${name} = debug(${name})${semicolon}`]);
  }
  if (fn.statements.length === 0) return `${fn.text}\ndebug(${name})${semicolon}`;
  const s = fn.statements[Math.floor(rnd() * fn.statements.length)];
  return spliceLine(fn.text, s.line, 0, [`${indentOfLine(fn.text, s.line)}debug(${name})${semicolon}`]);
}

interface Query {
  language: Lang;
  text: string;
  /** The catalog code it was made from; 0 for a function the catalog does not hold. */
  codeId: number;
  /** How many tokens that code has (0 for none). */
  codeTokens: number;
}

interface Ranked {
  query: Query;
  tokens: Token[];
  matches: SimilarMatch[];
  /** 0-based place of its catalog code among the matches, -1 when not among them. */
  rank: number;
}

function share(xs: readonly boolean[]): number {
  return xs.length === 0 ? 0 : xs.filter(Boolean).length / xs.length;
}

function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** The share for each language, for a note. */
/** The share of `flags` that hold, for each language of the queries, for a note. */
/** In catalog codes shorter than this many tokens, one line is a large part of the code: notes give their shares apart. */
const SHORT_CODE = 40;

/** The share of `flags` that hold for queries made from short codes and from the others, for a note. */
function bySize(rows: readonly Ranked[], flags: readonly boolean[]): string {
  const part = (what: string, test: (n: number) => boolean): string => {
    const own = flags.filter((_, i) => test(rows[i].query.codeTokens));
    return `codes of ${what} ${SHORT_CODE} tokens ${pct(share(own))} of ${own.length}`;
  };
  return `${part('under', (n) => n < SHORT_CODE)}, ${part('at least', (n) => n >= SHORT_CODE)}`;
}

function byLanguage(rows: readonly Ranked[], flags: readonly boolean[]): string {
  return LANGUAGES.filter((l) => rows.some((r) => r.query.language === l)).map((l) => {
    const own = flags.filter((_, i) => rows[i].query.language === l);
    return `${l} ${pct(share(own))} of ${own.length}`;
  }).join(', ');
}

/** Milliseconds from a fresh process's first call to tokenize in `language` to its tokens: the parser's runtime, the grammar and the first parse. */
function firstUse(language: Lang, text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'similarityFirstUse.js'), language], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(out.trim());
      if (code !== 0 || !Number.isFinite(ms)) reject(new Error(`similarityFirstUse ${language} exited ${code} with ${JSON.stringify(out)}`));
      else resolve(ms);
    });
    child.stdin.end(text);
  });
}

interface Catalog {
  /** Code `id` is `fns[id - 1]`, its one refactoring `refactorings[id - 1]`. */
  fns: Fn[];
  refactorings: string[];
  /** The codes queries are made from. */
  sources: Set<Fn>;
  /** Functions held out of the catalog. */
  outside: Fn[];
  languages: Lang[];
  /** How many of `fns` are functions as found (the rest are variants). */
  real: number;
}

/** The held-out functions, then the catalog: the languages in turn, each shuffled, to CATALOG codes. */
function catalogOf(pool: readonly Fn[], rnd: () => number): Catalog {
  const available = new Map(LANGUAGES.map((l) => [l, shuffled(pool.filter((f) => f.language === l), rnd)]));
  const languages = LANGUAGES.filter((l) => available.get(l)!.length >= 2 * QUERIES);
  const outside = languages.flatMap((l) => available.get(l)!.splice(0, QUERIES));
  const fns: Fn[] = [];
  for (let i = 0; fns.length < CATALOG; i++) {
    const left = languages.filter((l) => available.get(l)!.length > i);
    if (left.length === 0) break;
    for (const l of left) if (fns.length < CATALOG) fns.push(available.get(l)![i]);
  }
  const real = fns.length;
  // A machine with fewer functions (no python3) fills the catalog with variants of codes no query
  // is made from, so that the speed is measured over 10,000 codes all the same.
  const sources = new Set(languages.flatMap((l) => fns.filter((f) => f.language === l).slice(0, QUERIES)));
  const spare = fns.filter((f) => !sources.has(f));
  for (let i = 0; fns.length < CATALOG && spare.length > 0; i++) {
    const fn = spare[i % spare.length];
    fns.push({ ...fn, text: editedOneLine(fn, fn.names, rnd), title: `${fn.title} (variant)` });
  }
  return { fns, refactorings: fns.map((fn) => refactoringOf(fn)), sources, outside, languages, real };
}

/** The catalog as the service would give it: each code with its one refactoring. */
function codesOf(catalog: Catalog): Code[] {
  return catalog.fns.map((fn, i) => {
    const id = i + 1;
    return {
      id, title: fn.title, language: fn.language, permalink: '', code: fn.text, comment: '', createdAt: new Date(Date.UTC(2008, 0, 1, 0, i)),
      updatedAt: null, refactorsCount: 1, trackbackUrl: '', userId: 1,
      refactors: [{
        id: CATALOG + id, codeId: id, title: `Name the value (${fn.title})`, language: fn.language, code: catalog.refactorings[i], comment: '',
        createdAt: null, rating: null, ratingsCount: null, userId: 2, userName: 'bench', userWebsite: '',
      }],
    };
  });
}

interface Queries {
  /** Renamed only. */
  renamed: Query[];
  /** Renamed and reformatted. */
  reformatted: Query[];
  /** Renamed, one line added or changed, and reformatted. */
  edited: Query[];
  /** Each renamed query's renaming, by its code. */
  renamings: Map<number, Map<string, string>>;
  /** Reformatted queries whose token kinds differ from their code's (renaming and layout should change none but a shorthand's). */
  kindsChanged: number;
  /** The codes with a local renamed whose name a member there keeps (`sep = os.sep`). */
  sharing: Set<number>;
}

async function queriesOf(catalog: Catalog, tokenizers: Tokenizers, rnd: () => number): Promise<Queries> {
  const q: Queries = { renamed: [], reformatted: [], edited: [], renamings: new Map(), kindsChanged: 0, sharing: new Set() };
  for (const [i, fn] of catalog.fns.entries()) {
    if (!catalog.sources.has(fn)) continue;
    const codeId = i + 1;
    const { tokens } = await tokenizers.tokenize(fn.text, fn.language);
    const places = await placesIn(tokenizers, fn.text, fn.language);
    const map = renaming(tokens, places, fn.language, rnd);
    q.renamings.set(codeId, map);
    if (tokens.some((t) => placeOf(places, t) === 'member' && map.has(t.text))) q.sharing.add(codeId);
    q.renamed.push({ language: fn.language, codeId, codeTokens: tokens.length, text: rewrite(fn.text, tokens, places, map) });
    const layout = rewrite(fn.text, tokens, places, map, rnd);
    const again = (await tokenizers.tokenize(layout, fn.language)).tokens;
    if (again.map((t) => t.kind).join(' ') !== tokens.map((t) => t.kind).join(' ')) q.kindsChanged++;
    q.reformatted.push({ language: fn.language, codeId, codeTokens: tokens.length, text: layout });
    const oneLine = editedOneLine(fn, [...map.keys()], rnd);
    const editedTokens = (await tokenizers.tokenize(oneLine, fn.language)).tokens;
    q.edited.push({ language: fn.language, codeId, codeTokens: tokens.length, text: rewrite(oneLine, editedTokens, await placesIn(tokenizers, oneLine, fn.language), map, rnd) });
  }
  return q;
}

/** Each query's matches, timing the tokenizing apart from the fingerprinting and the query. */
async function ranked(queries: readonly Query[], index: SimilarityIndex, tokenizers: Tokenizers, queryMs: number[], tokenizeMs: number[]): Promise<Ranked[]> {
  const out: Ranked[] = [];
  for (const query of queries) {
    let t0 = performance.now();
    const { tokens } = await tokenizers.tokenize(query.text, query.language);
    tokenizeMs.push(performance.now() - t0);
    t0 = performance.now();
    const matches = index.query(fingerprint(tokens), query.language);
    queryMs.push(performance.now() - t0);
    out.push({ query, tokens, matches, rank: matches.findIndex((m) => m.codeId === query.codeId) });
  }
  return out;
}

/** adapt() of code `codeId`'s refactoring to a query's text, as the CLI's `adapt` calls it (the service's texts). */
async function adaptTo(catalog: Catalog, codeId: number, user: Ranked, tokenizers: Tokenizers): Promise<Adapted> {
  const fn = catalog.fns[codeId - 1];
  const refactoring = catalog.refactorings[codeId - 1];
  const original = (await tokenizers.tokenize(fn.text, fn.language)).tokens;
  const refactor = (await tokenizers.tokenize(refactoring, fn.language)).tokens;
  return adapt({ text: fn.text, tokens: original }, { text: refactoring, tokens: refactor }, { text: user.query.text, tokens: user.tokens });
}

export async function similarityFigures(): Promise<Figure[]> {
  const tokenizers = new Tokenizers(new Grammars(nodeGrammarFiles()));
  const rnd = random(SEED);
  const catalog = catalogOf(await corpus(tokenizers), rnd);
  const codes = codesOf(catalog);

  let started = performance.now();
  const search = CodeSearch.empty();
  search.addCodes(codes);
  const searchFile = search.toJSON();
  const searchMs = performance.now() - started;
  started = performance.now();
  const index = new SimilarityIndex();
  await index.update(search, tokenizers);
  const printMs = performance.now() - started;
  const printsFile = index.toJSON();

  const queries = await queriesOf(catalog, tokenizers, rnd);
  const held: Query[] = catalog.outside.map((fn) => ({ language: fn.language, text: fn.text, codeId: 0, codeTokens: 0 }));
  // Untimed: the first queries of a process compile the code they run.
  for (const q of held.slice(0, 20)) index.query(fingerprint((await tokenizers.tokenize(q.text, q.language)).tokens), q.language);
  const queryMs: number[] = [];
  const tokenizeMs: number[] = [];
  const asRenamed = await ranked(queries.renamed, index, tokenizers, queryMs, tokenizeMs);
  const asReformatted = await ranked(queries.reformatted, index, tokenizers, queryMs, tokenizeMs);
  const asEdited = await ranked(queries.edited, index, tokenizers, queryMs, tokenizeMs);
  const asOutside = await ranked(held, index, tokenizers, queryMs, tokenizeMs);

  const trueScores = asEdited.filter((r) => r.rank >= 0).map((r) => r.matches[r.rank].similarity);
  const trueMedian = trueScores.length > 0 ? median(trueScores) : 1;
  const outsideTop = asOutside.map((r) => r.matches[0]?.similarity ?? 0);

  // Adapting: a renamed copy gets the refactoring in its names, exactly; code of another shape
  // (its code with a line added or changed, or another function) is refused.
  const exact: boolean[] = [];
  for (const r of asRenamed) {
    const refactoring = catalog.refactorings[r.query.codeId - 1];
    const refactorTokens = (await tokenizers.tokenize(refactoring, r.query.language)).tokens;
    const expected = rewrite(refactoring, refactorTokens, await placesIn(tokenizers, refactoring, r.query.language), queries.renamings.get(r.query.codeId)!);
    const got = await adaptTo(catalog, r.query.codeId, r, tokenizers);
    exact.push(got.ok && got.text === expected);
  }
  const sharingExact = exact.filter((_, i) => queries.sharing.has(asRenamed[i].query.codeId));
  const sharingNote = `${pct(share(sharingExact))} of ${sharingExact.length}`;
  const refusedEdited: boolean[] = [];
  for (const r of asEdited) refusedEdited.push(!(await adaptTo(catalog, r.query.codeId, r, tokenizers)).ok);
  const refusedOther: boolean[] = [];
  for (const r of asOutside) {
    // Its best match, as the feature would offer it; else a catalog code of its language at random.
    const sameLanguage = catalog.fns.map((f, i) => [f, i + 1] as const).filter(([f]) => f.language === r.query.language);
    const codeId = r.matches[0]?.codeId ?? sameLanguage[Math.floor(rnd() * sameLanguage.length)][1];
    refusedOther.push(!(await adaptTo(catalog, codeId, r, tokenizers)).ok);
  }

  const firstUseMs = new Map<Lang, number[]>();
  for (const language of catalog.languages) {
    const text = catalog.outside.find((f) => f.language === language)!.text;
    const runs: number[] = [];
    for (let i = 0; i < FIRST_USE_RUNS; i++) runs.push(await firstUse(language, text));
    firstUseMs.set(language, runs);
  }

  const counts = catalog.languages.map((l) => `${catalog.fns.filter((f) => f.language === l).length} ${l}`).join(', ');
  const variants = catalog.fns.length - catalog.real;
  const about = `over ${catalog.fns.length} codes (${counts}${variants > 0 ? `; ${variants} of them variants` : ''}) with one refactoring each`;
  const short = `${pct(share(catalog.fns.map((f) => f.tokens < SHORT_CODE)))} of the catalog's codes have under ${SHORT_CODE} tokens`;
  const shareOf = (name: string, goal: number | null, rows: readonly Ranked[], flags: readonly boolean[], note: string): Figure =>
    figure({ name, goal, unit: 'share', higherIsBetter: true, note: `${note}: ${byLanguage(rows, flags)}` }, share(flags), 1);
  const inFirst = (rows: readonly Ranked[], n: number): boolean[] => rows.map((r) => r.rank >= 0 && r.rank < n);
  const renamedNote = `renamed and reformatted catalog codes (${queries.kindsChanged} of ${asReformatted.length} with a token kind changed by it)`;
  const editedNote = 'catalog codes renamed, one line added or changed, and reformatted,';
  const kb = (text: string): number => Buffer.byteLength(text) / 1000;
  return [
    shareOf('similarity.top1.renamed', 0.95, asReformatted, inFirst(asReformatted, 1), `${renamedNote} ranking their code first ${about}`),
    shareOf('similarity.top5.renamed', 0.99, asReformatted, inFirst(asReformatted, 5), `${renamedNote} ranking their code within the first five`),
    shareOf('similarity.top1.edited', 0.95, asEdited, inFirst(asEdited, 1), `${editedNote} ranking their code first (${bySize(asEdited, inFirst(asEdited, 1))}; ${short})`),
    shareOf('similarity.top5.edited', 0.99, asEdited, inFirst(asEdited, 5), `${editedNote} ranking their code within the first five (${bySize(asEdited, inFirst(asEdited, 5))})`),
    shareOf('similarity.outside.below', null, asOutside, outsideTop.map((v) => v < trueMedian),
      `functions the catalog does not hold whose best score is below the median score of the edited queries' own codes (${trueMedian.toFixed(3)}); their best scores' median ${median(outsideTop).toFixed(3)}, p90 ${percentile(outsideTop, 90).toFixed(3)}`),
    shareOf('similarity.outside.none', null, asOutside, asOutside.map((r) => r.matches.length === 0),
      `functions the catalog does not hold with no match at or above MIN_SIMILARITY (${MIN_SIMILARITY})`),
    shareOf('similarity.adapt.exact', 0.95, asRenamed, exact,
      `renamed catalog codes whose refactoring, adapted, is the refactoring renamed alike, to the character (locals renamed, members kept; with a local named like a member ${sharingNote})`),
    shareOf('similarity.adapt.refused.edited', 0.99, asEdited, refusedEdited,
      'edited queries (one line added or changed) for which adapting their own code\'s refactoring is refused'),
    shareOf('similarity.adapt.refused.other', 0.99, asOutside, refusedOther,
      'functions the catalog does not hold for which adapting their best match\'s refactoring is refused'),
    figure({ name: 'similarity.query.median', goal: 1, unit: 'ms',
      note: `fingerprint(query's tokens) + SimilarityIndex.query, median of ${queryMs.length} queries ${about}; baseline the ${BUDGET_MEDIAN_MS} ms budget` },
    median(queryMs), BUDGET_MEDIAN_MS),
    figure({ name: 'similarity.query.p99', goal: 1, unit: 'ms', note: `the same, 99th percentile; baseline the ${BUDGET_P99_MS} ms budget` },
      percentile(queryMs, 99), BUDGET_P99_MS),
    figure({ name: 'similarity.tokenize', goal: null, unit: 'ms',
      note: `tokenizing a query (its syntax tree and leaves), median of ${tokenizeMs.length}, p99 ${percentile(tokenizeMs, 99).toFixed(2)} ms: before the query, not in its budget; baseline the ${BUDGET_MEDIAN_MS} ms budget` },
    median(tokenizeMs), BUDGET_MEDIAN_MS),
    ...catalog.languages.map((l) => figure({ name: `similarity.firstUse.${l.toLowerCase()}`, goal: 1, unit: 'ms',
      note: `a fresh process's first tokenize in ${l}: web-tree-sitter's module and runtime, the grammar, the first parse; median of ${FIRST_USE_RUNS} (${firstUseMs.get(l)!.map((v) => v.toFixed(0)).join(', ')}); baseline the ${BUDGET_FIRST_USE_MS} ms budget` },
    median(firstUseMs.get(l)!), BUDGET_FIRST_USE_MS)),
    figure({ name: 'similarity.size', goal: 0.25, unit: 'KB',
      note: `SimilarityIndex.toJSON() against CodeSearch.toJSON() of the same catalog (${about}; no comments)` },
    kb(printsFile), kb(searchFile)),
    figure({ name: 'similarity.fingerprinting', goal: null, unit: 'ms',
      note: `SimilarityIndex.update over the whole catalog (${about}); baseline CodeSearch.addCodes and toJSON of it` },
    printMs, searchMs),
    ...await adaptRealFigures(tokenizers),
  ];
}
