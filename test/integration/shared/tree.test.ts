// Issue 5, point 1: the tree's rows as a person reads them: codes with language, author and count,
// lazily built untrusted tooltips, codes expanding to their refactorings, refactoring rows with
// author and code title, codicons, stable ids, getParent for reveal, multi-select.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../../src/server/sampleDataset';
import sampleJson from '../../../src/server/sample-catalog.json';
import { api, resetState, ROOT_LABELS } from '../helpers';
import { items, useFrontedService } from '../catalogHelpers';

const sample = loadSampleDataset();

describe('Tree rows', function () {
  this.timeout(30_000);
  beforeEach(resetState);
  after(resetState);

  it('gives each root and kind of row its codicon, and code rows the title, language, author and count', async () => {
    const browser = await api();
    const roots = await browser.treeRows();
    assert.deepStrictEqual(roots.map((r) => r.label), ROOT_LABELS);
    assert.deepStrictEqual(roots.map((r) => r.icon), ['history', 'star', 'tag', 'git-pull-request']);
    const rows = items(await browser.treeRows(['Popular Codes']));
    const popular = sample.popularCodes.all[0];
    assert.strictEqual(rows[0].label, popular.title);
    assert.strictEqual(rows[0].description, `${popular.language} · ${popular.user.name} · ${popular.refactorsCount} refactorings`);
    assert.strictEqual(rows[0].icon, 'file-code');
    assert.strictEqual(rows[0].command, 'refactorBrowser.openCode');
    assert.strictEqual(rows[0].collapsible, popular.refactorsCount > 0);
  });

  it('expands a code to its refactorings, each with its author and the code title', async () => {
    const browser = await api();
    const code = sample.recentCodes.all.find((c) => c.refactors.length >= 2);
    assert.ok(code);
    const rows = await browser.treeRows(['Recent Codes', code.title]);
    assert.deepStrictEqual(rows.map((r) => r.label), code.refactors.map((r) => r.title || `Refactoring #${r.id}`));
    assert.deepStrictEqual(rows.map((r) => r.description), code.refactors.map((r) => `${r.userName} · ${code.title}`));
    assert.ok(rows.every((r) => r.contextValue === 'refactorBrowser.refactor' && r.icon === 'git-compare' && r.command === 'refactorBrowser.openCode'));
  });

  it('names the code of a recent refactoring where that code is loaded', async () => {
    const browser = await api();
    await browser.treeRows(['Recent Codes']);
    const rows = items(await browser.treeRows(['Recent Refactorings']));
    const latest = sample.recentRefactors.all[0];
    const code = sample.recentCodes.all.find((c) => c.id === latest.codeId);
    assert.ok(code && sample.recentCodes.all.indexOf(code) < 25, 'the latest refactoring\'s code is on the first page');
    assert.strictEqual(rows[0].label, latest.title);
    assert.strictEqual(rows[0].description, `${latest.userName} · ${code.title}`);
  });

  it('says "Refactoring #id" and "anonymous" where the service gives no title or author', async () => {
    const code = { ...sampleJson.codes[0], id: 900, permalink: 'p900' };
    const refactor = { ...sampleJson.refactors[0], id: 901, codeId: 900, userId: null, userName: '', title: '' };
    const served = await useFrontedService({}, { users: sampleJson.users, codes: [code], refactors: [refactor] });
    try {
      const rows = await (await api()).treeRows(['Recent Refactorings']);
      assert.strictEqual(rows[0].label, 'Refactoring #901');
      assert.strictEqual(rows[0].description, 'anonymous');
    } finally {
      await resetState();
      await served.close();
    }
  });

  it('builds the tooltip on hover: untrusted Markdown, stranger text escaped, the date, the first lines of code fenced', async () => {
    const hostile = {
      ...sampleJson.codes[0], id: 700, permalink: 'p700',
      title: 'Click [here](command:workbench.action.quit) <img src=x onerror=alert(1)>',
      comment: '**not bold** and a [link](https://example.org) <b>no html</b>',
      code: Array.from({ length: 30 }, (_, i) => `line ${i + 1}`),
    };
    const served = await useFrontedService({}, { users: sampleJson.users, codes: [hostile], refactors: [] });
    try {
      const browser = await api();
      const [row] = items(await browser.treeRows(['Recent Codes']));
      const hovered = await browser.row(['Recent Codes', row.label]);
      // Built in resolveTreeItem, so a long list does not build a tooltip per row up front.
      assert.strictEqual(hovered.tooltipBeforeHover, false);
      assert.strictEqual(hovered.tooltipTrusted, false);
      assert.strictEqual(hovered.tooltipHtml, false);
      const md = hovered.tooltip;
      assert.ok(!md.includes('](command:'), md);
      assert.ok(!md.includes('](https://example.org)'), md);
      assert.ok(!md.includes('**not bold**'), md);
      assert.ok(md.includes('\\*\\*not bold\\*\\*') || md.includes('\\*\\*not'), md);
      assert.ok(md.includes('```'), md);
      assert.ok(md.includes('line 1\n') && md.includes('line 12') && !md.includes('line 13'), md);
      // The code's date in VS Code's display language, as Markdown text (spaces and punctuation escaped).
      const date = new Date(hostile.createdAt).toLocaleString(vscode.env.language, { dateStyle: 'medium', timeStyle: 'short' });
      assert.match(date, /2007/);
      assert.ok(md.includes(new vscode.MarkdownString().appendText(date).value), `${md} lacks ${date}`);
    } finally {
      await resetState();
      await served.close();
    }
  });

  it('keeps ids stable across a refresh and unique across the tree', async () => {
    const browser = await api();
    const before = (await browser.treeRows(['Recent Codes'])).map((r) => r.id);
    await vscode.commands.executeCommand('refactorBrowser.refresh');
    const after = (await browser.treeRows(['Recent Codes'])).map((r) => r.id);
    assert.deepStrictEqual(after, before);
    const popular = (await browser.treeRows(['Popular Codes'])).map((r) => r.id);
    const all = [...after, ...popular];
    assert.strictEqual(new Set(all).size, all.length);
  });

  it('reveals and selects a nested row (getParent works)', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.refactorBrowser');
    const browser = await api();
    const code = sample.recentCodes.all.find((c) => c.refactors.length > 0);
    assert.ok(code);
    const [first] = await browser.treeRows(['Recent Codes', code.title]);
    const selected = await browser.reveal(['Recent Codes', code.title, first.label]);
    assert.deepStrictEqual(selected, [first.id]);
    await vscode.commands.executeCommand('workbench.view.explorer');
  });
});
