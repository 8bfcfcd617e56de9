// Virtual documents (scheme `refactor-browser`) inside VS Code against the built-in sample service:
// Open as Document shows the exact text under a URI made of numeric ids, in the VS Code language
// mapped from the service's. That a person cannot type into one: documents.ui.test.ts.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../src/server/dataset';
import { closeAllEditors, codeRow, fetchCode, refactorRow } from './codeViewHelpers';
import { resetState, waitFor } from './helpers';

const sample = loadSampleDataset();

/** The first sample code in each language. */
function firstCodeIn(language: string): number {
  const code = sample.recentCodes.all.find((c) => c.language === language);
  assert.ok(code, `the sample has a ${language} code`);
  return code.id;
}

async function openAsDocument(row: unknown): Promise<vscode.TextEditor> {
  await vscode.commands.executeCommand('refactorBrowser.openAsDocument', row);
  return waitFor(() => {
    const e = vscode.window.activeTextEditor;
    return e?.document.uri.scheme === 'refactor-browser' ? e : undefined;
  }, 'a Refactor Browser document');
}

describe('Virtual documents', function () {
  this.timeout(60_000);
  before(resetState);
  afterEach(closeAllEditors);
  after(resetState);

  it('opens a code as a document named by its id, with its exact text and language', async () => {
    const code = await fetchCode(1);
    const editor = await openAsDocument(codeRow(code));
    assert.strictEqual(editor.document.uri.toString(), 'refactor-browser:/codes/1/code.rb');
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

  it('refuses a URI that does not name an existing refactoring', async () => {
    await assert.rejects(Promise.resolve(vscode.workspace.openTextDocument(vscode.Uri.parse('refactor-browser:/codes/1/refactors/999999.rb'))));
    await assert.rejects(Promise.resolve(vscode.workspace.openTextDocument(vscode.Uri.parse('refactor-browser:/codes/some-title/code.rb'))));
  });
});
