// The fingerprints Find Refactorings for This Code keeps beside the search index, written as every
// file of the extension is (src/extension/common/files.ts writeAtomically): beside and renamed over,
// through a temporary file no one can plant a link at. Node's extension host only: the browser's has
// no links to plant.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import sampleJson from '../../src/server/catalog/sample-catalog.json';
import { api, resetState, useSettings, waitFor } from './helpers';
import { startService } from './services';

describe('Find Refactorings: the fingerprints\' file', function () {
  this.timeout(60_000);
  after(resetState);

  it('is written whole, following no link planted at the temporary name it once had', async () => {
    const code = sampleJson.codes.find((c) => c.id === 12)!;
    const service = await startService({ users: sampleJson.users, codes: [code], refactors: sampleJson.refactors.filter((r) => r.codeId === 12) });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rb-planted-'));
    try {
      await useSettings({ baseUrl: service.url });
      const browser = await api();
      assert.ok((await browser.indexCatalog())?.complete);
      const prints = vscode.Uri.parse(browser.searchFile()).fsPath.replace(/\.json$/, '-fingerprints.json');
      fs.rmSync(prints, { force: true });
      const target = path.join(dir, 'not-yours.txt');
      fs.writeFileSync(target, 'untouched');
      fs.symlinkSync(target, `${prints}.tmp`);
      const mine = 'function includesItem(list, wanted) {\n  var seen = false;\n  for (var k = 0; k < list.length; k++) {\n    if (list[k] == wanted) {\n      seen = true;\n    }\n  }\n  return seen;\n}\n';
      await vscode.lm.invokeTool('refactorBrowser_findSimilar', { input: { code: mine, language: 'javascript' }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
      await waitFor(() => (fs.existsSync(prints) ? true : undefined), 'the fingerprints written', 20_000);
      assert.strictEqual(fs.readFileSync(target, 'utf8'), 'untouched');
      assert.ok(!fs.lstatSync(prints).isSymbolicLink(), 'the file itself, not the link');
      assert.ok(fs.readFileSync(prints, 'utf8').startsWith('{'));
      assert.ok(fs.lstatSync(`${prints}.tmp`).isSymbolicLink(), 'the planted link left as it was');
      fs.rmSync(`${prints}.tmp`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await (await api()).forgetSearch();
      await resetState();
      await service.close();
    }
  });
});
