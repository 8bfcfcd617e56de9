// The reference service names a single code's author by user-id alone, as the spec says (its lists
// nest the <user>). `show` and the MCP server's get_code name the author all the same: as the search
// index `search` keeps says (what the lists said), else as /users/<id>.xml says, and "user #N" only
// while nothing does. The service here is the reference service answering the sample catalog over
// loopback, counting what it is asked for /users/, and, when told, without /users/ at all.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { inProcessFetch, SAMPLE_BASE_URL } from '../../../src/server/http/fetchHandler';
import { CLI, run } from '../../helpers/cliProcess';

describe('the author of a code whose answer gives user-id alone, in show and get_code (process)', function () {
  this.timeout(30_000);
  const sample = loadSampleDataset();
  const code = sample.recentCodes.all.find((c) => c.user?.name && c.userId !== null)!;
  let server: http.Server;
  let url: string;
  /** Requests for /users/ since the last reset. */
  let userAsks = 0;
  /** Whether /users/ answers 404, as a service without it would. */
  let withoutUsers = false;
  let cache: string;

  before(async () => {
    const answer = inProcessFetch(sample);
    server = http.createServer((req, res) => {
      void (async () => {
        if (req.url?.startsWith('/users/')) {
          userAsks++;
          if (withoutUsers) {
            res.writeHead(404, { 'Content-Type': 'text/html' });
            res.end('<h1>Not found</h1>');
            return;
          }
        }
        const r = await answer(new URL(req.url ?? '/', SAMPLE_BASE_URL));
        res.writeHead(r.status, { 'Content-Type': r.headers.get('content-type') ?? 'application/xml' });
        res.end(await r.text());
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  beforeEach(() => {
    userAsks = 0;
    withoutUsers = false;
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'rb-author-'));
  });
  afterEach(() => fs.rmSync(cache, { recursive: true, force: true }));
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  const authorLine = (stdout: string) => stdout.split('\n')[1];

  async function getCode(): Promise<string> {
    const transport = new StdioClientTransport({
      command: process.execPath, args: [CLI, 'mcp', '--base-url', url], env: { REFACTOR_BROWSER_CACHE: cache }, stderr: 'pipe',
    });
    const client = new Client({ name: 'refactor-browser-tests', version: '1.0.0' });
    try {
      await client.connect(transport, { timeout: 10_000 });
      const r = await client.callTool({ name: 'get_code', arguments: { code: String(code.id) } }, undefined, { timeout: 15_000 });
      return (r.content as { text: string }[])[0].text;
    } finally {
      await client.close();
    }
  }

  it('the service leaves the name out of the single code', async () => {
    const single = await (await fetch(`${url}codes/${code.id}.xml`)).text();
    assert.ok(single.includes(`<user-id type="integer">${code.userId}</user-id>`) && !single.includes('<user>'), single.slice(0, 400));
  });

  it('show names the author from /users/<id>.xml when no index is saved, in text and JSON, and makes no index', async () => {
    const env = { REFACTOR_BROWSER_CACHE: cache, REFACTOR_BROWSER_BASE_URL: url };
    const text = await run(['show', String(code.id)], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(authorLine(text.stdout), new RegExp(` · ${code.user.name} · `));
    const json = JSON.parse((await run(['show', String(code.id), '--json'], env)).stdout) as { user?: unknown };
    assert.deepEqual(json.user, { ...code.user }, 'every User field, as /users/<id>.xml gives them');
    assert.equal(userAsks, 2);
    assert.deepEqual(fs.readdirSync(cache), [], 'show makes no index');
  });

  it('show says "user #N" where nothing names the author, then takes the name the index kept, asking /users/ no more', async () => {
    withoutUsers = true;
    const env = { REFACTOR_BROWSER_CACHE: cache, REFACTOR_BROWSER_BASE_URL: url };
    const before = await run(['show', String(code.id)], env);
    assert.equal(before.code, 0, before.stderr);
    assert.match(authorLine(before.stdout), new RegExp(` · user #${code.userId} · `));
    assert.equal(before.stderr, '', 'the name not found is no failure');

    assert.equal((await run(['search', 'anything'], env, 20_000)).code, 0);
    userAsks = 0;
    const after = await run(['show', String(code.id)], env);
    assert.equal(after.code, 0, after.stderr);
    assert.match(authorLine(after.stdout), new RegExp(` · ${code.user.name} · `));
    const json = JSON.parse((await run(['show', String(code.id), '--json'], env)).stdout) as { user?: { id: number; name: string } };
    assert.deepEqual([json.user?.id, json.user?.name], [code.userId, code.user.name]);
    assert.equal(userAsks, 0, 'the index named the author: /users/ is not asked');
  });

  it('get_code names the author from /users/<id>.xml when no index is saved, and from the index once `search` made one', async () => {
    assert.match(await getCode(), new RegExp(`^- author: ${code.user.name}$`, 'm'));
    assert.equal(userAsks, 1);

    assert.equal((await run(['search', 'anything'], { REFACTOR_BROWSER_CACHE: cache, REFACTOR_BROWSER_BASE_URL: url }, 20_000)).code, 0);
    withoutUsers = true;
    userAsks = 0;
    assert.match(await getCode(), new RegExp(`^- author: ${code.user.name}$`, 'm'));
    assert.equal(userAsks, 0);
  });
});
