// A code whose language is named like an Object.prototype member (`constructor`, `__proto__`) opens,
// compares and inserts like a code in any language VS Code does not know: plaintext, its exact
// text, no exception. The reference service only serves its own languages, so a front server
// renames the language in every body it passes on.
import * as assert from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { Code } from '../../src/core/model';
import { Commands } from '../../src/extension/common/commandIds';
import { closeAllEditors, codeRow, documentText, fetchCode, refactorRow, untitledEditor, waitForDiff } from './codeViewHelpers';
import { resetState, useSettings, waitFor } from './helpers';
import { startService, type RunningService } from './services';

/** Passes every request on to `service`, with each `<language>` element's text replaced by `language`. */
async function renamingFront(service: RunningService, language: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    http.get(`${service.url}${req.url ?? '/'}`, (upstream) => {
      const chunks: Buffer[] = [];
      upstream.on('data', (c: Buffer) => chunks.push(c));
      upstream.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8').replace(/<language>[^<]*<\/language>/g, `<language>${language}</language>`);
        res.writeHead(upstream.statusCode ?? 502, { 'content-type': upstream.headers['content-type'] ?? 'application/xml' });
        res.end(body);
      });
    }).on('error', () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

for (const language of ['constructor', '__proto__']) {
  describe(`A code in a language named ${language}`, function () {
    this.timeout(60_000);
    let service: RunningService;
    let front: { url: string; close(): Promise<void> };
    let code: Code;

    before(async () => {
      await resetState();
      service = await startService();
      front = await renamingFront(service, language);
      await useSettings({ baseUrl: front.url });
      code = await fetchCode(1);
    });
    afterEach(closeAllEditors);
    after(async () => {
      await resetState();
      await front.close();
      await service.close();
    });

    it('is read with its language as the service named it', () => {
      assert.strictEqual(code.language, language);
      assert.ok((code.refactors ?? []).length > 0, 'the code has refactorings to compare');
    });

    it('opens as a plaintext document with its exact text', async () => {
      await vscode.commands.executeCommand(Commands.openAsDocument, codeRow(code));
      const editor = await waitFor(() => {
        const e = vscode.window.activeTextEditor;
        return e?.document.uri.scheme === 'refactor-browser' ? e : undefined;
      }, 'the document');
      assert.strictEqual(editor.document.languageId, 'plaintext');
      assert.match(editor.document.uri.path, /\.txt$/);
      assert.strictEqual(editor.document.getText(), code.code);
    });

    it('compares a refactoring with its original', async () => {
      const refactor = code.refactors![0];
      await vscode.commands.executeCommand(Commands.compareWithOriginal, refactorRow(refactor));
      const diff = await waitForDiff(`${code.title} ↔ ${refactor.title}`);
      assert.strictEqual(await documentText(diff.original), code.code);
      assert.strictEqual(await documentText(diff.modified), refactor.code);
    });

    it('inserts at the cursor', async () => {
      const editor = await untitledEditor('');
      await vscode.commands.executeCommand(Commands.insertAtCursor, codeRow(code));
      // At an empty line the code's final line break is dropped (it would only add a blank line).
      const expected = code.code.replace(/\n$/, '');
      await waitFor(() => (editor.document.getText() === expected ? true : undefined), 'the inserted code');
    });
  });
}
