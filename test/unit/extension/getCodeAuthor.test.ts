// #getCode's answer names a code's author where the service's single-code answer does not (the
// original service named the author by user-id alone; the reference service now names them): the
// name a list gave, which search keeps. answering.ts imports no `vscode`, so plain Node runs it.
import * as assert from 'node:assert/strict';
import type { Code } from '../../../src/api/model';
import { CodeSearch } from '../../../src/search/searchIndex';
import { codeText } from '../../../src/extension/agents/answering';
import type { AgentToolDeps } from '../../../src/extension/agents/tools';
import { aCode, aUser } from '../../helpers/builders';

const BASE = 'http://refactor.example.org/';
const ANA = aUser({ id: 3, name: 'Ana Lima', rating: 4.5, refactorsCount: 2 });
const LISTED = aCode({ id: 42, title: 'Sum an array', code: 'p 1', createdAt: new Date(Date.UTC(2008, 0, 1)), user: ANA });

function depsOver(search: CodeSearch): AgentToolDeps {
  return {
    service: { name: () => BASE, baseUrl: () => BASE },
    search: { of: () => ({ index: () => Promise.resolve(search) }) },
    similar: () => Promise.resolve([]),
  } as unknown as AgentToolDeps;
}

describe('#getCode: the author of a code', () => {
  it('names the author a list gave when the single-code answer names none, and "user #N" when nothing did', async () => {
    const search = CodeSearch.empty();
    search.addCodes([LISTED]);
    const single: Code = { ...LISTED, user: undefined, refactors: [] };
    assert.match(await codeText(depsOver(search), single, BASE), /- author: Ana Lima\n/);
    assert.match(await codeText(depsOver(CodeSearch.empty()), single, BASE), /- author: user #3\n/);
  });

  it('keeps the author the answer names', async () => {
    const named: Code = { ...LISTED, user: { ...ANA, name: 'Ana L.' }, refactors: [] };
    const search = CodeSearch.empty();
    search.addCodes([LISTED]);
    assert.match(await codeText(depsOver(search), named, BASE), /- author: Ana L\.\n/);
  });
});
