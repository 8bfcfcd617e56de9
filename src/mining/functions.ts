// The named functions of a source file, found in its syntax tree (the grammars similarity loads):
// functions and methods in every language with a grammar, and in JavaScript also the functions bound
// to a name (`exports.name = function…`, `obj.name = function…`, `const name = () => …`). Each is
// known by its name within its classes and modules (`Router.handle`), so that the same function is
// found again in another version of the file; a name the file holds twice (overloads, redefinitions)
// is left out, since which of them is which cannot be told. Functions inside a function found are
// part of it.
import type { Node } from 'web-tree-sitter';

export interface NamedFunction {
  /** Its name, after those of the classes and modules around it, joined by dots. */
  key: string;
  /** Its text as the file holds it: from the start of its first line (indentation and all) when nothing else is on that line before it. */
  text: string;
  /** 1-based, first and last line. */
  lines: [number, number];
}

/** Node types that are a function or method with a name of its own. */
const DECLARED = new Set([
  'function_declaration', 'generator_function_declaration', 'function_definition', 'method_definition', 'method_declaration',
  'constructor_declaration', 'method', 'singleton_method', 'local_function_statement',
]);
/** Functions without a name of their own, named by what they are bound to (JavaScript). */
const ANONYMOUS = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
/** Node types that hold functions under a name: classes, modules, namespaces. */
const SCOPES = new Set([
  'class_declaration', 'class_definition', 'class', 'module', 'class_specifier', 'struct_specifier', 'interface_declaration',
  'struct_declaration', 'namespace_declaration', 'namespace_definition', 'enum_declaration', 'record_declaration', 'trait_declaration',
]);

/** The name a declaration gives: its `name` field, else the innermost of its declarators (C and C++). */
function declaredName(node: Node): string | undefined {
  const name = node.childForFieldName('name');
  if (name) return name.text;
  let declarator = node.childForFieldName('declarator');
  while (declarator?.childForFieldName('declarator')) declarator = declarator.childForFieldName('declarator');
  return declarator?.text;
}

/** A JavaScript statement binding one function to a name: the statement and the name, or undefined. */
function boundFunction(node: Node): { span: Node; name: string } | undefined {
  if (node.type === 'expression_statement') {
    const assignment = node.namedChild(0);
    if (assignment?.type !== 'assignment_expression') return undefined;
    const left = assignment.childForFieldName('left');
    const right = assignment.childForFieldName('right');
    return left && right && ANONYMOUS.has(right.type) ? { span: node, name: left.text } : undefined;
  }
  if (node.type === 'lexical_declaration' || node.type === 'variable_declaration') {
    const declarators = node.namedChildren.filter((c) => c?.type === 'variable_declarator');
    if (declarators.length !== 1) return undefined;
    const name = declarators[0].childForFieldName('name');
    const value = declarators[0].childForFieldName('value');
    return name?.type === 'identifier' && value && ANONYMOUS.has(value.type) ? { span: node, name: name.text } : undefined;
  }
  return undefined;
}

/** The named functions under `root` of a tree of `text`. */
export function namedFunctions(root: Node, text: string): NamedFunction[] {
  const found: Array<NamedFunction & { start: number }> = [];
  const stack: Array<{ node: Node; scope: string[] }> = [{ node: root, scope: [] }];
  while (stack.length > 0) {
    const { node, scope } = stack.pop()!;
    let span: Node | undefined;
    let name: string | undefined;
    if (DECLARED.has(node.type)) {
      name = declaredName(node);
      // A Python function's decorators are part of it.
      span = node.parent?.type === 'decorated_definition' ? node.parent : node;
    } else {
      const bound = boundFunction(node);
      if (bound) ({ span, name } = bound);
    }
    if (span && name) {
      const lineStart = text.lastIndexOf('\n', span.startIndex - 1) + 1;
      const start = text.slice(lineStart, span.startIndex).trim() === '' ? lineStart : span.startIndex;
      found.push({ key: [...scope, name].join('.'), text: text.slice(start, span.endIndex), lines: [span.startPosition.row + 1, span.endPosition.row + 1], start });
      continue;
    }
    // A scope without a name (Python's whole file is a `module`, a class expression) adds none.
    const scopeName = SCOPES.has(node.type) ? declaredName(node) : undefined;
    const inner = scopeName === undefined ? scope : [...scope, scopeName];
    for (let i = node.namedChildCount - 1; i >= 0; i--) {
      const child = node.namedChild(i);
      if (child) stack.push({ node: child, scope: inner });
    }
  }
  const counts = new Map<string, number>();
  for (const f of found) counts.set(f.key, (counts.get(f.key) ?? 0) + 1);
  return found.filter((f) => counts.get(f.key) === 1).sort((a, b) => a.start - b.start).map(({ key, text: t, lines }) => ({ key, text: t, lines }));
}
