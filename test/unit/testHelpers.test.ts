// The tests' own facts each have one place: one polling loop (test/helpers/poll.ts), one
// PostgreSQL guard (test/helpers/postgres.ts), one way to a TLS certificate (test/hostile/tls.ts),
// one builder of each model type (test/helpers/builders.ts).
// A copy made in a test file drifts (its interval, its message, whether a time-out fails or returns
// false, whether CI fails or skips), so this reads every TypeScript file under test/ and refuses one.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import ts from 'typescript';
import { aCode, aRefactor, aUser } from '../helpers/builders';
import { postgresOrSkip } from '../helpers/postgres';
import { checkCode, checkRefactor, checkUser } from '../hostile/modelShape';
import { certificateOrSkip } from '../hostile/tls';

const ROOT = path.resolve(__dirname, '../../..');

/** Every TypeScript file under test/, relative to the repository, with `/` between folders. */
function testSources(): string[] {
  return readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .map((f) => `test/${f.split(path.sep).join('/')}`)
    .filter((f) => f.endsWith('.ts') && !f.startsWith('test/fixtures/'))
    .sort();
}

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
}

const isLoop = (n: ts.Node): boolean =>
  ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n) || ts.isWhileStatement(n) || ts.isDoStatement(n);

/**
 * The lines of `source` where a loop sleeps (`await new Promise((r) => setTimeout(r, ms))` in its
 * body or condition): a polling loop of its own.
 */
export function sleepingLoops(source: ts.SourceFile): number[] {
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Promise' && sleeps(node)) {
      for (let up = node.parent; up !== undefined; up = up.parent) {
        if (isLoop(up)) {
          lines.push(source.getLineAndCharacterOfPosition(up.getStart(source)).line + 1);
          break;
        }
        if (ts.isFunctionLike(up)) break;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

/**
 * Whether a `new Promise(...)` only waits: its executor hands its resolve to setTimeout (a timer
 * that rejects, or resolves with a value, bounds something else and is not a pause).
 */
function sleeps(promise: ts.NewExpression): boolean {
  const executor = promise.arguments?.[0];
  if (executor === undefined || !(ts.isArrowFunction(executor) || ts.isFunctionExpression(executor))) return false;
  const resolve = executor.parameters[0]?.name;
  if (resolve === undefined || !ts.isIdentifier(resolve)) return false;
  let found = false;
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'setTimeout'
      && n.arguments[0] !== undefined && ts.isIdentifier(n.arguments[0]) && n.arguments[0].text === resolve.text) found = true;
    else ts.forEachChild(n, visit);
  };
  visit(executor.body);
  return found;
}

const GUARDED_VARIABLES = new Set(['REFACTOR_BROWSER_TEST_DATABASE', 'CI']);

/**
 * The lines of `source` that make a PostgreSQL guard of their own: a read of
 * process.env.REFACTOR_BROWSER_TEST_DATABASE or process.env.CI (either spelling), or an `if` on a
 * name with TEST_DATABASE in it that calls skip().
 */
export function postgresGuards(source: ts.SourceFile): number[] {
  const lines = new Set<number>();
  const line = (n: ts.Node): number => source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1;
  const isProcessEnv = (n: ts.Expression): boolean =>
    ts.isPropertyAccessExpression(n) && n.name.text === 'env' && ts.isIdentifier(n.expression) && n.expression.text === 'process';
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && isProcessEnv(node.expression) && GUARDED_VARIABLES.has(node.name.text)) lines.add(line(node));
    if (ts.isElementAccessExpression(node) && isProcessEnv(node.expression) && ts.isStringLiteralLike(node.argumentExpression)
      && GUARDED_VARIABLES.has(node.argumentExpression.text)) lines.add(line(node));
    if (ts.isIfStatement(node) && /TEST_DATABASE/.test(node.expression.getText(source)) && /\bskip\(\)/.test(node.thenStatement.getText(source))) lines.add(line(node));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...lines].sort((a, b) => a - b);
}

/**
 * The lines of `source` that take a certificate their own way: a call of makeTestCertificate (which
 * gives undefined without openssl), or an `if` on a name with cert in it that calls skip().
 */
export function certificateGuards(source: ts.SourceFile): number[] {
  const lines = new Set<number>();
  const line = (n: ts.Node): number => source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'makeTestCertificate') lines.add(line(node));
    if (ts.isIfStatement(node) && /cert/i.test(node.expression.getText(source)) && /\bskip\(\)/.test(node.thenStatement.getText(source))) lines.add(line(node));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...lines].sort((a, b) => a - b);
}

/** The model's fields (src/core/model.ts): those every value has, and those only some have. */
const MODEL_FIELDS: Record<string, { every: string[]; some: string[] }> = {
  Code: {
    every: ['id', 'title', 'language', 'permalink', 'code', 'comment', 'createdAt', 'updatedAt', 'refactorsCount', 'trackbackUrl', 'userId'],
    some: ['user', 'refactors'],
  },
  Refactor: {
    every: ['id', 'codeId', 'title', 'language', 'code', 'comment', 'createdAt', 'rating', 'ratingsCount', 'userId', 'userName', 'userWebsite'],
    some: ['user'],
  },
  User: { every: ['id', 'name', 'identityUrl', 'rating', 'refactorsCount', 'website'], some: [] },
};

/**
 * The object literals of `source` that write out a whole Code, Refactor or User, as `Type@line`: a
 * literal naming every field every value of the type has (all but one when it spreads another
 * object in, which may give that one) and no field the type lacks. An expected value inside an
 * `assert.…(…)` call is not one (spelling each field out is its point), nor fast-check's
 * `fc.record({…})` of arbitraries.
 */
export function handBuiltModels(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const exempt = (node: ts.Node): boolean => {
    for (let up = node.parent; up !== undefined; up = up.parent) {
      if (!ts.isCallExpression(up)) continue;
      const callee = up.expression;
      if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'assert') return true;
      if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'record') return true;
    }
    return false;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      const keys = new Set<string>();
      let spreads = false;
      for (const p of node.properties) {
        if (ts.isSpreadAssignment(p)) spreads = true;
        else if (p.name !== undefined && (ts.isIdentifier(p.name) || ts.isStringLiteralLike(p.name))) keys.add(p.name.text);
      }
      for (const [type, { every, some }] of Object.entries(MODEL_FIELDS)) {
        const missing = every.filter((k) => !keys.has(k)).length;
        const foreign = [...keys].some((k) => !every.includes(k) && !some.includes(k));
        if (!foreign && missing <= (spreads ? 1 : 0) && !exempt(node)) {
          found.push(`${type}@${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Files let write out this many whole model values and no more, with why. */
const MODEL_LITERALS: Record<string, { literals: number; why: string }> = {
  'test/helpers/builders.ts': { literals: 3, why: 'the builders themselves' },
  'test/helpers/referenceService.ts': { literals: 3, why: 'the model the sample catalog decodes to, each field from its JSON' },
  'test/hostile/modelShape.ts': { literals: 3, why: 'the kind of each field of the model, not a value of it' },
};

/**
 * Loops that sleep and are not polling, with why: a file is let have this many and no more, so a
 * polling loop added beside one is still refused.
 */
const NOT_POLLING: Record<string, { loops: number; why: string }> = {
  'test/helpers/poll.ts': { loops: 1, why: 'the polling loop itself' },
  'test/integration/bench.test.ts': { loops: 1, why: 'times how late each timer fires until the host is quiet' },
};

describe('The tests keep each of their facts in one place', () => {
  const sources = testSources();

  it('reads the test sources', () => {
    assert.ok(sources.includes('test/helpers/poll.ts'), sources.slice(0, 5).join(', '));
    assert.ok(sources.length > 100, `${sources.length} files`);
  });

  it('finds a sleeping loop wherever it is written', () => {
    const found = (text: string) => sleepingLoops(ts.createSourceFile('probe.ts', text, ts.ScriptTarget.Latest, true));
    assert.deepEqual(found('async function f() {\n  while (!done()) await new Promise((r) => setTimeout(r, 10));\n}'), [2]);
    assert.deepEqual(found('async function f() {\n  for (;;) {\n    if (x) return;\n    await new Promise(function (resolve) { setTimeout(resolve, 50); });\n  }\n}'), [2]);
    assert.deepEqual(found('async function f() { await new Promise((r) => setTimeout(r, 500)); }'), [], 'one pause is not a loop');
    assert.deepEqual(found('for (const x of xs) it(x, async () => { await new Promise((r) => setTimeout(r, 5)); });'), [], 'a loop making tests');
    assert.deepEqual(found('async function f() {\n  for (;;) if (!(await new Promise((resolve) => { setTimeout(() => resolve(false), 500); }))) break;\n}'), [],
      'a timer that bounds a wait, not a pause');
  });

  it('has one polling loop: test/helpers/poll.ts waitFor, which every test uses', () => {
    const extra: string[] = [];
    for (const file of sources) {
      const lines = sleepingLoops(parse(file));
      if (lines.length > (NOT_POLLING[file]?.loops ?? 0)) extra.push(`${file}:${lines.join(',')}`);
    }
    assert.deepEqual(extra, [], 'a loop that sleeps until something holds: use waitFor from test/helpers/poll.ts');
  });

  it('finds a PostgreSQL guard wherever it is written', () => {
    const found = (text: string) => postgresGuards(ts.createSourceFile('probe.ts', text, ts.ScriptTarget.Latest, true));
    assert.deepEqual(found('const TEST_DATABASE = process.env.REFACTOR_BROWSER_TEST_DATABASE;'), [1]);
    assert.deepEqual(found("before(function () {\n  if (!url) {\n    if (process.env['CI']) throw new Error('set it');\n    this.skip();\n  }\n});"), [3]);
    assert.deepEqual(found("import { TEST_DATABASE } from './postgres';\nit('x', function () {\n  if (!TEST_DATABASE) this.skip();\n});"), [3]);
    assert.deepEqual(found("import { TEST_DATABASE } from './postgres';\nafter(async () => {\n  if (TEST_DATABASE) await drop(TEST_DATABASE);\n});"), [],
      'cleaning up after a suite that ran');
    assert.deepEqual(found('const home = process.env.HOME;'), []);
  });

  it('has one PostgreSQL guard: test/helpers/postgres.ts postgresOrSkip, which every test uses', () => {
    const extra: string[] = [];
    for (const file of sources) {
      if (file === 'test/helpers/postgres.ts') continue;
      const lines = postgresGuards(parse(file));
      if (lines.length > 0) extra.push(`${file}:${lines.join(',')}`);
    }
    assert.deepEqual(extra, [], 'a PostgreSQL suite skipped by hand: use postgresOrSkip(this) from test/helpers/postgres.ts (it fails in CI)');
  });

  it('finds a certificate taken by hand wherever it is written', () => {
    const found = (text: string) => certificateGuards(ts.createSourceFile('probe.ts', text, ts.ScriptTarget.Latest, true));
    assert.deepEqual(found("it('x', function () {\n  const cert = makeTestCertificate();\n  if (!cert) this.skip(); // no openssl\n});"), [2, 3]);
    assert.deepEqual(found("before(function () {\n  tls = tls ?? makeTestCertificate();\n});"), [2]);
    assert.deepEqual(found("it('x', function () {\n  if (certificate === undefined) {\n    this.skip();\n  }\n});"), [2]);
    assert.deepEqual(found("it('x', function () {\n  const cert = certificateOrSkip(this);\n  if (!cert.certFile) throw new Error('no file');\n});"), []);
  });

  it('has one way to a TLS certificate: test/hostile/tls.ts certificateOrSkip, which every test uses', () => {
    const extra: string[] = [];
    for (const file of sources) {
      if (file === 'test/hostile/tls.ts') continue;
      const lines = certificateGuards(parse(file));
      if (lines.length > 0) extra.push(`${file}:${lines.join(',')}`);
    }
    assert.deepEqual(extra, [], 'a certificate taken by hand: use certificateOrSkip(this) from test/hostile/tls.ts (it fails in CI)');
  });

  it('finds a whole model value written out wherever it is written', () => {
    const found = (text: string) => handBuiltModels(ts.createSourceFile('probe.ts', text, ts.ScriptTarget.Latest, true));
    const user = "{ id: 1, name: 'ana', identityUrl: '', rating: null, refactorsCount: null, website: '' }";
    const code = "{ id: 7, title: 'Sum', language: 'Ruby', permalink: 'sum', code: 'x', comment: '', createdAt: null, updatedAt: null,\n"
      + '  refactorsCount: 0, trackbackUrl: "", userId: 1, user: ' + user + ' }';
    assert.deepEqual(found(`const code: Code = ${code};`), ['Code@1', 'User@2']);
    assert.deepEqual(found("const r = (over) => ({ id: 1, codeId: 2, title: '', language: 'Ruby', code: '', comment: '', createdAt: null,\n"
      + "  rating: null, ratingsCount: null, userId: null, userName: '', ...over });"), ['Refactor@1'], 'userWebsite may come from the spread');
    assert.deepEqual(found(`assert.deepEqual(decodeCode(xml), ${code});`), [], 'an expected value');
    assert.deepEqual(found(`const code = fc.record(${code});`), [], 'arbitraries');
    assert.deepEqual(found("const m = { id: 1, name: 'ana', identityUrl: '', rating: null, refactorsCount: null, website: '', hasToken: true };"), [],
      'another type with more fields');
    assert.deepEqual(found("const c = { ...aCode(), title: 'x', permalink: 'x' };"), []);
  });

  it('builds whole model values in test/helpers/builders.ts only (aCode, aRefactor, aUser)', () => {
    const extra: string[] = [];
    for (const file of sources) {
      const found = handBuiltModels(parse(file));
      if (found.length > (MODEL_LITERALS[file]?.literals ?? 0)) extra.push(`${file}: ${found.join(', ')}`);
    }
    assert.deepEqual(extra, [], 'a Code, Refactor or User written out by hand: build it with aCode, aRefactor or aUser from test/helpers/builders.ts');
  });
});

describe('postgresOrSkip', () => {
  const skipped = new Error('skipped');
  const context = { skip: (): never => { throw skipped; } };

  it('gives the server named, without skipping', () => {
    assert.equal(postgresOrSkip(context, { REFACTOR_BROWSER_TEST_DATABASE: 'postgres://u@127.0.0.1:5432/test', CI: 'true' }), 'postgres://u@127.0.0.1:5432/test');
  });

  it('skips without a server, an empty value naming none', () => {
    assert.throws(() => postgresOrSkip(context, {}), skipped);
    assert.throws(() => postgresOrSkip(context, { REFACTOR_BROWSER_TEST_DATABASE: '' }), skipped);
  });

  it('fails in CI without a server, saying what to set', () => {
    assert.throws(() => postgresOrSkip(context, { CI: 'true' }), {
      message: 'CI runs the PostgreSQL suites: set REFACTOR_BROWSER_TEST_DATABASE (scripts/withPostgres.sh does)',
    });
  });
});

describe('certificateOrSkip', () => {
  const skipped = new Error('skipped');
  const context = { skip: (): never => { throw skipped; } };

  it('gives a certificate made by openssl, in a file a CLI process can trust, which disposes of it', function () {
    const cert = certificateOrSkip(this);
    try {
      assert.match(cert.cert, /^-----BEGIN CERTIFICATE-----\n/);
      assert.match(cert.key, /^-----BEGIN PRIVATE KEY-----\n/);
      assert.equal(readFileSync(cert.certFile, 'utf8'), cert.cert);
    } finally {
      cert.dispose();
    }
    assert.equal(existsSync(cert.certFile), false);
  });

  it('skips without openssl, and fails in CI saying what to install', () => {
    assert.throws(() => certificateOrSkip(context, {}, () => undefined), skipped);
    assert.throws(() => certificateOrSkip(context, { CI: 'true' }, () => undefined), {
      message: 'CI runs the TLS tests: install openssl (apt-get install openssl)',
    });
  });
});

describe('the model builders (test/helpers/builders.ts)', () => {
  it('give values of exactly the model\'s shape, with a user and refactorings only when given them', () => {
    checkUser(aUser(), 'aUser()');
    checkRefactor(aRefactor(), 'aRefactor()');
    checkCode(aCode(), 'aCode()', false);
    checkCode(aCode({ user: aUser(), refactors: [aRefactor({ user: aUser() })] }), 'aCode(…)', true);
    assert.deepEqual(Object.keys(aCode()), ['id', 'title', 'language', 'permalink', 'code', 'comment', 'createdAt', 'updatedAt', 'refactorsCount', 'trackbackUrl', 'userId']);
    assert.equal('user' in aRefactor(), false);
  });

  it('keep a value consistent: permalink, count, author and code id follow what is given, unless given too', () => {
    const ana = aUser({ id: 5, name: 'Ana', website: 'https://ana.example' });
    const code = aCode({ id: 3, title: 'Café au lait!', user: ana, refactors: [aRefactor({ rating: 4, user: ana }), aRefactor({ id: 2, codeId: 9 })] });
    assert.equal(code.permalink, 'cafe-au-lait');
    assert.equal(code.refactorsCount, 2);
    assert.equal(code.userId, 5);
    assert.deepEqual(code.refactors?.map((r) => [r.id, r.codeId, r.rating, r.userId, r.userName, r.userWebsite]),
      [[1, 3, 4, 5, 'Ana', 'https://ana.example'], [2, 9, null, null, '', '']]);
    const given = aCode({ title: 'Sum', permalink: '', refactorsCount: 7, userId: null, user: ana });
    assert.deepEqual([given.permalink, given.refactorsCount, given.userId], ['', 7, null]);
    assert.deepEqual(aRefactor({ user: ana, userId: null, userName: '' }), { ...aRefactor({ user: ana }), userId: null, userName: '' });
  });

  it('bundle for the browser: no Node module below them, for the web worker host\'s tests', () => {
    const root = path.resolve(__dirname, '../../..');
    const built = esbuild.buildSync({
      entryPoints: [path.join(root, 'test/helpers/builders.ts')],
      bundle: true, platform: 'browser', format: 'esm', write: false, outdir: 'unused', logLevel: 'silent', metafile: true,
    });
    assert.deepEqual(built.errors, []);
    assert.ok(Object.keys(built.metafile.inputs).every((f) => f.startsWith('src/') || f.startsWith('test/helpers/')), Object.keys(built.metafile.inputs).join(' '));
  });
});
