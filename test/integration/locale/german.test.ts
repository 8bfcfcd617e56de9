// VS Code started in German (the launcher's `--locale de` pass): the extension's rows, messages and
// code view speak German from l10n/bundle.l10n.de.json, its commands and view from
// package.nls.de.json, and dates follow VS Code's display language, not the machine's.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { Commands } from '../../../src/extension/common/commandIds';
import { closeAllEditors, fetchCode, settleWebviews, untitledEditor, webviewText } from '../codeViewHelpers';
import { api, extension, resetState } from '../helpers';
import { uiOrSkip, type Ui } from '../ui';

const sample = loadSampleDataset();

describe('In German (VS Code started with --locale de)', function () {
  this.timeout(90_000);
  before(resetState);
  afterEach(closeAllEditors);
  after(resetState);

  it('runs in German', () => {
    assert.strictEqual(vscode.env.language, 'de');
  });

  it('names the Catalog\'s rows in German', async () => {
    const browser = await api();
    assert.deepStrictEqual((await browser.treeRows()).map((r) => r.label), ['Neueste Codes', 'Beliebte Codes', 'Tags', 'Neueste Refactorings']);
    const [row] = await browser.treeRows(['Neueste Codes']);
    const code = await fetchCode(sample.recentCodes.all[0].id);
    assert.strictEqual(row.label, code.title);
    assert.match(row.description, / Refactorings?$/);
    const hovered = await browser.row(['Neueste Codes', code.title]);
    // The date as VS Code's German formats it (day before month), not in the machine's locale.
    assert.ok(hovered.tooltip.includes(new vscode.MarkdownString().appendText(code.createdAt!.toLocaleString('de', { dateStyle: 'medium', timeStyle: 'short' })).value),
      hovered.tooltip);
  });

  it('contributes its commands and view with their German titles', () => {
    type Localized = string | { value: string; original: string };
    const pkg = extension().packageJSON as { contributes: { commands: Array<{ command: string; title: Localized }>; views: Record<string, Array<{ name: Localized }>> } };
    const text = (v: Localized | undefined): string | undefined => (typeof v === 'object' ? v.value : v);
    // VS Code resolves the %key% placeholders of package.json with package.nls.de.json before handing it over.
    assert.strictEqual(text(pkg.contributes.commands.find((c) => c.command === Commands.insertAtCursor)?.title), 'An der Cursorposition einfügen');
    assert.strictEqual(text(pkg.contributes.views.refactorBrowser[0].name), 'Katalog');
  });

  describe('the code view (UI)', () => {
    let ui: Ui;
    before(async function () {
      ui = uiOrSkip(this);
      await settleWebviews(ui);
    });

    it('labels its buttons and dates in German', async () => {
      const code = await fetchCode(1);
      await vscode.commands.executeCommand(Commands.openCode, code.id);
      const posted = code.createdAt!.toLocaleString('de', { dateStyle: 'medium', timeStyle: 'short' });
      await webviewText(ui, [code.title, `Refactorings (${code.refactors!.length})`, 'An der Cursorposition einfügen', 'Als Dokument öffnen', `veröffentlicht am ${posted}`]);
      const buttons = await ui.dom({ css: 'button[aria-label]' }, { webview: true, frameText: code.title });
      assert.ok(buttons.some((b) => b.attributes['aria-label'] === `An der Cursorposition einfügen: Code #${code.id}`), JSON.stringify(buttons.map((b) => b.attributes['aria-label'])));
    });
  });

  describe('Find Refactorings for This Code (UI)', () => {
    let ui: Ui;
    before(function () {
      ui = uiOrSkip(this);
    });
    after(async () => {
      await vscode.commands.executeCommand('notifications.clearAll');
      await closeAllEditors();
    });

    it('says in German that nothing is alike, and offers the search by its German name', async () => {
      const editor = await untitledEditor('def shout(words):\n    return " ".join(w.upper() + "!" for w in words if w)\n', 'python');
      editor.selection = new vscode.Selection(1, 4, 1, 4);
      void vscode.commands.executeCommand(Commands.findSimilar);
      const toast = { css: '.notifications-toasts .notification-toast', hasText: 'Kein Code im Katalog ähnelt dieser Funktion.' };
      await ui.waitFor(toast, 'visible', 60_000);
      const [shown] = await ui.query(toast, [], 1);
      assert.ok(shown.text.includes('Codes durchsuchen…'), shown.text);
    });
  });
});
