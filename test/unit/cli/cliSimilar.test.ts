// `refactor-browser similar` and `adapt`, the built command line run as a process over the built-in
// sample catalog (and a service that stops answering): a renamed copy of a catalog code finds it
// first, with its lines; the best refactoring comes back in the user's names; what cannot be found
// or adapted is said in one line, with the exit codes scripts rely on.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { run } from '../../helpers/cliProcess';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { generateCatalog } from '../../../src/server/catalog/generatedCatalog';
import sampleJson from '../../../src/server/catalog/sample-catalog.json';
import { CONTAINS as CODE_12 } from '../../helpers/similarSnippets';

/** CONTAINS after a line of the file's own, so that its lines are not the file's first. */
const CONTAINS = `// mine\n${CODE_12}`;

describe('refactor-browser similar and adapt (command line)', function () {
  this.timeout(60_000);
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rb-similar-'));
    env = { REFACTOR_BROWSER_CACHE: path.join(dir, 'cache') };
    fs.writeFileSync(path.join(dir, 'mine.js'), CONTAINS);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds the catalog code a renamed copy was made from first, with the lines that matched', async () => {
    const r = await run(['similar', path.join(dir, 'mine.js'), '--json'], env, 30_000);
    assert.equal(r.code, 0, r.stderr);
    const found = JSON.parse(r.stdout) as Array<{ similarity: number; code: { id: number; language: string; refactors?: unknown }; lines: [number, number] }>;
    assert.equal(found[0].code.id, 12);
    assert.equal(found[0].code.language, 'JavaScript');
    assert.equal(found[0].similarity, 1);
    assert.equal(found[0].code.refactors, undefined, 'the code without its refactorings');
    assert.equal(found[0].lines[0], 2, 'from the function, not the comment above it');
    assert.equal(found[0].lines[1], 10);
    assert.ok(found.every((f) => f.code.language === 'JavaScript'));
    assert.ok(fs.readdirSync(path.join(dir, 'cache')).some((f) => f.endsWith('-fingerprints.json')), 'fingerprints kept beside the index');
  });

  it('prints a row a code for people: similarity, title, language, best refactoring and its rating', async () => {
    const r = await run(['similar', path.join(dir, 'mine.js'), '--lines', '2-11', '--limit', '1'], env, 30_000);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '#12  Check if a value is in an array\n      100% · JavaScript · best refactoring #32, rating 5 (12 votes) · your lines 2-10\n');
  });

  it('reads stdin with --language, and says when nothing is alike (an empty array in JSON)', async () => {
    const other = 'def shout(words):\n    return " ".join(w.upper() + "!" for w in words if w)\n';
    const human = await run(['similar', '-', '--language', 'python'], env, 30_000, other);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^No code like this among \d+ codes in Python\. Try `refactor-browser search` with words from it\.\n$/);
    const json = await run(['similar', '-', '--language', 'Python', '--json'], env, 30_000, other);
    assert.deepEqual(JSON.parse(json.stdout), []);
  });

  it('rewrites the best refactoring into the file\'s names', async () => {
    const r = await run(['adapt', '12', '32', path.join(dir, 'mine.js'), '--lines', '2-10'], env, 30_000);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, [
      'function includesItem(list, wanted) {',
      '    for (var k = 0, n = list.length; k < n; k++) {',
      '        if (list[k] === wanted) {',
      '            return true;',
      '        }',
      '    }',
      '    return false;',
      '}',
      '',
    ].join('\n'));
  });

  it('refuses to adapt code of another shape: nothing on stdout, one line on stderr, exit 1', async () => {
    fs.writeFileSync(path.join(dir, 'other.js'), 'function includesItem(list, wanted) {\n  return list.indexOf(wanted) >= 0;\n}\n');
    const r = await run(['adapt', '12', '32', path.join(dir, 'other.js')], env, 30_000);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `refactor-browser: refactoring #32 does not adapt to ${path.join(dir, 'other.js')}: your code is not the same shape as the catalog code (they part at your line 2)\n`);
    const missing = await run(['adapt', '12', '99999', path.join(dir, 'other.js')], env, 30_000);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'refactor-browser: code #12 has no refactoring #99999\n');
  });

  it('says in one line what is wrong with its input', async () => {
    const cases: Array<[string[], number, RegExp]> = [
      [['similar'], 2, /similar needs a FILE/],
      [['similar', '-'], 2, /only --language can say/],
      [['similar', 'x.js', '--lines', '9-2'], 2, /--lines must be A-B/],
      [['similar', 'x.js', '--language', 'klingon'], 2, /the service has no language "klingon"/],
      [['similar', 'notes.txt'], 1, /cannot tell the language of notes\.txt from its name: say it with --language/],
      [['similar', path.join(dir, 'absent.py')], 1, /cannot read .*absent\.py \(ENOENT\)/],
      [['adapt', '12', 'x'], 2, /adapt needs CODE_REF REFACTOR_ID FILE/],
    ];
    for (const [args, code, message] of cases) {
      const r = await run(args, env, 30_000);
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr.split('\n')[0], message, args.join(' '));
    }
    fs.writeFileSync(path.join(dir, 'binary.py'), Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x81]));
    const binary = await run(['similar', path.join(dir, 'binary.py')], env, 30_000);
    assert.equal(binary.code, 1);
    assert.match(binary.stderr, /binary\.py: not UTF-8 text/);
    fs.writeFileSync(path.join(dir, 'huge.py'), 'x = 1\n'.repeat(100_000));
    const huge = await run(['similar', path.join(dir, 'huge.py')], env, 30_000);
    assert.equal(huge.code, 1);
    assert.equal(huge.stderr, 'refactor-browser: the code is too long to compare (more than 2000 lines)\n');
  });

  it('compares each function of a file as the editor compares the function at the cursor, listed by the function', async () => {
    // Three functions: only the middle one is a copy of a catalog code. As one text the file is like nothing.
    const file = path.join(dir, 'three.js');
    const before = 'function shout(words) {\n  return words.map((w) => w.toUpperCase() + "!").join(" ");\n}\n\n';
    const after = '\nconst twice = (n) => {\n  const doubled = n * 2;\n  console.log(`twice ${n} is ${doubled}`);\n  return doubled;\n};\n';
    fs.writeFileSync(file, before + CODE_12 + after);
    const r = await run(['similar', file], env, 30_000);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^includesItem, lines 5-13:\n#12 {2}Check if a value is in an array\n {6}100% · JavaScript · best refactoring #32, rating 5 \(12 votes\) · your lines 5-13\n/);
    const json = JSON.parse((await run(['similar', file, '--json'], env, 30_000)).stdout) as Array<{ code: { id: number }; lines: number[]; for: { name: string | null; lines: number[] } }>;
    assert.deepEqual(json[0].for, { name: 'includesItem', lines: [5, 13] });
    assert.equal(json[0].code.id, 12);
    assert.ok(json.every((m) => m.for.name !== null), 'each match is for a function of the file');
    // --lines keeps comparing a span as one text.
    const span = await run(['similar', file, '--lines', '5-13', '--limit', '1'], env, 30_000);
    assert.equal(span.stdout, '#12  Check if a value is in an array\n      100% · JavaScript · best refactoring #32, rating 5 (12 votes) · your lines 5-13\n');
  });

  it('counts the codes of the language it compared, and says an empty file is empty', async () => {
    const python = sampleJson.codes.filter((c) => c.language === 'Python').length;
    const other = 'def shout(words):\n    return " ".join(w.upper() + "!" for w in words if w)\n';
    const r = await run(['similar', '-', '--language', 'python'], env, 30_000, other);
    assert.equal(r.stdout, `No code like this among ${python} codes in Python. Try \`refactor-browser search\` with words from it.\n`);
    fs.writeFileSync(path.join(dir, 'empty.py'), '\n  \n');
    const empty = await run(['similar', path.join(dir, 'empty.py')], env, 30_000);
    assert.equal(empty.code, 1);
    assert.equal(empty.stderr, `refactor-browser: ${path.join(dir, 'empty.py')} is empty: there is no code to compare\n`);
    fs.writeFileSync(path.join(dir, 'empty.js'), '');
    const adaptEmpty = await run(['adapt', '12', '32', path.join(dir, 'empty.js')], env, 30_000);
    assert.equal(adaptEmpty.code, 1);
    assert.equal(adaptEmpty.stderr, `refactor-browser: ${path.join(dir, 'empty.js')} is empty: there is no code to compare\n`);
  });

  it('adapt says where the codes part as a line of the file, and that the languages differ', async () => {
    // The copy from line 4 of the file on; it parts from the catalog's code at its fourth line, the file's line 7.
    const file = path.join(dir, 'later.js');
    fs.writeFileSync(file, `// a\n// b\n\n${CODE_12.replace('if (list[k] == wanted) {', 'if (list[k] == wanted && k > 0) {')}`);
    const r = await run(['adapt', '12', '32', file, '--lines', '4-12'], env, 30_000);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `refactor-browser: refactoring #32 does not adapt to ${file}: your code is not the same shape as the catalog code (they part at your line 7)\n`);
    fs.writeFileSync(path.join(dir, 'mine.py'), 'def includes_item(items, wanted):\n    return wanted in items\n');
    const python = await run(['adapt', '12', '32', path.join(dir, 'mine.py')], env, 30_000);
    assert.equal(python.code, 1);
    assert.equal(python.stderr, `refactor-browser: code #12 is in JavaScript and ${path.join(dir, 'mine.py')} in Python: a refactoring adapts only to code of its own language\n`);
  });

  describe('over a service', () => {
    let server: RunningServer | undefined;
    after(async () => server?.close());

    it('works offline on the fingerprints it kept when the service stops answering', async () => {
      server = await startServer({ host: '127.0.0.1', port: 0, catalog: generateCatalog({ codes: 40 }) });
      const url = server.url;
      const online = await run(['similar', path.join(dir, 'mine.js'), '--json', '--base-url', url], env, 30_000);
      assert.equal(online.code, 0, online.stderr);
      const first = JSON.parse(online.stdout) as Array<{ code: { id: number } }>;
      assert.ok(first.length > 0);
      await server.close();
      server = undefined;
      const offline = await run(['similar', path.join(dir, 'mine.js'), '--json', '--base-url', url, '--timeout', '2'], env, 30_000);
      assert.equal(offline.code, 0, offline.stderr);
      assert.match(offline.stderr, /could not bring the search index up to date/);
      assert.deepEqual((JSON.parse(offline.stdout) as Array<{ code: { id: number } }>).map((f) => f.code.id), first.map((f) => f.code.id));
    });
  });
});
