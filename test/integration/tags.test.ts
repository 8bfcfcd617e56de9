// Saved tags: Add Tag… writes refactorBrowser.tags, each tag row lists its codes
// for the current language, Remove Tag takes it away.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../src/server/catalog/sampleDataset';
import { Commands } from '../../src/extension/common/commandIds';
import { api, resetState, useSettings, waitFor } from './helpers';
import { items } from './catalogHelpers';

const sample = loadSampleDataset();

describe('Tags', function () {
  this.timeout(30_000);
  beforeEach(resetState);
  after(resetState);

  it('adds a tag, lists its codes for the current language, and removes it', async () => {
    const browser = await api();
    assert.deepStrictEqual((await browser.treeRows(['Tags'])).map((r) => r.contextValue), ['refactorBrowser.empty']);
    const tag = [...sample.tags.values()].sort((a, b) => b.codes.all.length - a.codes.all.length)[0];
    await vscode.commands.executeCommand(Commands.addTag, `  ${tag.name} `);
    await waitFor(() => (browser.settings().tags.includes(tag.name) ? true : undefined), 'the tag to be saved');
    const tagRows = await browser.treeRows(['Tags']);
    assert.deepStrictEqual(tagRows.map((r) => [r.label, r.contextValue, r.collapsible]), [[tag.name, 'refactorBrowser.tag', true]]);
    const codes = items(await browser.treeRows(['Tags', tag.name]));
    assert.deepStrictEqual(codes.map((r) => r.label), tag.codes.all.slice(0, 25).map((c) => c.title));

    const language = tag.codes.all[0].language;
    await useSettings({ language });
    const filtered = items(await browser.treeRows(['Tags', tag.name]));
    assert.deepStrictEqual(filtered.map((r) => r.label), tag.codes.all.filter((c) => c.language === language).map((c) => c.title));

    // Adding it again changes nothing.
    await vscode.commands.executeCommand(Commands.addTag, tag.name);
    assert.deepStrictEqual(vscode.workspace.getConfiguration('refactorBrowser').get('tags'), [tag.name]);
    await vscode.commands.executeCommand(Commands.removeTag, tag.name);
    await waitFor(() => (browser.settings().tags.length === 0 ? true : undefined), 'the tag to be removed');
    assert.deepStrictEqual((await browser.treeRows(['Tags'])).map((r) => r.contextValue), ['refactorBrowser.empty']);
  });

  it('lists the tags of refactorBrowser.tags as set in the settings', async () => {
    await useSettings({ tags: ['speed', 'style'] });
    assert.deepStrictEqual((await (await api()).treeRows(['Tags'])).map((r) => r.label), ['speed', 'style']);
  });
});
