// Virtual documents (scheme `refactor-browser`) inside VS Code against the built-in sample service:
// Open as Document shows the exact text under a URI made of numeric ids, in the VS Code language
// mapped from the service's. That a person cannot type into one: documents.ui.test.ts.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../src/server/catalog/sampleDataset';
import { RefactorClient } from '../../src/client/client';
import { serviceOfQuery } from '../../src/extension/code/documentPaths';
import sampleJson from '../../src/server/catalog/sample-catalog.json';
import { Commands } from '../../src/extension/common/commandIds';
import { closeAllEditors, codeRow, documentText, fetchCode, refactorRow, waitForDiff } from './codeViewHelpers';
import { resetState, useSettings, waitFor } from './helpers';
import { startService } from './services';

const clients: RefactorClient[] = [];
async function serviceClientFor(baseUrl: string): Promise<RefactorClient> {
  const client = new RefactorClient({ baseUrl, timeoutMs: 10_000 });
  clients.push(client);
  return client;
}

const sample = loadSampleDataset();

/** The first sample code in each language. */
function firstCodeIn(language: string): number {
  const code = sample.recentCodes.all.find((c) => c.language === language);
  assert.ok(code, `the sample has a ${language} code`);
  return code.id;
}

async function openAsDocument(row: unknown): Promise<vscode.TextEditor> {
  await vscode.commands.executeCommand(Commands.openAsDocument, row);
  return waitFor(() => {
    const e = vscode.window.activeTextEditor;
    return e?.document.uri.scheme === 'refactor-browser' ? e : undefined;
  }, 'a Refactor Browser document');
}

describe('Virtual documents', function () {
  this.timeout(60_000);
  before(resetState);
  afterEach(closeAllEditors);
  after(async () => {
    await resetState();
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  it('opens a code as a document named by its id, with its exact text and language', async () => {
    const code = await fetchCode(1);
    const editor = await openAsDocument(codeRow(code));
    assert.strictEqual(editor.document.uri.path, '/codes/1/code.rb');
    assert.strictEqual(serviceOfQuery(editor.document.uri.query), 'sample', 'the URI names its service');
    assert.strictEqual(editor.document.getText(), code.code);
    assert.strictEqual(editor.document.languageId, 'ruby');
  });

  it('opens a refactoring as a document under its code', async () => {
    const code = await fetchCode(2);
    const refactor = code.refactors![0];
    const editor = await openAsDocument(refactorRow(refactor));
    assert.strictEqual(editor.document.uri.path, `/codes/2/refactors/${refactor.id}.php`);
    assert.strictEqual(editor.document.getText(), refactor.code);
    assert.strictEqual(editor.document.languageId, 'php');
  });

  it('maps each service language to its VS Code language (plaintext where VS Code has none)', async () => {
    const available = new Set(await vscode.languages.getLanguages());
    const expected: Array<[string, string]> = [
      ['C#', 'csharp'], ['C++', 'cpp'], ['VB.NET', 'vb'], ['Bash', 'shellscript'], ['Python', 'python'],
      ['Delphi', available.has('pascal') ? 'pascal' : 'plaintext'],
      ['Haskell', available.has('haskell') ? 'haskell' : 'plaintext'],
    ];
    for (const [language, id] of expected) {
      const code = await fetchCode(firstCodeIn(language));
      const editor = await openAsDocument(codeRow(code));
      assert.strictEqual(editor.document.languageId, id, language);
      assert.strictEqual(editor.document.getText(), code.code, language);
      await closeAllEditors();
    }
  });

  it('keeps showing the code of the service a document or diff came from after the base URL changes', async () => {
    // Service B holds other text under the same ids, as two real services would.
    // (The sample catalog writes each code as an array of its lines.)
    const other = (lines: string[]): string[] => ['# from service B', ...lines];
    const serviceA = await startService();
    const serviceB = await startService({
      ...sampleJson,
      codes: sampleJson.codes.map((c) => ({ ...c, code: other(c.code) })),
      refactors: sampleJson.refactors.map((r) => ({ ...r, code: other(r.code) })),
    });
    try {
      await useSettings({ baseUrl: serviceA.url });
      const codeA = await fetchCode(1);
      const refactorA = codeA.refactors![0];
      await vscode.commands.executeCommand(Commands.compareWithOriginal, refactorRow(refactorA));
      const diff = await waitForDiff(`${codeA.title} ↔ ${refactorA.title}`);
      assert.strictEqual(await documentText(diff.original), codeA.code);

      await useSettings({ baseUrl: serviceB.url });
      const codeB = await fetchCode(1);
      assert.notStrictEqual(codeB.code, codeA.code);
      const docB = (await openAsDocument(codeRow(codeB))).document;
      assert.strictEqual(docB.getText(), codeB.code, 'the same code id on service B is its own document');
      assert.notStrictEqual(docB.uri.toString(), diff.original.toString());
      assert.strictEqual(await documentText(diff.original), codeA.code, 'the diff\'s left side is still service A\'s code');
      assert.strictEqual(await documentText(diff.modified), refactorA.code);
      // A document of service A not opened before is read from service A, not from the one configured now.
      const code2A = await (await serviceClientFor(serviceA.url)).code(2);
      assert.strictEqual(await documentText(diff.original.with({ path: `/codes/2/code.php` })), code2A.code);
      // A service this window never used is not asked for anything.
      await assert.rejects(Promise.resolve(vscode.workspace.openTextDocument(
        diff.original.with({ query: new URLSearchParams({ service: 'http://127.0.0.1:9/' }).toString() }))));
    } finally {
      await resetState();
      await serviceA.close();
      await serviceB.close();
    }
  });

  it('refuses a URI that does not name an existing refactoring', async () => {
    await assert.rejects(Promise.resolve(vscode.workspace.openTextDocument(vscode.Uri.parse('refactor-browser:/codes/1/refactors/999999.rb'))));
    await assert.rejects(Promise.resolve(vscode.workspace.openTextDocument(vscode.Uri.parse('refactor-browser:/codes/some-title/code.rb'))));
  });
});
