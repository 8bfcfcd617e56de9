// Makes test/fixtures/adapt-real/<language>.json: real functions from a package's sources, each
// renamed as a person renames (every local and parameter, with its uses; members, keys and keyword
// arguments kept), and the line a refactoring adds in both spellings. Run by hand, once per
// language, on sources on disk; the fixture is what tests and the benchmark read.
//
//   node out/scripts/adaptCorpus.js <Python|JavaScript|TypeScript|Java|Ruby|C#> <folder> <repository> <commit> <licence> [more folders…]
//
// Who says what a local is: for Python, Python's own parser (the `ast` module, run with python3);
// for JavaScript and TypeScript, TypeScript's rename (findRenameLocations, as VS Code renames, which
// writes `{ href }` as `{ href: link }`); for Java, Ruby and C#, the declarations a tree-sitter tree
// holds (parameters, local variables, loop, catch and block variables) and every identifier spelt as
// one of them that is not in a member's place (after `.`, a named argument, a method's name).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import type { Language, Node } from 'web-tree-sitter';
import { freshNames, random } from '../bench/similarity';
import { nodeGrammarFiles } from '../src/cli/grammarFiles';

type Lang = 'Python' | 'JavaScript' | 'TypeScript' | 'Java' | 'Ruby' | 'C#';

export interface RealFunction {
  /** The function's name and file, relative to the repository. */
  name: string;
  file: string;
  original: string;
  renamed: string;
  /** Each local renamed, old name to new. */
  names: Record<string, string>;
  /** Some local shares its name with a member, key or keyword argument the renaming kept. */
  sharesMemberName: boolean;
  /** The line the refactoring adds (0-based, before that line), as it reads in each text. */
  added: { line: number; original: string; renamed: string };
}

export interface RealCorpus {
  language: Lang;
  repository: string;
  commit: string;
  licence: string;
  functions: RealFunction[];
}

const GRAMMAR: Record<Lang, string> = {
  Python: 'python', JavaScript: 'javascript', TypeScript: 'typescript', Java: 'java', Ruby: 'ruby', 'C#': 'c-sharp',
};
const FUNCTIONS: Record<Lang, string[]> = {
  Python: ['function_definition'],
  JavaScript: ['function_declaration', 'method_definition'],
  TypeScript: ['function_declaration', 'method_definition'],
  Java: ['method_declaration', 'constructor_declaration'],
  Ruby: ['method', 'singleton_method'],
  'C#': ['method_declaration', 'constructor_declaration'],
};
const EXTENSIONS: Record<Lang, RegExp> = {
  Python: /\.py$/, JavaScript: /\.c?js$/, TypeScript: /(?<!\.d)\.ts$/, Java: /\.java$/, Ruby: /\.rb$/, 'C#': /\.cs$/,
};
const PER_LANGUAGE = 24;

function filesUnder(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && !/^(test|tests|idle_test|site-packages|lib2to3|__pycache__|node_modules)$/.test(e.name)) out.push(...filesUnder(p, ext));
    else if (e.isFile() && ext.test(e.name) && !e.name.endsWith('.min.js')) out.push(p);
  }
  return out;
}

function dedent(text: string): string {
  const lines = text.split('\n').map((l) => l.replace(/[ \t]+$/, ''));
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length);
  const common = Math.min(...indents);
  return lines.map((l) => l.slice(common)).join('\n');
}

/** An edit of `text`: [start, end) replaced. */
type Edit = [number, number, string];

function applied(text: string, edits: Edit[]): string {
  let out = text;
  for (const [s, e, t] of [...edits].sort((a, b) => b[0] - a[0])) out = out.slice(0, s) + t + out.slice(e);
  return out;
}

/** Python: the locals' places by Python's own parser, (line, column in characters, name). */
const PYTHON_LOCALS = String.raw`
import ast, json, sys
out = []
for text in json.load(sys.stdin):
    try:
        fn = ast.parse(text).body[0]
    except SyntaxError:
        out.append(None); continue
    lines = text.split('\n')
    def col(line, byte):
        return len(lines[line - 1].encode('utf-8')[:byte].decode('utf-8'))
    skip = set()
    for n in ast.walk(fn):
        if isinstance(n, (ast.Global, ast.Nonlocal)): skip.update(n.names)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not fn: skip.add(n.name)
        if isinstance(n, ast.ExceptHandler) and n.name: skip.add(n.name)
        if isinstance(n, ast.alias): skip.add((n.asname or n.name).split('.')[0])
        if isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name: skip.add(n.name)
    bound = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.arg): bound.add(n.arg)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store): bound.add(n.id)
    bound -= skip | {'self', 'cls'}
    places = []
    for n in ast.walk(fn):
        if isinstance(n, ast.arg) and n.arg in bound: places.append((n.lineno, col(n.lineno, n.col_offset), n.arg))
        if isinstance(n, ast.Name) and n.id in bound: places.append((n.lineno, col(n.lineno, n.col_offset), n.id))
    out.append(places)
json.dump(out, sys.stdout)
`;

function pythonRenames(texts: string[]): Array<Array<[number, number, string]> | null> {
  const out = execFileSync('python3', ['-c', PYTHON_LOCALS], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 1 << 28 });
  return JSON.parse(out) as Array<Array<[number, number, string]> | null>;
}

/** JavaScript and TypeScript: TypeScript's own rename of each local declared in the function. */
function typescriptEdits(text: string, language: Lang, method: boolean, names: Map<string, string>): Edit[] | undefined {
  const prefix = method ? 'class Wrapper {\n' : '';
  const source = prefix + text + (method ? '\n}\n' : '\n');
  const fileName = language === 'TypeScript' ? '/f.ts' : '/f.js';
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => ({ allowJs: true, noLib: true, target: ts.ScriptTarget.ES2022 }),
    getScriptFileNames: () => [fileName],
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => (f === fileName ? ts.ScriptSnapshot.fromString(source) : undefined),
    getCurrentDirectory: () => '/',
    getDefaultLibFileName: () => '/lib.d.ts',
    fileExists: (f) => f === fileName,
    readFile: (f) => (f === fileName ? source : undefined),
  };
  const service = ts.createLanguageService(host);
  const file = service.getProgram()!.getSourceFile(fileName)!;
  const declared: ts.Identifier[] = [];
  let outer: ts.Node | undefined;
  const visit = (n: ts.Node): void => {
    if (!outer && (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isConstructorDeclaration(n) || ts.isGetAccessor(n) || ts.isSetAccessor(n))) outer = n;
    const p = n.parent;
    if (ts.isIdentifier(n) && p && outer && p !== outer && n.text !== 'this'
      && ((ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isBindingElement(p) || ts.isFunctionDeclaration(p)) && p.name === n)) declared.push(n);
    ts.forEachChild(n, visit);
  };
  visit(file);
  const edits = new Map<number, Edit>();
  for (const id of declared) {
    const to = names.get(id.text);
    if (!to) continue;
    const locations = service.findRenameLocations(fileName, id.getStart(file), false, false, { providePrefixAndSuffixTextForRename: true });
    if (!locations) return undefined;
    for (const l of locations) {
      const start = l.textSpan.start - prefix.length;
      if (start < 0 || start >= text.length) return undefined;
      edits.set(start, [start, start + l.textSpan.length, `${l.prefixText ?? ''}${to}${l.suffixText ?? ''}`]);
    }
  }
  return [...edits.values()];
}

/** Java, Ruby, C#: the names a function declares, by its tree. */
function declaredIn(fn: Node, language: Lang): Set<string> {
  const names = new Set<string>();
  const add = (n: Node | null): void => {
    if (n && n.type === 'identifier') names.add(n.text);
  };
  for (const n of fn.descendantsOfType(['identifier'])) {
    if (!n) continue;
    const p = n.parent!;
    const field = fieldOf(n);
    if (language === 'Java') {
      if ((p.type === 'variable_declarator' && field === 'name' && p.parent?.type === 'local_variable_declaration')
        || (['formal_parameter', 'catch_formal_parameter', 'enhanced_for_statement', 'spread_parameter'].includes(p.type) && field === 'name')
        || (p.type === 'lambda_expression' && field === 'parameters') || p.type === 'inferred_parameters') add(n);
      if (p.type === 'variable_declarator' && p.parent?.type === 'spread_parameter') add(n);
    } else if (language === 'Ruby') {
      if (['method_parameters', 'block_parameters', 'lambda_parameters', 'left_assignment_list', 'exception_variable'].includes(p.type)
        || (['optional_parameter', 'splat_parameter', 'hash_splat_parameter', 'block_parameter'].includes(p.type) && field === 'name')
        || ((p.type === 'assignment' || p.type === 'operator_assignment') && field === 'left') || (p.type === 'for' && field === 'pattern')) add(n);
    } else if (language === 'C#') {
      if ((p.type === 'variable_declarator' && field === 'name' && p.parent?.type === 'variable_declaration' && !/field_declaration$/.test(p.parent.parent?.type ?? ''))
        || (p.type === 'parameter' && field === 'name') || (p.type === 'foreach_statement' && field === 'left')
        || (p.type === 'catch_declaration' && field === 'name') || p.type === 'single_variable_designation'
        || p.type === 'implicit_parameter' || (p.type === 'lambda_expression' && field === 'parameters')) add(n);
    }
  }
  return names;
}

function fieldOf(n: Node): string | null {
  const p = n.parent;
  if (!p) return null;
  for (let i = 0; i < p.childCount; i++) if (p.child(i)?.id === n.id) return p.fieldNameForChild(i);
  return null;
}

/** Whether identifier `n` stands where a member's name does (so a local's rename leaves it). */
function memberPlace(n: Node, language: Lang): boolean {
  const before = n.previousSibling;
  if (before && ['.', '&.', '?.', '::', '->'].includes(before.type)) return true;
  const p = n.parent!;
  const field = fieldOf(n);
  if (language === 'Java') return p.type === 'method_invocation' && field === 'name';
  if (language === 'Ruby') return p.type === 'call' && field === 'method';
  if (language === 'C#') {
    return (p.type === 'argument' && field === 'name') || (p.type === 'assignment_expression' && field === 'left' && p.parent?.type === 'initializer_expression');
  }
  return false;
}

/** The line a statement is added before: the body's first statement, beginning a line of its own. */
function firstStatementLine(fn: Node, text: string, base: number): { line: number; indent: string } | undefined {
  const body = fn.childForFieldName('body') ?? fn.children.find((c) => c?.type === 'body_statement') ?? null;
  const first = body?.namedChildren.find((c) => c && !/comment/.test(c.type));
  if (!first) return undefined;
  const row = first.startPosition.row - base;
  const line = text.split('\n')[row];
  if (row <= 0 || line === undefined) return undefined;
  const indent = /^[ \t]*/.exec(line)![0];
  if (!line.slice(indent.length).startsWith(first.text.split('\n')[0])) return undefined;
  return { line: row, indent };
}

function addedLine(language: Lang, indent: string, name: string): string {
  if (language === 'Python' || language === 'Ruby') return `${indent}refactored_value = ${name}`;
  if (language === 'Java' || language === 'C#') return `${indent}var refactoredValue = ${name};`;
  return `${indent}const refactoredValue = ${name};`;
}

async function main(): Promise<void> {
  const [language, folder, repository, commit, licence, ...more] = process.argv.slice(2) as [Lang, string, string, string, string, ...string[]];
  if (!GRAMMAR[language] || !folder || !repository || !commit || !licence) {
    throw new Error('usage: adaptCorpus <Python|JavaScript|TypeScript|Java|Ruby|C#> <folder> <repository> <commit> <licence> [more folders…]');
  }
  const treeSitter = await import('web-tree-sitter');
  const files = nodeGrammarFiles();
  await treeSitter.Parser.init({ wasmBinary: await files('web-tree-sitter.wasm'), locateFile: (f: string) => f });
  const wasm = path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm', `tree-sitter-${GRAMMAR[language]}.wasm`);
  const grammar: Language = await treeSitter.Language.load(fs.readFileSync(wasm));
  const parser = new treeSitter.Parser();
  parser.setLanguage(grammar);
  const rnd = random(20_261_207);
  interface Candidate { name: string; file: string; text: string; method: boolean; at: { line: number; indent: string } }
  const candidates: Candidate[] = [];
  const roots = [folder, ...more];
  for (const root of roots) {
    for (const file of filesUnder(root, EXTENSIONS[language])) {
      const source = fs.readFileSync(file, 'utf8').replace(/\r\n?/g, '\n');
      if (source.length > 300_000) continue;
      const tree = parser.parse(source)!;
      for (const node of tree.rootNode.descendantsOfType(FUNCTIONS[language])) {
        if (!node || node.hasError) continue;
        const lines = node.endPosition.row - node.startPosition.row + 1;
        if (lines < 5 || lines > 25) continue;
        const lineStart = source.lastIndexOf('\n', node.startIndex - 1) + 1;
        if (source.slice(lineStart, node.startIndex).trim() !== '') continue;
        const text = dedent(source.slice(lineStart, node.endIndex));
        if (text.length > 1200) continue;
        const at = firstStatementLine(node, text, node.startPosition.row);
        if (!at) continue;
        candidates.push({ name: node.childForFieldName('name')?.text ?? 'anonymous', file: path.relative(path.dirname(root), file), text, method: node.type === 'method_definition', at });
      }
    }
  }
  const pyPlaces = language === 'Python' ? pythonRenames(candidates.map((c) => c.text)) : [];
  const made: RealFunction[] = [];
  candidates.forEach((c, i) => {
    const reparsed = parser.parse(c.text)!;
    const fn = reparsed.rootNode.descendantsOfType(FUNCTIONS[language])[0] ?? reparsed.rootNode;
    const identifiers = fn.descendantsOfType(['identifier', 'property_identifier', 'shorthand_property_identifier', 'shorthand_property_identifier_pattern', 'hash_key_symbol', 'constant', 'field_identifier', 'type_identifier']);
    const taken = new Set(identifiers.map((n) => n.text));
    let edits: Edit[] | undefined;
    let locals: string[];
    let names: Map<string, string>;
    const starts = [0];
    for (let j = c.text.indexOf('\n'); j >= 0; j = c.text.indexOf('\n', j + 1)) starts.push(j + 1);
    if (language === 'Python') {
      const places = pyPlaces[i];
      if (!places) return;
      locals = [...new Set(places.map((p) => p[2]))];
      names = freshNames(locals, taken, rnd);
      edits = [];
      for (const [line, col, name] of places) {
        const start = starts[line - 1] + col;
        if (c.text.slice(start, start + name.length) !== name) return;
        edits.push([start, start + name.length, names.get(name)!]);
      }
    } else if (language === 'JavaScript' || language === 'TypeScript') {
      locals = [...new Set(identifiers.filter((n) => n.type === 'identifier' || n.type === 'shorthand_property_identifier_pattern').map((n) => n.text))];
      names = freshNames(locals, taken, rnd);
      edits = typescriptEdits(c.text, language, c.method, names);
      if (!edits) return;
      const touched = new Set(edits.map((e) => c.text.slice(e[0], e[1])));
      for (const n of [...names.keys()]) if (!touched.has(n)) names.delete(n);
      locals = [...names.keys()];
    } else {
      locals = [...declaredIn(fn, language)];
      names = freshNames(locals, taken, rnd);
      edits = identifiers.filter((n) => n.type === 'identifier' && names.has(n.text) && !memberPlace(n, language))
        .map((n) => [n.startIndex, n.endIndex, names.get(n.text)!] as Edit);
    }
    reparsed.delete();
    if (locals.length === 0 || edits.length === 0) return;
    const renamed = applied(c.text, edits);
    // A name a renaming kept though a local had it: a member, a key, a keyword argument.
    const keptTree = parser.parse(renamed)!;
    const kept = new Set(keptTree.rootNode.descendantsOfType(['identifier', 'property_identifier', 'shorthand_property_identifier', 'shorthand_property_identifier_pattern', 'hash_key_symbol', 'field_identifier']).map((n) => n.text));
    keptTree.delete();
    const shares = locals.filter((l) => kept.has(l));
    const addedName = shares[0] ?? locals[0];
    if (renamed.split('\n').length !== c.text.split('\n').length) return;
    made.push({
      name: c.name, file: c.file, original: c.text, renamed, names: Object.fromEntries(names), sharesMemberName: shares.length > 0,
      added: { line: c.at.line, original: addedLine(language, c.at.indent, addedName), renamed: addedLine(language, c.at.indent, names.get(addedName)!) },
    });
  });
  // Half whose locals share a name with a member (this corpus's point), half any others, drawn at random.
  const pick = (xs: RealFunction[], n: number): RealFunction[] => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out.slice(0, n);
  };
  const sharing = pick(made.filter((f) => f.sharesMemberName), PER_LANGUAGE / 2);
  const others = pick(made.filter((f) => !sharing.includes(f)), PER_LANGUAGE - sharing.length);
  const corpus: RealCorpus = { language, repository, commit, licence, functions: [...sharing, ...others] };
  process.stderr.write(`${language}: ${candidates.length} functions, ${made.length} renamed, ${made.filter((f) => f.sharesMemberName).length} with a local named as a member\n`);
  process.stdout.write(`${JSON.stringify(corpus, null, 1)}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
