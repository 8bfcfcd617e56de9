// Adapting a refactoring to the user's names, as a person relies on it: the exact text they would
// have written, in their names and indentation; the refactoring's own new names kept unless the
// user's code already uses them; and a refusal, naming why, whenever a rewrite could be wrong.
import { strict as assert } from 'node:assert';
import { nodeGrammarFiles } from '../../../src/cli/grammarFiles';
import { adapt, adaptRefactoring, type Adapted } from '../../../src/similarity/adapt';
import { Grammars } from '../../../src/similarity/grammars';
import { Tokenizers } from '../../../src/similarity/tokenize';
import { MAX_COMPARED_LINES } from '../../../src/similarity/tokens';

const tokenizers = new Tokenizers(new Grammars(nodeGrammarFiles()));

async function adapted(language: string, original: string, refactor: string, user: string): Promise<Adapted> {
  const t = async (text: string) => ({ text, tokens: (await tokenizers.tokenize(text, language)).tokens });
  return adapt(await t(original), await t(refactor), await t(user));
}

const ORIGINAL = 'def total_weight(parcels):\n    total = 0\n    for p in parcels:\n        total += p.weight\n    return total\n';
const REFACTOR = 'def total_weight(parcels):\n    return sum(p.weight for p in parcels)\n';

describe('similarity: adapting a refactoring', () => {
  it('rewrites the refactoring into the user\'s names, attributes included', async () => {
    const user = 'def mass_of(boxes):\n    acc = 0\n    for b in boxes:\n        acc += b.mass\n    return acc\n';
    const result = await adapted('Python', ORIGINAL, REFACTOR, user);
    assert.ok(result.ok);
    assert.equal(result.text, 'def mass_of(boxes):\n    return sum(b.mass for b in boxes)\n');
    assert.deepEqual([...result.renamed], [['total_weight', 'mass_of'], ['parcels', 'boxes'], ['p', 'b'], ['weight', 'mass']]);
  });

  it('indents it as the user\'s code is indented, with the user\'s line ends', async () => {
    const user = '    def mass_of(boxes):\r\n        acc = 0\r\n        for b in boxes:\r\n            acc += b.mass\r\n        return acc\r\n';
    const result = await adapted('Python', ORIGINAL, REFACTOR, user);
    assert.ok(result.ok);
    assert.equal(result.text, '    def mass_of(boxes):\r\n        return sum(b.mass for b in boxes)\r\n');
  });

  it('keeps a name the refactoring introduces, numbered when the user\'s code already uses it', async () => {
    const original = 'function f(xs) {\n  let s = 0;\n  for (const x of xs) s += x;\n  return s;\n}\n';
    const refactor = 'function f(xs) {\n  const add = (a, b) => a + b;\n  return xs.reduce(add, 0);\n}\n';
    const kept = await adapted('JavaScript', original, refactor, 'function g(items) {\n  let t = 0;\n  for (const i of items) t += i;\n  return t;\n}\n');
    assert.ok(kept.ok);
    assert.equal(kept.text, 'function g(items) {\n  const add = (a, b) => a + b;\n  return items.reduce(add, 0);\n}\n');
    const clash = await adapted('JavaScript', original, refactor, 'function add(items) {\n  let a = 0;\n  for (const i of items) a += i;\n  return a;\n}\n');
    assert.ok(clash.ok);
    assert.equal(clash.text, 'function add(items) {\n  const add2 = (a2, b) => a2 + b;\n  return items.reduce(add2, 0);\n}\n');
  });

  it('refuses code of another shape, naming the line where they part', async () => {
    const user = 'def mass_of(boxes):\n    acc = 0\n    for b in boxes:\n        if b.ok:\n            acc += b.mass\n    return acc\n';
    const result = await adapted('Python', ORIGINAL, REFACTOR, user);
    assert.deepEqual(result, { ok: false, reason: 'your code is not the same shape as the catalog code (they part at your line 4)' });
    const shorter = await adapted('Python', ORIGINAL, REFACTOR, 'def mass_of(boxes):\n    acc = 0\n');
    assert.equal(shorter.ok, false);
  });

  it('refuses when a name the refactoring uses maps onto two of the user\'s, naming it', async () => {
    const original = 'def f(a):\n    x = a\n    y = a\n    return x + y\n';
    const refactor = 'def f(a):\n    return a + a\n';
    const result = await adapted('Python', original, refactor, 'def f(a):\n    x = a\n    y = b\n    return x + y\n');
    assert.deepEqual(result, { ok: false, reason: 'these names do not map one to one onto your code: `a`' });
  });

  it('refuses when two of the catalog\'s names would become one of the user\'s', async () => {
    const original = 'def f(a, b):\n    return a + b\n';
    const refactor = 'def f(a, b):\n    return b + a\n';
    const result = await adapted('Python', original, refactor, 'def f(a, a2):\n    return a + a\n');
    assert.equal(result.ok, false);
    assert.match((result as { reason: string }).reason, /`a`, `b`|`b`, `a`/);
  });

  it('maps literals as it maps names', async () => {
    const result = await adapted('Ruby', 'def greet\n  puts "hi"\nend\n', 'def greet = puts("hi")\n', 'def welcome\n  puts "hello"\nend\n');
    assert.ok(result.ok);
    assert.equal(result.text, 'def welcome = puts("hello")\n');
  });

  it('adapts in a language without a grammar too', async () => {
    const result = await adapted('Perl', 'sub f { my $x = shift; return $x * 2; }', 'sub f { return 2 * shift; }', 'sub g { my $n = shift; return $n * 2; }');
    assert.ok(result.ok);
    assert.equal(result.text, 'sub g { return 2 * shift; }');
  });

  it('adapts a catalog code\'s refactoring, and says it does not when the refactoring is too long to compare', async () => {
    // The service takes a refactoring of more lines than are compared (60,000 characters, any number of lines).
    const text = 'def mass_of(boxes):\n    acc = 0\n    for b in boxes:\n        acc += b.mass\n    return acc\n';
    const user = { text, tokens: (await tokenizers.tokenize(text, 'Python')).tokens };
    const code = { code: ORIGINAL, language: 'Python' };
    const fits = await adaptRefactoring(tokenizers, code, { code: REFACTOR }, user);
    assert.equal(fits.ok && fits.text, 'def mass_of(boxes):\n    return sum(b.mass for b in boxes)\n');
    const long = `${REFACTOR}${'# more\n'.repeat(MAX_COMPARED_LINES)}`;
    assert.deepEqual(await adaptRefactoring(tokenizers, code, { code: long }, user), {
      ok: false, reason: `the code is too long to compare (more than ${MAX_COMPARED_LINES} lines)`,
    });
  });
});
