// The language filter applies to every list and shows in the view's description;
// where a service 404s a language form the list is filtered here and says so; following the
// active editor's language.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../src/server/catalog/sampleDataset';
import { Commands } from '../../src/extension/common/commandIds';
import { api, resetState, useSettings, waitFor } from './helpers';
import { items, useFrontedService } from './catalogHelpers';

const sample = loadSampleDataset();

describe('Language filter', function () {
  this.timeout(30_000);
  beforeEach(resetState);
  after(resetState);

  it('filters every list by the language set with Filter by Language…, shown in the view description', async () => {
    const browser = await api();
    await vscode.commands.executeCommand(Commands.filterLanguage, 'ruby');
    await waitFor(() => (browser.settings().language === 'Ruby' ? true : undefined), 'the language setting');
    assert.strictEqual(browser.view().description, 'Ruby');
    const recent = items(await browser.treeRows(['Recent Codes']));
    assert.deepStrictEqual(recent.map((r) => r.label), sample.recentCodes.all.filter((c) => c.language === 'Ruby').slice(0, 25).map((c) => c.title));
    const refactors = items(await browser.treeRows(['Recent Refactorings']));
    const expected = sample.recentRefactors.all.filter((r) => r.language === 'Ruby').slice(0, 25);
    assert.deepStrictEqual(refactors.map((r) => r.label), expected.map((r) => r.title || `Refactoring #${r.id}`));
    const popular = items(await browser.treeRows(['Popular Codes']));
    assert.ok(popular.length > 0 && popular.every((r) => r.description.startsWith('Ruby · ')));

    await vscode.commands.executeCommand(Commands.filterLanguage, '');
    await waitFor(() => (browser.settings().language === '' ? true : undefined), 'All Languages');
    assert.strictEqual(browser.view().description, '');
    assert.ok(new Set(items(await browser.treeRows(['Recent Codes'])).map((r) => r.description.split(' · ')[0])).size > 3);
  });

  it('takes a name that is not in the list and shows what the service answers for it', async () => {
    const browser = await api();
    await useSettings({ language: 'Cobol' });
    assert.strictEqual(browser.view().description, 'Cobol');
    const rows = await browser.treeRows(['Recent Codes']);
    assert.deepStrictEqual(rows.map((r) => r.label), ['No codes']);
  });

  it('filters here, and says so, where the service 404s the language form of a list', async () => {
    const served = await useFrontedService({ noLanguageForms: true });
    try {
      await useSettings({ language: 'Python' });
      const browser = await api();
      const popular = items(await browser.treeRows(['Popular Codes']));
      const expected = sample.popularCodes.all.slice(0, 25).filter((c) => c.language === 'Python').map((c) => c.title);
      assert.ok(expected.length > 0);
      assert.deepStrictEqual(popular.map((r) => r.label), expected);
      const root = await browser.row(['Popular Codes']);
      assert.match(root.description, /filtered here/);
      assert.match(root.tooltip.replace(/&nbsp;/g, ' '), /no Python form of this list/);
      const refactors = items(await browser.treeRows(['Recent Refactorings']));
      const python = sample.recentRefactors.all.slice(0, 25).filter((r) => r.language === 'Python');
      assert.deepStrictEqual(refactors.map((r) => r.label), python.map((r) => r.title || `Refactoring #${r.id}`));
      assert.match((await browser.row(['Recent Refactorings'])).description, /filtered here/);
      // Recent Codes has its language form: filtered by the service, nothing said.
      await browser.treeRows(['Recent Codes']);
      assert.strictEqual((await browser.row(['Recent Codes'])).description, '');
      const paths = await served.front.paths();
      assert.ok(paths.includes('/codes/popular/python.xml') && paths.includes('/codes/popular.xml'));
    } finally {
      await resetState();
      await served.close();
    }
  });

  it('follows the active editor\'s language when refactorBrowser.followEditorLanguage is on', async () => {
    const browser = await api();
    await useSettings({ followEditorLanguage: true, language: 'Ruby' });
    const doc = await vscode.workspace.openTextDocument({ language: 'python', content: 'print(1)\n' });
    await vscode.window.showTextDocument(doc);
    await waitFor(() => (browser.language() === 'Python' ? true : undefined), 'the filter to follow the editor');
    assert.strictEqual(browser.view().description, 'Python');
    const rows = items(await browser.treeRows(['Recent Codes']));
    assert.ok(rows.length > 0 && rows.every((r) => r.description.startsWith('Python · ')), JSON.stringify(rows));

    await useSettings({ followEditorLanguage: false });
    assert.strictEqual(browser.language(), 'Ruby');
  });
});
