// Copy Code and Copy Page URL inside VS Code: the clipboard holds the exact code, and the page URL
// (the XML URL without `.xml`) is a page the service serves, with the refactoring's anchor on it;
// the built-in sample catalog, answered in process, has no pages and says so.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { Code } from '../../src/core/model';
import { Commands } from '../../src/extension/common/commandIds';
import { codeRow, fetchCode, refactorRow } from './codeViewHelpers';
import { api, resetState, useSettings } from './helpers';
import { startService, type RunningService } from './services';

describe('Copy commands', function () {
  this.timeout(30_000);
  let code: Code;
  let base: string;
  let service: RunningService;

  before(async () => {
    await resetState();
    service = await startService();
    await useSettings({ baseUrl: service.url });
    code = await fetchCode(2);
    base = `${service.url}/`;
  });
  after(async () => {
    await resetState();
    await service.close();
  });

  it('Copy Code puts the exact code or refactoring on the clipboard', async () => {
    await vscode.commands.executeCommand(Commands.copyCode, codeRow(code));
    assert.strictEqual(await vscode.env.clipboard.readText(), code.code);
    const refactor = code.refactors![1];
    await vscode.commands.executeCommand(Commands.copyCode, refactorRow(refactor));
    assert.strictEqual(await vscode.env.clipboard.readText(), refactor.code);
  });

  it("Copy Page URL copies the code's page, which the service serves", async () => {
    await vscode.commands.executeCommand(Commands.copyPageUrl, codeRow(code));
    const url = await vscode.env.clipboard.readText();
    assert.strictEqual(url, `${base}codes/${code.id}-${code.permalink}`);
    const response = await fetch(url);
    assert.strictEqual(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.ok((await response.text()).includes(code.title.replace(/&/g, '&amp;')));
  });

  it("Copy Page URL of a refactoring points at its anchor on the code's page", async () => {
    const refactor = code.refactors![0];
    await vscode.commands.executeCommand(Commands.copyPageUrl, refactorRow(refactor));
    const url = await vscode.env.clipboard.readText();
    assert.strictEqual(url, `${base}codes/${code.id}#refactor-${refactor.id}`);
    const response = await fetch(url);
    assert.strictEqual(response.status, 200);
    assert.ok((await response.text()).includes(`id="refactor-${refactor.id}"`));
  });

  it('says the built-in sample catalog has no pages, and copies nothing', async () => {
    await useSettings({ baseUrl: undefined });
    try {
      await vscode.env.clipboard.writeText('before');
      const browser = await api();
      await vscode.commands.executeCommand(Commands.copyPageUrl, codeRow(code));
      await vscode.commands.executeCommand(Commands.openInBrowser, codeRow(code));
      assert.strictEqual(await vscode.env.clipboard.readText(), 'before');
      assert.ok(!browser.recentLog().some((l) => l.includes('sample.refactor-browser.invalid') && l.includes(' in the browser')), 'nothing was opened');
    } finally {
      await useSettings({ baseUrl: service.url });
    }
  });
});
