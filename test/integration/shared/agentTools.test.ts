// The language model tools an agent in VS Code's chat calls, in both extension hosts, invoked the way
// VS Code invokes them for a model (no language model is needed): searchCatalog answers from what
// search keeps, with the service stopped too; getCode reads a code by id, code_ref or page URL with
// its refactorings best rated first; unknown codes, dead services and bad inputs get one line; every
// answer stays within its bound.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { ratingPhrase, sortRefactorings } from '../../../src/core/ratings';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import sampleJson from '../../../src/server/catalog/sample-catalog.json';
import { Commands } from '../../../src/extension/common/commandIds';
import { CONTAINS } from '../../helpers/similarSnippets';
import { api, resetState, useSettings, waitFor } from '../helpers';
import { refusedUrl, startService, type RunningService } from '../services';

const sample = loadSampleDataset();
const SEARCH = 'refactorBrowser_searchCatalog';
const GET_CODE = 'refactorBrowser_getCode';
const FIND_SIMILAR = 'refactorBrowser_findSimilar';
/** The most characters an answer may hold. */
const BOUND = 8000;

/** The tool's answer as the model reads it: its text parts. */
async function invoke(name: string, input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((part) => {
    const { value } = part as { value?: unknown };
    return typeof value === 'string' ? value : '';
  }).join('');
}

/** What the tool says when it cannot answer: the message of the error the invocation fails with. */
async function refusal(name: string, input: object): Promise<string> {
  let answered: string;
  try {
    answered = await invoke(name, input);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    assert.ok(!message.includes('\n'), `one line: ${message}`);
    return message;
  }
  assert.fail(`the tool answered instead of refusing:\n${answered}`);
}

describe('Tools for agents', function () {
  this.timeout(60_000);

  before(resetState);
  after(async () => {
    await resetState();
    await (await api()).forgetSearch();
  });

  it('are listed with their input schemas and descriptions', () => {
    const tools = vscode.lm.tools.filter((t) => t.name.startsWith('refactorBrowser_'));
    assert.deepStrictEqual(tools.map((t) => t.name).sort(), [FIND_SIMILAR, GET_CODE, SEARCH]);
    const similar = tools.find((t) => t.name === FIND_SIMILAR)!.inputSchema as { required: string[] };
    assert.deepStrictEqual(similar.required, ['code', 'language']);
    const search = tools.find((t) => t.name === SEARCH)!;
    const schema = search.inputSchema as { required: string[]; properties: Record<string, { type: string; enum?: string[]; maximum?: number }> };
    assert.deepStrictEqual(schema.required, ['query']);
    assert.deepStrictEqual(Object.entries(schema.properties).map(([k, p]) => [k, p.type]), [['query', 'string'], ['language', 'string'], ['limit', 'integer']]);
    assert.ok(schema.properties.language.enum?.includes('C#'));
    assert.strictEqual(schema.properties.limit.maximum, 50);
    const code = tools.find((t) => t.name === GET_CODE)!;
    assert.deepStrictEqual(code.inputSchema, {
      type: 'object',
      properties: { code: { type: 'string', description: 'The code: its id (42), its code_ref (42-some-title) or its page URL (https://host/codes/42-some-title).' } },
      required: ['code'],
    });
    for (const t of tools) assert.ok(/refactoring/.test(t.description) && !t.description.includes('%'), `${t.name}: ${t.description}`);
  });

  describe('on the built-in sample catalog', () => {
    beforeEach(async () => {
      await (await api()).forgetSearch();
    });

    it('searchCatalog finds an indexed code by its title, best first, in the language asked for, as many as asked for', async () => {
      const browser = await api();
      assert.ok((await browser.indexCatalog())?.complete);
      const code = sample.recentCodes.all[4];
      const found = await invoke(SEARCH, { query: code.title });
      assert.match(found, new RegExp(`^1\\. Code #${code.id}: `, 'm'), found);
      assert.ok(found.includes(code.title), found);
      assert.ok(found.includes(`among ${sample.codes.size} codes`), found);

      const other = code.language === 'Ruby' ? 'Python' : 'Ruby';
      const elsewhere = await invoke(SEARCH, { query: code.title, language: other });
      assert.ok(!elsewhere.includes(`Code #${code.id}:`), elsewhere);
      assert.ok(elsewhere.includes(` in ${other}`), elsewhere);

      const two = await invoke(SEARCH, { query: 'list', limit: 2 });
      assert.match(two, /^2\. Code #/m);
      assert.doesNotMatch(two, /^3\. /m);
    });

    it('searchCatalog finds what the Catalog listed without indexing, and says the catalog is not indexed', async () => {
      const browser = await api();
      // Listed anew, as the Catalog may hold the list from an earlier test, from before search forgot it.
      await vscode.commands.executeCommand(Commands.refresh);
      await browser.treeRows(['Recent Codes']);
      const code = sample.recentCodes.all[2];
      const found = await waitFor(async () => {
        const answer = await invoke(SEARCH, { query: code.title });
        return new RegExp(`^1\\. Code #${code.id}: `, 'm').test(answer) ? answer : undefined;
      }, 'the listed code found');
      assert.match(found, /The catalog is not indexed: search knows only the codes the person browsed/);
    });

    it('getCode names the code\'s author, whom the answer names by user-id alone: from the list search keeps, else the service', async () => {
      const browser = await api();
      // Listed anew, as the Catalog may hold the list from an earlier test, from before search forgot it.
      await vscode.commands.executeCommand(Commands.refresh);
      await browser.treeRows(['Recent Codes']);
      const code = sample.recentCodes.all[0];
      const author = sampleJson.users.find((u) => u.id === code.userId)!.name;
      const answer = await waitFor(async () => {
        const text = await invoke(GET_CODE, { code: String(code.id) });
        return text.includes(`- author: ${author}`) ? text : undefined;
      }, `${author} named`);
      assert.match(answer, new RegExp(`^# Code #${code.id}: `, 'm'));
    });

    it('searchCatalog says when search knows no code yet', async () => {
      const answer = await invoke(SEARCH, { query: 'anything' });
      assert.match(answer, /^No matches for "anything"/);
      assert.match(answer, /no search index of the built-in sample catalog yet: the person can run "Refactor Browser: Index the Catalog for Search"/);
    });

    it('refuses an input it cannot use with one line', async () => {
      assert.match(await refusal(SEARCH, { query: '  ' }), /"query" must be a non-empty string/);
      assert.match(await refusal(SEARCH, { query: 'sum', limit: 500 }), /"limit" must be a whole number from 1 to 50/);
      assert.match(await refusal(GET_CODE, { code: 'not a code' }), /"not a code" is not a code id/);
    });
  });

  describe('over a service on loopback', () => {
    let service: RunningService;

    beforeEach(async () => {
      service = await startService();
      await useSettings({ baseUrl: service.url });
      await (await api()).forgetSearch();
    });
    afterEach(async () => {
      await (await api()).forgetSearch();
      await resetState();
      await service.close();
    });

    it('searchCatalog answers from the index kept on this machine once the service is stopped, with each code\'s page URL', async () => {
      const browser = await api();
      assert.ok((await browser.indexCatalog())?.complete);
      await browser.reloadSearch();
      await service.close();
      const code = sample.recentCodes.all[7];
      const found = await invoke(SEARCH, { query: code.title });
      assert.match(found, new RegExp(`^1\\. Code #${code.id}: `, 'm'), found);
      assert.ok(found.includes(`${service.url}/codes/${code.id}`), found);
    });

    it('getCode reads a code by id, by code_ref and by page URL, with its refactorings best rated first', async () => {
      const code = sample.codes.get(1)!;
      const ref = `${code.id}-${code.permalink}`;
      const byId = await invoke(GET_CODE, { code: String(code.id) });
      assert.match(byId, new RegExp(`^# Code #1: ${code.title}$`, 'm'));
      assert.ok(byId.includes(`- page: ${service.url}/codes/${ref}`), byId);
      assert.ok(byId.includes(`\`\`\`ruby\n${code.code.replace(/\n+$/, '')}\n\`\`\``), 'the code in a fenced block');
      const order = sortRefactorings(code.refactors.map((r) => ({ ...r, createdAt: r.createdAt.date })), 'bestRated');
      assert.strictEqual(order.length, 9);
      const at = order.map((r) => byId.indexOf(`## Refactoring #${r.id}:`));
      assert.ok(at.every((i, n) => i > 0 && (n === 0 || i > at[n - 1])), `best rated first: ${order.map((r) => r.id).join(', ')}`);
      assert.ok(byId.includes(ratingPhrase(order[0])), ratingPhrase(order[0]));
      assert.ok(byId.length <= BOUND);

      assert.strictEqual(await invoke(GET_CODE, { code: ref }), byId);
      assert.strictEqual(await invoke(GET_CODE, { code: `${service.url}/codes/${ref}` }), byId);
    });

    it('getCode names the code and the service it is not on, or the service it reads, in one line', async () => {
      const said = await refusal(GET_CODE, { code: '999' });
      assert.ok(said.startsWith(`no code 999 on ${service.url}/`), said);
      const elsewhere = await refusal(GET_CODE, { code: 'https://elsewhere.example/codes/1' });
      assert.ok(elsewhere.includes(`is not a page of ${service.url}/`), elsewhere);
    });
  });

  it('getCode says in one line that a dead service did not answer', async () => {
    const dead = await refusedUrl();
    await useSettings({ baseUrl: dead });
    try {
      const said = await refusal(GET_CODE, { code: '1' });
      assert.match(said, /^the service did not answer: /);
      assert.ok(said.includes(dead), said);
    } finally {
      await resetState();
    }
  });

  it('getCode keeps a code with long refactorings within 8,000 characters, best rated first, and says what it left out', async () => {
    const base = sampleJson.codes[0];
    const long = Array.from({ length: 15 }, (_, i) => `  total += item.price * ${i} # a long line that makes this refactoring take room`);
    const refactors = Array.from({ length: 30 }, (_, i) => ({
      id: i + 1, codeId: base.id, userId: 2, title: `Take ${i + 1}`, rating: (i % 5) + 1, ratingsCount: i + 1,
      createdAt: '2008-01-01T00:00:00+00:00', comment: 'Longer.', code: ['def total(items)', ...long, 'end', ''],
    }));
    const service = await startService({ users: sampleJson.users, codes: [base], refactors });
    try {
      await useSettings({ baseUrl: service.url });
      const answer = await invoke(GET_CODE, { code: String(base.id) });
      assert.ok(answer.length <= BOUND, `${answer.length} characters`);
      // Rated 5 with the most votes: Take 30 (30 votes), then Take 25.
      assert.ok(answer.indexOf('## Refactoring #30:') > 0 && answer.indexOf('## Refactoring #30:') < answer.indexOf('## Refactoring #25:'), answer);
      assert.match(answer, /\d+ more refactorings left out to keep this answer short/);
    } finally {
      await resetState();
      await service.close();
    }
  });

  it('findSimilar finds the sample code a renamed function was copied from, with its best refactoring in the function\'s names', async () => {
    const browser = await api();
    if ((await browser.searchIndex()).indexedAt === 0) await browser.indexCatalog();
    // The sample catalog's code #12, "Check if a value is in an array", with every name changed.
    const code = CONTAINS;
    const answer = await invoke(FIND_SIMILAR, { code, language: 'javascript' });
    assert.ok(answer.length <= BOUND, `${answer.length} characters`);
    assert.match(answer, /^\d+ codes? in the catalog like this JavaScript code, most alike first\./);
    assert.ok(answer.includes('## 1. Code #12: Check if a value is in an array\n100% alike; language: JavaScript'), answer);
    assert.ok(answer.includes('Best refactoring #32'), answer);
    assert.ok(answer.includes("In the given code's names:\n\n```javascript\nfunction includesItem(list, wanted) {\n    for (var k = 0, n = list.length; k < n; k++) {"), answer);
  });

  it('findSimilar still answers over a service whose best refactoring of the match is too long to compare, saying it is not adapted', async () => {
    // A service takes a refactoring of more lines than are compared (60,000 characters, any number of lines).
    const code = sampleJson.codes.find((c) => c.id === 12)!;
    const best = sampleJson.refactors.find((r) => r.codeId === 12 && r.rating === 5)!;
    const long = { ...best, code: [...best.code.slice(0, -1), ...Array<string>(2000).fill('// more'), ''] };
    const service = await startService({ users: sampleJson.users, codes: [code], refactors: [long] });
    try {
      await useSettings({ baseUrl: service.url });
      const browser = await api();
      assert.ok((await browser.indexCatalog())?.complete);
      const mine = CONTAINS;
      const answer = await invoke(FIND_SIMILAR, { code: mine, language: 'javascript' });
      assert.ok(answer.includes('## 1. Code #12: Check if a value is in an array\n100% alike; language: JavaScript'), answer);
      assert.ok(answer.includes('It does not adapt to the given code (the code is too long to compare (more than 2000 lines)); as written:'), answer);
      assert.ok(answer.length <= BOUND, `${answer.length} characters`);
    } finally {
      await (await api()).forgetSearch();
      await resetState();
      await service.close();
    }
  });

  it('findSimilar gives the same answer with the service stopped: the code, its best refactoring as the service rates it, in the same names', async () => {
    // The sample's code #12 with its refactorings: the best rated of them is the one to name, with its rating, offline too.
    const code = sampleJson.codes.find((c) => c.id === 12)!;
    const refactors = sampleJson.refactors.filter((r) => r.codeId === 12);
    const service = await startService({ users: sampleJson.users, codes: [code], refactors });
    try {
      await useSettings({ baseUrl: service.url });
      const browser = await api();
      assert.ok((await browser.indexCatalog())?.complete);
      const mine = CONTAINS;
      const online = await invoke(FIND_SIMILAR, { code: mine, language: 'javascript' });
      const bestId = sortRefactorings(refactors, 'bestRated')[0].id;
      const best = refactors.find((r) => r.id === bestId)!;
      assert.ok(online.includes(`Best refactoring #${best.id}: ${best.title}, ${ratingPhrase(best)}`), online);
      assert.ok(online.includes("In the given code's names:"), online);
      await service.close();
      const offline = await invoke(FIND_SIMILAR, { code: mine, language: 'javascript' });
      assert.strictEqual(offline, online);
    } finally {
      await (await api()).forgetSearch();
      await resetState();
      await service.close();
    }
  });

  it('findSimilar refuses an input it cannot use in one line, and says when nothing is alike', async () => {
    assert.match(await refusal(FIND_SIMILAR, { code: 'x = 1' }), /^"language" must be one of Ruby, /);
    assert.match(await refusal(FIND_SIMILAR, { code: ' ', language: 'Python' }), /^"code" must be the code to compare/);
    const huge = 'x = 1\n'.repeat(3000);
    assert.match(await refusal(FIND_SIMILAR, { code: huge, language: 'Python' }), /too long to compare/);
    const none = await invoke(FIND_SIMILAR, { code: 'def shout(words):\n    return " ".join(w.upper() + "!" for w in words if w)\n', language: 'Python' });
    assert.match(none, /^No code in the catalog is like this Python code\./);
  });
});
