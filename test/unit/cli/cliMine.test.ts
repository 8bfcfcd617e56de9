// `refactor-browser mine REPO`, the built command line run as a process over repositories this test
// builds with git: which functions become codes, their texts before and after exactly as git holds
// them at the parent and at the commit, titles, comments, authors (by name only) and tags; what is
// left out (fixes, merges, reverts, renamed files, comments alone, generated and minified files, a
// language with no grammar); the catalog served by `serve --catalog` and imported by `import`; and
// the bad inputs, each one line with its exit code and no file left behind.
import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RefactorClient } from '../../../src/client/client';
import { catalogLines, type CatalogFile } from '../../../src/core/catalogFile';
import { run, startServe } from '../../helpers/cliProcess';

const HAS_GIT = spawnSync('git', ['--version']).status === 0;
const SAMPLE = path.resolve(__dirname, '../../../../src/server/catalog/sample-catalog.json');

/** The functions of lib/util.js, version by version. */
const TOTAL_INDEX = `function total(items) {
  let sum = 0;
  for (let i = 0; i < items.length; i++) {
    sum += items[i].price;
  }
  return sum;
}`;
const TOTAL_LOOP = `function total(items) {
  let sum = 0;
  for (const item of items) {
    sum += item.price;
  }
  return sum;
}`;
const TOTAL_REDUCE = `function total(items) {
  return items.reduce((sum, item) => sum + item.price, 0);
}`;
const PARSE = `exports.parse = function (text) {
  const parts = text.split(',');
  return parts.map((p) => p.trim());
};`;
const PARSE_FIXED = `exports.parse = function (text) {
  if (!text) return [];
  const parts = text.split(',');
  return parts.map((p) => p.trim());
};`;
const CART = `class Cart {
  count() {
    let n = 0;
    for (const line of this.lines) {
      n = n + line.quantity;
    }
    return n;
  }
}`;
const CART_TIDY = `class Cart {
  count() {
    let n = 0;
    for (const line of this.lines) n += line.quantity;
    return n;
  }
}`;
const CLEAN_PY = `def clean(names):
    result = []
    for name in names:
        if name.strip() != "":
            result.append(name.strip())
    return result
`;
const CLEAN_PY_SIMPLE = `def clean(names):
    result = []
    for name in names:
        stripped = name.strip()
        if stripped:
            result.append(stripped)
    return result
`;
const DOUBLE = `const double = (values) => {
  const out = [];
  for (const v of values) out.push(v * 2);
  return out;
};`;
const DOUBLE_MAP = `const double = (values) => {
  const out = values.map((v) => v * 2);
  return out;
};`;

describe('refactor-browser mine (command line)', function () {
  this.timeout(120_000);
  let dir: string;
  let repo: string;
  const hashes: Record<string, string> = {};
  const dates: Record<string, string> = {};

  const git = (args: string[], author = 'Ana Lima', date = '2024-03-01T10:00:00+01:00'): string =>
    execFileSync('git', ['-C', repo, ...args], {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1',
        GIT_AUTHOR_NAME: author, GIT_AUTHOR_EMAIL: `${author.split(' ')[0].toLowerCase()}@example.org`, GIT_AUTHOR_DATE: date,
        GIT_COMMITTER_NAME: author, GIT_COMMITTER_EMAIL: 'c@example.org', GIT_COMMITTER_DATE: date,
      },
    }).trim();
  const write = (file: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), text);
  };
  const commit = (name: string, message: string, author?: string, date?: string): void => {
    git(['add', '-A']);
    git(['commit', '-q', '-m', message], author, date);
    hashes[name] = git(['rev-parse', 'HEAD']);
    dates[name] = date ?? '2024-03-01T10:00:00+01:00';
  };
  const util = (...fns: string[]): string => `'use strict';\n\n${fns.join('\n\n')}\n\nmodule.exports.total = total;\n`;

  before(function () {
    if (!HAS_GIT) {
      console.log('    (skipped: mine needs git; install it: apt-get install git)');
      this.skip();
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rb-mine-'));
    repo = path.join(dir, 'repo');
    fs.mkdirSync(repo);
    git(['init', '-q', '-b', 'main']);
    write('lib/util.js', util(TOTAL_INDEX, PARSE, DOUBLE));
    write('lib/cart.js', `${CART}\n`);
    write('tools/clean.py', CLEAN_PY);
    write('tools/report.pl', 'sub report {\n  my ($x) = @_;\n  print $x;\n  return 1;\n}\n');
    write('vendor/lib.js', util(TOTAL_INDEX));
    write('lib/big.js', `function packed(a) {\n  return ${'a + '.repeat(1000)}a;\n}\n`);
    commit('start', 'Start the shop', 'Ana Lima', '2024-03-01T10:00:00+01:00');

    write('lib/util.js', util(TOTAL_LOOP, PARSE, DOUBLE));
    write('vendor/lib.js', util(TOTAL_LOOP));
    write('lib/big.js', `function packed(a) {\n  return ${'a + '.repeat(999)}a;\n}\n`);
    commit('reduce', 'Refactor total() to loop over the items\n\nNo index to get wrong.', 'José Núñez', '2024-03-02T11:30:00-03:00');

    write('lib/util.js', util(TOTAL_LOOP, PARSE_FIXED, DOUBLE));
    commit('fix', 'Fix parse() of an empty text', 'Ana Lima', '2024-03-03T09:00:00+01:00');

    write('tools/clean.py', CLEAN_PY_SIMPLE);
    write('tools/report.pl', 'sub report {\n  my ($x) = @_;\n  print "$x\\n";\n  return 1;\n}\n');
    commit('clean', 'Simplify clean(): strip each name once', 'Zoë Ødegaard', '2024-03-04T08:15:00+00:00');

    // Comments alone, under a message that says refactor: not a rewrite of code.
    write('lib/cart.js', `${CART.replace('  count() {', '  // How many items\n  count() {')}\n`);
    commit('comment', 'Refactor: explain count()', 'Ana Lima', '2024-03-05T10:00:00+01:00');

    // A refactoring on a branch, merged: the branch's commit counts, the merge does not.
    git(['checkout', '-q', '-b', 'tidy']);
    write('lib/cart.js', `${CART_TIDY.replace('  count() {', '  // How many items\n  count() {')}\n`);
    commit('tidy', 'Tidy Cart#count', 'Priya Raman', '2024-03-06T10:00:00+05:30');
    git(['checkout', '-q', 'main']);
    write('lib/util.js', util(TOTAL_LOOP, PARSE_FIXED, DOUBLE_MAP));
    commit('map', 'Clean up double() with map', 'Ana Lima', '2024-03-07T10:00:00+01:00');
    // Rewritten whole, under a message that says so: the same function in the same file, kept.
    write('lib/util.js', util(TOTAL_REDUCE, PARSE_FIXED, DOUBLE_MAP));
    commit('whole', 'Refactor total() into a reduce', 'Ana Lima', '2024-03-07T12:00:00+01:00');
    git(['merge', '-q', '--no-ff', '-m', 'Merge branch tidy, a refactor of Cart', 'tidy'], 'Ana Lima', '2024-03-08T10:00:00+01:00');
    hashes.merge = git(['rev-parse', 'HEAD']);

    // A revert of a refactoring, and a rename with a rewrite in the same commit.
    git(['revert', '--no-edit', hashes.map], 'Ana Lima', '2024-03-09T10:00:00+01:00');
    hashes.revert = git(['rev-parse', 'HEAD']);
    git(['mv', 'lib/util.js', 'lib/helpers.js']);
    write('lib/helpers.js', util(TOTAL_INDEX, PARSE_FIXED, DOUBLE));
    commit('moved', 'Refactor: move the helpers', 'Ana Lima', '2024-03-10T10:00:00+01:00');
  });

  after(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Mines `args` (REPO added first) to a file; the catalog, and stderr. */
  async function mine(...args: string[]): Promise<{ catalog: CatalogFile; stderr: string }> {
    const out = path.join(dir, `mined-${Math.random().toString(36).slice(2)}.json`);
    const r = await run(['mine', repo, '--output', out, ...args], {}, 60_000);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '', 'the catalog goes to the file');
    return { catalog: JSON.parse(fs.readFileSync(out, 'utf8')) as CatalogFile, stderr: r.stderr };
  }

  it('makes each refactoring a code (the function before) with one refactoring (after), texts exactly as git holds them', async () => {
    const { catalog, stderr } = await mine();
    const rows = catalog.codes.map((c) => {
      const r = catalog.refactors.find((x) => x.codeId === c.id)!;
      return { title: c.title, language: c.language, before: catalogLines(c.code).join('\n'), after: catalogLines(r.code).join('\n'), comment: c.comment, tags: c.tags, message: r.comment, author: catalog.users.find((u) => u.id === r.userId)!.name, refactorTitle: r.title };
    });
    assert.deepEqual(rows.map((r) => r.title), ['total in lib/util.js', 'clean in tools/clean.py', 'Cart.count in lib/cart.js', 'double in lib/util.js', 'total in lib/util.js']);
    const [total, clean, count, double, whole] = rows;
    assert.deepEqual([total.before, total.after], [TOTAL_INDEX, TOTAL_LOOP]);
    assert.deepEqual([clean.before, clean.after], [CLEAN_PY.trimEnd(), CLEAN_PY_SIMPLE.trimEnd()]);
    assert.deepEqual([count.before, count.after], [
      '  count() {\n    let n = 0;\n    for (const line of this.lines) {\n      n = n + line.quantity;\n    }\n    return n;\n  }',
      '  count() {\n    let n = 0;\n    for (const line of this.lines) n += line.quantity;\n    return n;\n  }',
    ], 'from the start of its line, without the comment above it');
    assert.deepEqual([double.before, double.after], [DOUBLE, DOUBLE_MAP]);
    assert.deepEqual([whole.before, whole.after], [TOTAL_LOOP, TOTAL_REDUCE]);
    // What git holds: the function's lines in the file at the parent and at the commit.
    const show = (rev: string, file: string): string => git(['show', `${rev}:${file}`]);
    assert.ok(show(`${hashes.reduce}^`, 'lib/util.js').includes(total.before) && show(hashes.reduce, 'lib/util.js').includes(total.after));
    assert.ok(show(`${hashes.tidy}^`, 'lib/cart.js').includes(count.before) && show(hashes.tidy, 'lib/cart.js').includes(count.after));
    assert.deepEqual(total.language, 'JavaScript');
    assert.equal(clean.language, 'Python');
    assert.equal(total.comment, `lib/util.js before commit ${hashes.reduce} (2024-03-02T11:30:00-03:00)`);
    assert.equal(total.message, 'Refactor total() to loop over the items\n\nNo index to get wrong.');
    assert.equal(total.refactorTitle, 'Refactor total() to loop over the items');
    assert.deepEqual(rows.map((r) => r.author), ['José Núñez', 'Zoë Ødegaard', 'Priya Raman', 'Ana Lima', 'Ana Lima']);
    assert.deepEqual(total.tags, ['mined', 'lib']);
    assert.deepEqual(clean.tags, ['mined', 'tools']);
    const text = JSON.stringify(catalog);
    assert.ok(!text.includes('@example.org'), 'never an e-mail address');
    for (const left of ['fix', 'comment', 'merge', 'revert', 'moved']) assert.ok(!text.includes(hashes[left]), `${left} is not mined`);
    assert.match(stderr, /mined 10 commits: .*, 5 kept; 2 generated or minified files left out; skipped \(no grammar\): 1 Perl file; written to /);
  });

  it('keeps every rewrite with --all (the fix and the whole rewrite too, never comments alone), and narrows by --path, --max, --since and --until', async () => {
    const all = (await mine('--all')).catalog.codes.map((c) => c.title);
    assert.deepEqual(all, ['total in lib/util.js', 'exports.parse in lib/util.js', 'clean in tools/clean.py', 'Cart.count in lib/cart.js', 'double in lib/util.js', 'total in lib/util.js']);
    assert.deepEqual((await mine('--path', 'tools/**')).catalog.codes.map((c) => c.title), ['clean in tools/clean.py']);
    assert.deepEqual((await mine('--max', '4')).catalog.codes.map((c) => c.title), ['double in lib/util.js', 'total in lib/util.js'], 'the four newest commits: a move, a revert, the whole rewrite and double()');
    assert.deepEqual((await mine('--since', '2024-03-03T12:00:00+00:00', '--until', '2024-03-06T12:00:00+00:00')).catalog.codes.map((c) => c.title),
      ['clean in tools/clean.py', 'Cart.count in lib/cart.js']);
  });

  it('writes a catalog that serve --catalog serves and import takes', async function () {
    this.timeout(180_000);
    const out = path.join(dir, 'served.json');
    const r = await run(['mine', repo, '-o', out], {}, 60_000);
    assert.equal(r.code, 0, r.stderr);
    const serve = startServe(['serve', '--port', '0', '--catalog', out]);
    try {
      const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(await serve.firstLine)?.[1];
      assert.ok(url, serve.stderr());
      const client = new RefactorClient({ baseUrl: url });
      try {
        const tagged = await client.taggedCodes('mined');
        assert.deepEqual(tagged.map((c) => c.title).sort(), ['Cart.count in lib/cart.js', 'clean in tools/clean.py', 'double in lib/util.js', 'total in lib/util.js', 'total in lib/util.js']);
        const totals = await Promise.all(tagged.filter((c) => c.title.startsWith('total')).map((c) => client.code(c.id)));
        assert.deepEqual(totals.map((c) => c.refactors?.[0].code).sort(), [TOTAL_LOOP, TOTAL_REDUCE].sort());
      } finally {
        await client.close();
      }
    } finally {
      serve.kill();
    }
    const imported = await run(['import', out, '--data-dir', path.join(dir, 'data')], {}, 120_000);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /imported 5 codes, 5 refactorings and 4 people/);
  });

  it('adds a mined catalog to a service that has content, matching people by name, and adds nothing the second time', async function () {
    this.timeout(300_000);
    const out = path.join(dir, 'joined.json');
    const mined = await run(['mine', repo, '-o', out], {}, 60_000);
    assert.equal(mined.code, 0, mined.stderr);
    const data = path.join(dir, 'joined-data');
    const sample = await run(['import', SAMPLE, '--data-dir', data], {}, 120_000);
    assert.equal(sample.code, 0, sample.stderr);
    const first = await run(['import', out, '--data-dir', data], {}, 120_000);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, `added 5 codes, 5 refactorings and 0 people from ${out}\n`);
    const again = await run(['import', out, '--json', '--data-dir', data], {}, 120_000);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), { imported: { codes: 0, refactors: 0, users: 0 }, alreadyThere: 5, source: out });
    const exported = await run(['export', '--data-dir', data], {}, 120_000);
    assert.equal(exported.code, 0, exported.stderr);
    const catalog = JSON.parse(exported.stdout) as CatalogFile;
    const added = catalog.codes.filter((c) => c.mined !== undefined);
    assert.deepEqual(added.map((c) => c.id), [55, 56, 57, 58, 59], 'past the sample\'s 54 codes');
    assert.equal(catalog.users.length, 12, 'the four authors are the sample\'s people of those names');
    assert.deepEqual([...new Set(added.map((c) => catalog.users.find((u) => u.id === c.userId)!.name))].sort(), ['Ana Lima', 'José Núñez', 'Priya Raman', 'Zoë Ødegaard']);
    const refactored = catalog.refactors.filter((r) => r.codeId >= 55).map((r) => [r.id, r.codeId]);
    assert.deepEqual(refactored, [[135, 55], [136, 56], [137, 57], [138, 58], [139, 59]]);
  });

  it('refuses what is not a repository, a shallow clone and a missing git in one line, leaving no file', async () => {
    const out = path.join(dir, 'nothing.json');
    const expectRefused = async (args: string[], code: number, said: RegExp, env: NodeJS.ProcessEnv = {}): Promise<void> => {
      const r = await run(['mine', ...args, '-o', out], env, 30_000);
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, said);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.ok(!fs.existsSync(out), 'no file written');
    };
    await expectRefused([path.join(dir, 'no-such-folder')], 2, /is not a folder/);
    const plain = path.join(dir, 'plain');
    fs.mkdirSync(plain, { recursive: true });
    await expectRefused([plain], 2, /is not a git repository/);
    const shallow = path.join(dir, 'shallow');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo}`, shallow], { env: { PATH: process.env.PATH, HOME: dir } });
    await expectRefused([shallow], 1, /shallow clone.*git fetch --unshallow/);
    await expectRefused([repo], 1, /git is not installed or not on PATH/, { PATH: path.join(dir, 'no-bin') });
    // A date git cannot read: git takes it for this moment and would mine nothing, saying nothing.
    await expectRefused([repo, '--since', 'yesterdayish'], 2, /--since "yesterdayish" is not a date git reads/);
    await expectRefused([repo, '--until', 'the day before'], 2, /--until "the day before" is not a date git reads/);
    // A folder that cannot take the file: the run fails whole, and nothing is left beside it.
    const r = await run(['mine', repo, '-o', path.join(dir, 'missing', 'out.json')], {}, 60_000);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(!fs.existsSync(path.join(dir, 'missing')));
  });
});
