// #getCode's answer names a code's author, which the service's single-code answer gives by user-id
// alone: the name a list gave, which search keeps, else the service's /users/<id>.xml (the
// reference service answered in process, its requests counted), else "user #N". answering.ts
// imports no `vscode`, so plain Node runs it.
import * as assert from 'node:assert/strict';
import { RefactorClient } from '../../../src/client/client';
import type { Code } from '../../../src/core/model';
import { CodeSearch } from '../../../src/search/searchIndex';
import { codeText } from '../../../src/extension/agents/answering';
import type { AgentToolDeps } from '../../../src/extension/agents/tools';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { inProcessFetch, SAMPLE_BASE_URL } from '../../../src/server/http/fetchHandler';

function depsOver(search: CodeSearch): AgentToolDeps {
  return {
    service: { name: () => SAMPLE_BASE_URL, baseUrl: () => SAMPLE_BASE_URL },
    search: { of: () => ({ index: () => Promise.resolve(search) }) },
    similar: () => Promise.resolve([]),
  } as unknown as AgentToolDeps;
}

describe('#getCode: the author of a code', () => {
  const served = inProcessFetch(loadSampleDataset());
  let asked: string[];
  let client: RefactorClient;
  let listed: Code;
  let single: Code;
  beforeEach(async () => {
    asked = [];
    client = new RefactorClient({ baseUrl: SAMPLE_BASE_URL, fetch: (input, init) => (asked.push(new URL(input).pathname), served(input, init)) });
    listed = (await client.recentCodes()).find((c) => c.userId !== null)!;
    single = await client.code(listed.id);
    asked = [];
  });
  afterEach(() => client.close());

  it('names the author a list gave, which search keeps, without asking the service', async () => {
    const search = CodeSearch.empty();
    search.addCodes([listed]);
    assert.equal(single.user, undefined);
    assert.match(await codeText(depsOver(search), single, client), new RegExp(`- author: ${listed.user!.name}\n`));
    assert.deepEqual(asked, []);
  });

  it('asks /users/<id>.xml when search knows no name, and says "user #N" when the service knows none either', async () => {
    assert.match(await codeText(depsOver(CodeSearch.empty()), single, client), new RegExp(`- author: ${listed.user!.name}\n`));
    assert.deepEqual(asked, [`/users/${single.userId}.xml`]);
    assert.match(await codeText(depsOver(CodeSearch.empty()), { ...single, userId: 99999 }, client), /- author: user #99999\n/);
  });

  it('keeps the author the answer names', async () => {
    const named: Code = { ...single, user: { ...listed.user!, name: 'Ana L.' } };
    const search = CodeSearch.empty();
    search.addCodes([listed]);
    assert.match(await codeText(depsOver(search), named, client), /- author: Ana L\.\n/);
    assert.deepEqual(asked, []);
  });
});
