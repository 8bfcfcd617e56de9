// A service shaped like the original RefactorMyCode: its lists nest each code's author as <user>, its
// single-code answer gives `user-id` alone. `show` and the MCP server's get_code name the author as
// a list named them (the search index keeps what lists said), and "user #N" only while nothing has.
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

describe('the author named as lists named them, where a code\'s answer leaves the name out (process)', function () {
  this.timeout(30_000);
  const sample = loadSampleDataset();
  const code = sample.recentCodes.all.find((c) => c.user?.name && c.userId !== null)!;
  let server: http.Server;
  let url: string;
  let cache: string;

  before(async () => {
    // The reference service answering the sample catalog, with the single-code answer as the original
    // service gave it: no <user> element (a code's refactorings carry their author's name themselves).
    const answer = inProcessFetch(sample);
    server = http.createServer((req, res) => {
      void (async () => {
        const r = await answer(new URL(req.url ?? '/', SAMPLE_BASE_URL));
        let body = await r.text();
        if (/^\/codes\/\d+\.xml$/.test(req.url ?? '')) body = body.replace(/<user>[\s\S]*?<\/user>\s*/g, '');
        res.writeHead(r.status, { 'Content-Type': r.headers.get('content-type') ?? 'application/xml' });
        res.end(body);
      })();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'rb-author-'));
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    if (cache) fs.rmSync(cache, { recursive: true, force: true });
  });

  it('show says "user #N" until a search has read the lists, then the name they gave, in text and JSON', async () => {
    const env = { REFACTOR_BROWSER_CACHE: cache, REFACTOR_BROWSER_BASE_URL: url };
    const single = await (await fetch(`${url}codes/${code.id}.xml`)).text();
    assert.ok(single.includes('<user-id') && !single.includes('<user>'), 'the service leaves the name out');

    const before = await run(['show', String(code.id)], env);
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout.split('\n')[1], new RegExp(` · user #${code.userId} · `));
    assert.deepEqual(fs.readdirSync(cache), [], 'show makes no index');

    assert.equal((await run(['search', 'anything'], env, 20_000)).code, 0);
    const after = await run(['show', String(code.id)], env);
    assert.equal(after.code, 0, after.stderr);
    assert.match(after.stdout.split('\n')[1], new RegExp(` · ${code.user.name} · `));
    const json = JSON.parse((await run(['show', String(code.id), '--json'], env)).stdout) as { user?: { id: number; name: string } };
    assert.deepEqual([json.user?.id, json.user?.name], [code.userId, code.user.name]);
  });

  it('get_code names the author from the index `search` keeps', async () => {
    // The index from the test above, made by `refactor-browser search` over this service's lists.
    const transport = new StdioClientTransport({
      command: process.execPath, args: [CLI, 'mcp', '--base-url', url], env: { REFACTOR_BROWSER_CACHE: cache }, stderr: 'pipe',
    });
    const client = new Client({ name: 'refactor-browser-tests', version: '1.0.0' });
    try {
      await client.connect(transport, { timeout: 10_000 });
      const r = await client.callTool({ name: 'get_code', arguments: { code: String(code.id) } }, undefined, { timeout: 15_000 });
      const text = (r.content as { text: string }[])[0].text;
      assert.match(text, new RegExp(`^- author: ${code.user.name}$`, 'm'));
    } finally {
      await client.close();
    }
  });
});
