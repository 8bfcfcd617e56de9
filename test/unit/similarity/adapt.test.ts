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

/** Asserts that adapting gives `expected`, saying why when it is refused. */
async function adaptsTo(language: string, original: string, refactor: string, user: string, expected: string): Promise<void> {
  const result = await adapted(language, original, refactor, user);
  assert.ok(result.ok, !result.ok ? result.reason : '');
  assert.equal(result.text, expected);
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
  describe('a local named like a member, on real code renamed as a person renames it', () => {
    it('Python: renames the local `encoding` and keeps the keyword argument `encoding=` (fileinput.hook_compressed)', async () => {
      // From CPython's Lib/fileinput.py (PSF licence), cut down.
      const original = 'def hook_compressed(filename, mode, *, encoding=None, errors=None):\n    ext = os.path.splitext(filename)[1]\n'
        + '    return open(filename, mode, encoding=encoding, errors=errors)\n';
      const refactor = 'def hook_compressed(filename, mode, *, encoding=None, errors=None):\n    ext = os.path.splitext(filename)[1]\n'
        + '    if ext == ".gz":\n        return gzip.open(filename, mode)\n    return open(filename, mode, encoding=encoding, errors=errors)\n';
      const user = 'def hook_compressed(name, how, *, enc=None, errs=None):\n    ext = os.path.splitext(name)[1]\n'
        + '    return open(name, how, encoding=enc, errors=errs)\n';
      await adaptsTo('Python', original, refactor, user,
        'def hook_compressed(name, how, *, enc=None, errs=None):\n    ext = os.path.splitext(name)[1]\n'
        + '    if ext == ".gz":\n        return gzip.open(name, how)\n    return open(name, how, encoding=enc, errors=errs)\n');
    });

    it('JavaScript: `const protocol = url.protocol` renamed keeps `.protocol`, and a shorthand becomes `key: local` (undici)', async () => {
      // From undici's lib/web/fetch/util.js (MIT), urlIsHttpHttpsScheme, with a shorthand returned.
      const original = 'function urlIsHttpHttpsScheme (url) {\n  const protocol = url.protocol\n  return protocol === \'http:\' || protocol === \'https:\'\n}\n';
      const refactor = 'function urlIsHttpHttpsScheme (url) {\n  const { protocol } = url\n  return { protocol, secure: protocol === \'https:\' }\n}\n';
      const user = 'function urlIsHttpHttpsScheme (target) {\n  const scheme = target.protocol\n  return scheme === \'http:\' || scheme === \'https:\'\n}\n';
      await adaptsTo('JavaScript', original, refactor, user,
        'function urlIsHttpHttpsScheme (target) {\n  const { protocol: scheme } = target\n  return { protocol: scheme, secure: scheme === \'https:\' }\n}\n');
    });

    it('JavaScript: a destructured `{ response }` renamed to `{ response: reply }` lines up with the shorthand', async () => {
      // After undici's lib/mock/snapshot-agent.js (MIT): `const { response } = snapshot`.
      const original = 'function replay (snapshot, handler) {\n  const { response } = snapshot\n  handler.onHeaders(response.statusCode)\n}\n';
      const refactor = 'function replay (snapshot, handler) {\n  const { response } = snapshot\n  if (!response) return\n  handler.onHeaders(response.statusCode)\n}\n';
      const user = 'function replay (shot, h) {\n  const { response: reply } = shot\n  h.onHeaders(reply.statusCode)\n}\n';
      await adaptsTo('JavaScript', original, refactor, user,
        'function replay (shot, h) {\n  const { response: reply } = shot\n  if (!reply) return\n  h.onHeaders(reply.statusCode)\n}\n');
    });

    it('Java: `this.field = field` with the parameter renamed (gson\'s ReflectiveTypeAdapterFactory.BoundField)', async () => {
      // From google/gson (Apache-2.0).
      const original = 'protected BoundField(String serializedName, Field field) {\n  this.serializedName = serializedName;\n  this.field = field;\n  this.fieldName = field.getName();\n}\n';
      const refactor = 'protected BoundField(String serializedName, Field field) {\n  this.serializedName = serializedName;\n  this.field = field;\n  this.fieldName = field.getName();\n  field.setAccessible(true);\n}\n';
      const user = 'protected BoundField(String name, Field f) {\n  this.serializedName = name;\n  this.field = f;\n  this.fieldName = f.getName();\n}\n';
      await adaptsTo('Java', original, refactor, user,
        'protected BoundField(String name, Field f) {\n  this.serializedName = name;\n  this.field = f;\n  this.fieldName = f.getName();\n  f.setAccessible(true);\n}\n');
    });

    it('Ruby: `authority = self.authority` and `stat = stat(path)` renamed keep the methods (rack\'s Request, Files)', async () => {
      // From rack/rack (MIT): lib/rack/request.rb host_with_port, lib/rack/directory.rb list_path, cut down.
      const original = 'def host_with_port(authority = self.authority)\n  if (stat = stat(authority)) && stat.readable?\n    authority\n  end\nend\n';
      const refactor = 'def host_with_port(authority = self.authority)\n  if (stat = stat(authority)) && stat.readable?\n    authority.to_s\n  end\nend\n';
      const user = 'def host_with_port(auth = self.authority)\n  if (st = stat(auth)) && st.readable?\n    auth\n  end\nend\n';
      await adaptsTo('Ruby', original, refactor, user,
        'def host_with_port(auth = self.authority)\n  if (st = stat(auth)) && st.readable?\n    auth.to_s\n  end\nend\n');
    });

    it('C#: a named argument `size: size` and an object initializer\'s `size = size` keep their member', async () => {
      const original = 'Box Make(int size)\n{\n    Log(size: size);\n    return new Box { size = size };\n}\n';
      const refactor = 'Box Make(int size)\n{\n    Log(size: size);\n    Check(size);\n    return new Box { size = size };\n}\n';
      const user = 'Box Make(int n)\n{\n    Log(size: n);\n    return new Box { size = n };\n}\n';
      await adaptsTo('C#', original, refactor, user,
        'Box Make(int n)\n{\n    Log(size: n);\n    Check(n);\n    return new Box { size = n };\n}\n');
    });

    it('in a language without a grammar too: `this.size = size` (ActionScript)', async () => {
      const original = 'function resize(size:int):void { this.size = size; }';
      const refactor = 'function resize(size:int):void { this.size = size; this.dirty = true; }';
      await adaptsTo('ActionScript', original, refactor, 'function resize(n:int):void { this.size = n; }',
        'function resize(n:int):void { this.size = n; this.dirty = true; }');
    });

    it('keeps a member the refactoring brings, though the user has a local of that name', async () => {
      const original = 'def f(xs, count):\n    return len(xs) + count\n';
      const refactor = 'def f(xs, count):\n    return len(xs) + xs.index(count)\n';
      await adaptsTo('Python', original, refactor, 'def f(items, index):\n    return len(items) + index\n',
        'def f(items, index):\n    return len(items) + items.index(index)\n');
    });

    it('still refuses a local that maps two ways, and a member the refactoring spells as a renamed local', async () => {
      const original = 'def f(sep):\n    a = os.sep\n    return sep\n';
      const twoWays = await adapted('Python', original, 'def f(sep):\n    return sep + sep\n', 'def f(sep):\n    a = os.sep\n    return other\n');
      assert.deepEqual(twoWays, { ok: false, reason: 'these names do not map one to one onto your code: `sep`' });
      // The catalog's `weight` is a local the user calls `w`; the refactoring's `.weight` is no name of the catalog code's.
      const crossed = await adapted('Python', 'def f(weight):\n    return weight\n', 'def f(weight):\n    return box.weight\n', 'def f(w):\n    return w\n');
      assert.deepEqual(crossed, { ok: false, reason: 'these names do not map one to one onto your code: `weight`' });
    });

    it('refuses where a leaf too long to spell in its kind differs (TypeScript read with the JavaScript grammar)', async () => {
      // rxjs's ajaxGetJSON (Apache-2.0): its typed parameters come out as one JSX text leaf.
      const original = 'function ajaxGetJSON<T>(url: string, headers?: Record<string, string>): Observable<T> {\n  return mapResponse(ajax<T>({ url, headers }));\n}\n';
      const refactor = 'function ajaxGetJSON<T>(url: string, headers?: Record<string, string>): Observable<T> {\n  const u = url;\n  return mapResponse(ajax<T>({ url, headers }));\n}\n';
      const user = 'function ajaxGetJSON<T>(link: string, heads?: Record<string, string>): Observable<T> {\n  return mapResponse(ajax<T>({ url: link, headers: heads }));\n}\n';
      const result = await adapted('JavaScript', original, refactor, user);
      assert.deepEqual(result, { ok: false, reason: 'your code is not the same shape as the catalog code (they part at your line 1)' });
    });
  });
});
