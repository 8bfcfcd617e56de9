// `refactor-browser mcp`, the built command line run as a process and spoken to by the Model Context
// Protocol SDK's own client over stdio, as an agent would: the tools listed with their schemas,
// both answering over a reference service on loopback and over the built-in sample catalog, bad
// inputs and an unreachable service answered in one line, and nothing on stdout but protocol messages.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { RefactorClient } from '../../../src/client/client';
import { codeAnswer, searchAnswer } from '../../../src/agents/answers';
import { CODE_DESCRIPTION, CODE_INPUT_SCHEMA, SEARCH_DESCRIPTION, SIMILAR_DESCRIPTION, SIMILAR_INPUT_SCHEMA, SEARCH_INPUT_SCHEMA } from '../../../src/agents/tools';
import { indexFile } from '../../../src/cli/search';
import { parseDataset } from '../../../src/server/catalog/dataset';
import { generateCatalog } from '../../../src/server/catalog/generatedCatalog';
import sampleJson from '../../../src/server/catalog/sample-catalog.json';
import { startServer, type RunningServer } from '../../../src/server/http/server';
import { CodeSearch } from '../../../src/search/searchIndex';
import { MAX_COMPARED_LINES } from '../../../src/similarity/tokens';
import { CLI, run } from '../../helpers/cliProcess';
import { waitFor } from '../../helpers/poll';

interface Session {
  client: Client;
  stderr: () => string;
  /** What the client could not read as a protocol message: stray output on stdout. */
  errors: Error[];
}

/** A text answer: its one text part and whether it is an error. */
interface Answer {
  text: string;
  isError: boolean;
}

describe('refactor-browser mcp (command line)', function () {
  this.timeout(30_000);
  let cache: string;
  let server: RunningServer;
  const sessions: Session[] = [];

  before(function () {
    if (!fs.existsSync(CLI) || !fs.existsSync(path.join(path.dirname(CLI), 'mcp.js'))) this.skip(); // built by `node esbuild.config.mjs`
  });
  beforeEach(async () => {
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'rb-mcp-'));
    server = await startServer({ host: '127.0.0.1', port: 0, catalog: generateCatalog({ codes: 40 }) });
  });
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.client.close()));
    await server.close();
    fs.rmSync(cache, { recursive: true, force: true });
  });

  async function connect(args: string[]): Promise<Session> {
    const transport = new StdioClientTransport({
      command: process.execPath, args: [CLI, 'mcp', ...args], env: { REFACTOR_BROWSER_CACHE: cache }, stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const client = new Client({ name: 'refactor-browser-tests', version: '1.0.0' });
    const session: Session = { client, stderr: () => stderr, errors: [] };
    client.onerror = (e) => session.errors.push(e);
    sessions.push(session);
    await client.connect(transport, { timeout: 10_000 });
    return session;
  }

  async function call(s: Session, name: string, args: Record<string, unknown>): Promise<Answer> {
    const r = await s.client.callTool({ name, arguments: args }, undefined, { timeout: 15_000 });
    const content = r.content as { type: string; text: string }[];
    assert.equal(content.length, 1);
    assert.equal(content[0].type, 'text');
    return { text: content[0].text, isError: r.isError === true };
  }

  /** The index `refactor-browser search` keeps for the service, as it kept it. */
  function savedIndex(service: string): CodeSearch {
    return CodeSearch.fromJSON(fs.readFileSync(indexFile(cache, service), 'utf8')).index;
  }

  it('lists search_catalog, get_code and find_similar_code, read-only, with the descriptions and input schemas the extension\'s tools have', async () => {
    const s = await connect(['--base-url', server.url]);
    const { tools } = await s.client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['search_catalog', 'get_code', 'find_similar_code']);
    const [search, code, similar] = tools;
    assert.equal(search.description, SEARCH_DESCRIPTION);
    assert.equal(code.description, CODE_DESCRIPTION);
    assert.equal(similar.description, SIMILAR_DESCRIPTION);
    const withoutDialect = ({ $schema: _, ...schema }: Record<string, unknown>) => schema;
    assert.deepEqual(withoutDialect(search.inputSchema), JSON.parse(JSON.stringify(SEARCH_INPUT_SCHEMA)));
    assert.deepEqual(withoutDialect(code.inputSchema), JSON.parse(JSON.stringify(CODE_INPUT_SCHEMA)));
    assert.deepEqual(withoutDialect(similar.inputSchema), JSON.parse(JSON.stringify(SIMILAR_INPUT_SCHEMA)));
    for (const t of tools) assert.equal(t.annotations?.readOnlyHint, true, t.name);
    assert.deepEqual(s.errors, []);
  });

  it('get_code answers a code with its refactorings by id, code ref and page URL, as the extension\'s tool does', async () => {
    const s = await connect(['--base-url', server.url]);
    const client = new RefactorClient({ baseUrl: server.url });
    let expected: string;
    try {
      const code = await client.code(7);
      assert.equal(code.user, undefined);
      // The author named as /users/<id>.xml names them (no index is saved yet).
      expected = codeAnswer({ ...code, user: await client.user(code.userId!) }, server.url);
    } finally {
      await client.close();
    }
    const page = /^- page: (\S+)$/m.exec(expected)![1];
    for (const code of ['7', 7, page.slice(page.lastIndexOf('/') + 1), page, `${page}.xml`]) {
      assert.deepEqual(await call(s, 'get_code', { code }), { text: expected, isError: false }, String(code));
    }
    assert.match(expected, /^# Code #7: .+\n[^]*\n## Refactoring #\d+: /);
    assert.deepEqual(s.errors, []);
  });

  it('search_catalog says how to make the index while there is none, then answers from the one `refactor-browser search` keeps', async () => {
    const s = await connect(['--base-url', server.url]);
    const before = await call(s, 'search_catalog', { query: 'sum array' });
    assert.equal(before.isError, true);
    assert.equal(before.text, `no search index of ${server.url.replace(/\/?$/, '/')} yet: run "refactor-browser search --base-url ${server.url} QUERY" once to make one (any QUERY), then search again`);

    const made = await run(['search', 'anything', '--base-url', server.url], { REFACTOR_BROWSER_CACHE: cache }, 20_000);
    assert.equal(made.code, 0, made.stderr);
    const index = savedIndex(server.url);
    const args = { query: 'sum array', language: 'ruby', limit: 3 };
    const hits = index.search('sum array', { language: 'Ruby', limit: 3 });
    assert.ok(hits.length > 0);
    const answer = await call(s, 'search_catalog', args);
    assert.deepEqual(answer, {
      text: searchAnswer({ query: 'sum array', language: 'Ruby', hits, baseUrl: server.url, counts: index.counts(), codeTool: 'get_code' }),
      isError: false,
    });
    assert.match(answer.text, new RegExp(`^${hits.length} match(es)? for "sum array" in Ruby among 40 codes and 120 refactorings, best first\\.`));
    assert.deepEqual(s.errors, []);
  });

  it('find_similar_code finds the code a renamed function was copied from, with its best refactoring in the function\'s names', async () => {
    const s = await connect([]);
    const code = 'function includesItem(list, wanted) {\n  var seen = false;\n  for (var k = 0; k < list.length; k++) {\n    if (list[k] == wanted) {\n      seen = true;\n    }\n  }\n  return seen;\n}\n';
    const before = await call(s, 'find_similar_code', { code, language: 'JavaScript' });
    assert.equal(before.isError, true);
    assert.match(before.text, /^no search index of the built-in sample catalog yet: run "refactor-browser search QUERY" once/);
    const made = await run(['search', 'anything'], { REFACTOR_BROWSER_CACHE: cache }, 20_000);
    assert.equal(made.code, 0, made.stderr);
    const answer = await call(s, 'find_similar_code', { code, language: 'JavaScript' });
    assert.equal(answer.isError, false, answer.text);
    assert.ok(answer.text.includes('## 1. Code #12: Check if a value is in an array\n100% alike; language: JavaScript'), answer.text);
    assert.ok(answer.text.includes("In the given code's names:\n\n```javascript\nfunction includesItem(list, wanted) {\n    for (var k = 0, n = list.length; k < n; k++) {"), answer.text);
    const refused = await call(s, 'find_similar_code', { code, language: 'Klingon' });
    assert.deepEqual([refused.isError, /^"language" must be one of Ruby, /.test(refused.text)], [true, true]);
    assert.deepEqual(s.errors, []);
  });

  it('find_similar_code still answers when a match\'s best refactoring is too long to compare, saying it is not adapted', async () => {
    // A refactoring of more lines than are compared is one a service takes (60,000 characters, any number of lines).
    const best = sampleJson.refactors.find((r) => r.codeId === 12 && r.rating === 5)!;
    const long = { ...best, code: [...best.code.slice(0, -1), ...Array<string>(MAX_COMPARED_LINES).fill('// more'), ''] };
    const catalog = parseDataset({ ...sampleJson, refactors: sampleJson.refactors.map((r) => (r === best ? long : r)) }, 'a long refactoring');
    const service = await startServer({ host: '127.0.0.1', port: 0, catalog });
    try {
      const made = await run(['search', 'anything', '--base-url', service.url], { REFACTOR_BROWSER_CACHE: cache }, 20_000);
      assert.equal(made.code, 0, made.stderr);
      const s = await connect(['--base-url', service.url]);
      const code = 'function includesItem(list, wanted) {\n  var seen = false;\n  for (var k = 0; k < list.length; k++) {\n    if (list[k] == wanted) {\n      seen = true;\n    }\n  }\n  return seen;\n}\n';
      const answer = await call(s, 'find_similar_code', { code, language: 'JavaScript' });
      assert.equal(answer.isError, false, answer.text);
      assert.ok(answer.text.includes('## 1. Code #12: Check if a value is in an array\n100% alike; language: JavaScript'), answer.text);
      assert.ok(answer.text.includes(`It does not adapt to the given code (the code is too long to compare (more than ${MAX_COMPARED_LINES} lines)); as written:`), answer.text);
      assert.deepEqual(s.errors, []);
    } finally {
      await service.close();
    }
  });

  it('answers over the built-in sample catalog without --base-url', async () => {
    const s = await connect([]);
    const answer = await call(s, 'get_code', { code: 1 });
    assert.equal(answer.isError, false);
    assert.match(answer.text, /^# Code #1: Sum an array of prices\n/);
    assert.match((await call(s, 'get_code', { code: 999999 })).text, /^no code 999999 on the built-in sample catalog; /);
    assert.match(s.stderr(), /^refactor-browser: MCP server on stdio for the built-in sample catalog\n/);
  });

  it('answers a bad input, an unknown code and another service\'s page with one line and isError', async () => {
    const s = await connect(['--base-url', server.url]);
    const base = server.url.replace(/\/?$/, '/');
    const cases: [string, Record<string, unknown>, string | RegExp][] = [
      ['search_catalog', {}, '"query" must be a non-empty string of words to look for'],
      ['search_catalog', { query: 'x', limit: 500 }, '"limit" must be a whole number from 1 to 50'],
      ['search_catalog', { query: 'x', language: 'Klingon' }, /^"language" must be one of Ruby, PHP, /],
      ['get_code', { code: 'sum' }, '"sum" is not a code id (42), a code ref (42-some-title) or a code\'s page URL'],
      ['get_code', { code: true }, '"code" must be a code id (42), a code ref (42-some-title) or a code\'s page URL'],
      ['get_code', { code: 'http://elsewhere.test/codes/7' }, `http://elsewhere.test/codes/7 is not a page of ${base}: give its id, or a page URL of that service`],
      ['get_code', { code: 999999 }, `no code 999999 on ${base}; search the catalog for an id that exists`],
    ];
    for (const [tool, args, expected] of cases) {
      const answer = await call(s, tool, args);
      assert.equal(answer.isError, true, JSON.stringify(args));
      if (typeof expected === 'string') assert.equal(answer.text, expected);
      else assert.match(answer.text, expected);
      assert.doesNotMatch(answer.text, /\n/);
    }
    assert.deepEqual(s.errors, []);
  });

  it('says the service did not answer when nothing listens at its address, within the timeout', async () => {
    const port = await unusedPort();
    const s = await connect(['--base-url', `http://127.0.0.1:${port}`, '--timeout', '3']);
    const started = Date.now();
    const answer = await call(s, 'get_code', { code: 1 });
    assert.ok(Date.now() - started < 5000, `${Date.now() - started} ms`);
    assert.equal(answer.isError, true);
    assert.match(answer.text, new RegExp(`^the service did not answer: http://127\\.0\\.0\\.1:${port}/codes/1\\.xml: connection refused; try again later, or check that http://127\\.0\\.0\\.1:${port}/ is the service's address$`));
    assert.match(s.stderr(), /refactor-browser: the service did not answer: /, 'failures are logged on stderr');
    assert.deepEqual(s.errors, []);
  });

  it('writes nothing but protocol messages on stdout, logs on stderr, and ends when its client closes stdin', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--base-url', server.url], {
      env: { PATH: process.env.PATH, REFACTOR_BROWSER_CACHE: cache }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
      send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      send({ method: 'notifications/initialized' });
      send({ id: 2, method: 'tools/list' });
      send({ id: 3, method: 'tools/call', params: { name: 'get_code', arguments: { code: 3 } } });
      send({ id: 4, method: 'tools/call', params: { name: 'search_catalog', arguments: { query: 'x' } } });
      send({ id: 5, method: 'tools/call', params: { name: 'get_code', arguments: { code: 'nonsense' } } });
      send({ id: 6, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
      await waitFor(() => stdout.split('\n').filter(Boolean).length >= 6, 'six answers on stdout');
      child.stdin.end();
      assert.equal(await exited, 0, stderr);
    } finally {
      clearTimeout(timer);
    }
    const messages = stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { jsonrpc: string; id: number });
    assert.ok(stdout.endsWith('\n'));
    // Calls are answered as they finish, not in the order sent.
    assert.deepEqual(messages.map((m) => [m.jsonrpc, m.id]).sort((a, b) => Number(a[1]) - Number(b[1])), [1, 2, 3, 4, 5, 6].map((id) => ['2.0', id]));
    assert.match(stderr, /^refactor-browser: MCP server on stdio for http:\/\/127\.0\.0\.1:\d+\/\n/);
  });

  it('takes no argument and no --json: bad usage, exit 2, before any protocol', async () => {
    for (const args of [['mcp', 'extra'], ['mcp', '--json'], ['mcp', '--base-url', 'ftp://x']]) {
      const r = await run(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^refactor-browser: .+\nRun "refactor-browser mcp --help" for usage\.\n$/);
    }
    const help = await run(['mcp', '--help']);
    assert.match(help.stdout, /^Usage: refactor-browser mcp \[--base-url URL\]/);
  });
});

/** A loopback port nobody listens on: one the system just gave out and took back. */
async function unusedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

