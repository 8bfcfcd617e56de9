// The tests' own facts each have one place: one polling loop (test/helpers/poll.ts), one
// PostgreSQL guard (test/helpers/postgres.ts), one way to a TLS certificate (test/hostile/tls.ts).
// A copy made in a test file drifts (its interval, its message, whether a time-out fails or returns
// false, whether CI fails or skips), so this reads every TypeScript file under test/ and refuses one.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { postgresOrSkip } from '../helpers/postgres';
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
