// The named functions mining compares, found in each grammar's syntax tree: functions and methods
// under the names of their classes and modules, JavaScript's functions bound to a name, a name the
// file holds twice left out, and each text from the start of its line as the file holds it.
import { strict as assert } from 'node:assert';
import { nodeGrammarFiles } from '../../../src/cli/grammarFiles';
import { namedFunctions } from '../../../src/mining/functions';
import { Grammars } from '../../../src/similarity/grammars';

const grammars = new Grammars(nodeGrammarFiles());
const keys = (text: string, language: string): Promise<string[]> => grammars.withSyntaxTree(text, language, (root) => namedFunctions(root, text).map((f) => f.key));

describe('mining: the named functions of a file', () => {
  it('names functions and methods under their classes and modules, in every language with a grammar', async () => {
    assert.deepEqual(await keys('module Shop\n  class Cart\n    def total\n      1\n    end\n    def self.empty\n      nil\n    end\n  end\nend\n', 'Ruby'),
      ['Shop.Cart.total', 'Shop.Cart.empty']);
    assert.deepEqual(await keys('class Cart:\n    @property\n    def total(self):\n        return 1\n\ndef main():\n    pass\n', 'Python'), ['Cart.total', 'main']);
    assert.deepEqual(await keys('class Cart {\n  Cart() {}\n  int total() { return 1; }\n}\n', 'Java'), ['Cart.Cart', 'Cart.total']);
    assert.deepEqual(await keys('namespace Shop {\n  class Cart {\n    int Total() { return 1; }\n  }\n}\n', 'C#'), ['Shop.Cart.Total']);
    assert.deepEqual(await keys('<?php\nfunction total() { return 1; }\nclass Cart { function count() { return 2; } }\n', 'PHP'), ['total', 'Cart.count']);
    assert.deepEqual(await keys('int total(int *xs, int n) {\n  return n;\n}\nstatic char *name(void) { return 0; }\n', 'C'), ['total', 'name']);
    assert.deepEqual(await keys('namespace shop {\nint Cart::total() const { return 1; }\n}\n', 'C++'), ['shop.Cart::total']);
    assert.deepEqual(await keys('total() {\n  echo 1\n}\nfunction clean {\n  :\n}\n', 'Bash'), ['total', 'clean']);
  });

  it('names JavaScript functions bound to a name, and leaves out a name given twice and the functions inside one', async () => {
    const text = [
      'function total(a) {\n  function inner() {}\n  return a;\n}',
      'exports.parse = function (t) {\n  return t;\n};',
      'app.listen = function listen() {};',
      'const double = (x) => x * 2;',
      'let a = 1, b = () => 2;',
      'class Router {\n  handle(req) {}\n  get size() { return 0; }\n}',
      'function twice() {}\nfunction twice() {}',
    ].join('\n');
    assert.deepEqual(await keys(text, 'JavaScript'), ['total', 'exports.parse', 'app.listen', 'double', 'Router.handle', 'Router.size']);
  });

  it('takes a function from the start of its line, indentation and decorators and all, as the file holds it', async () => {
    const text = 'class Cart:\r\n    @cached\r\n    def total(self):\r\n        return 1\r\n';
    const [fn] = await grammars.withSyntaxTree(text, 'Python', (root) => namedFunctions(root, text));
    assert.deepEqual(fn, { key: 'Cart.total', text: '    @cached\r\n    def total(self):\r\n        return 1', lines: [2, 4] });
    const js = 'module.exports = { a: 1 }; exports.b = function () {\n  return 2;\n};\n';
    const [bound] = await grammars.withSyntaxTree(js, 'JavaScript', (root) => namedFunctions(root, js));
    assert.equal(bound.text, 'exports.b = function () {\n  return 2;\n};', 'not from the start of a line that holds other code');
  });
});
