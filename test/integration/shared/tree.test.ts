// The tree's rows as a person reads them: codes with language, author and count,
// lazily built untrusted tooltips, codes expanding to their refactorings (best rated first,
// or in the order set), refactoring rows with rating, author and code title, codicons, stable ids,
// getParent for reveal, multi-select.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import sampleJson from '../../../src/server/catalog/sample-catalog.json';
import { Commands } from '../../../src/extension/common/commandIds';
import { api, resetState, ROOT_LABELS, useSettings } from '../helpers';
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
    assert.strictEqual(rows[0].command, Commands.openCode);
    assert.strictEqual(rows[0].collapsible, popular.refactorsCount > 0);
  });

  // Sample code 49, as the service lists its refactorings (oldest first): LINQ 5 from 1 vote, FindAll
  // for .NET 2.0 5 from 17 votes, Name the rule 2 from 10 votes.
  const FILTER = 'Filter a list with foreach';

  it('expands a code to its refactorings, best rated first, each with its rating, author and the code title', async () => {
    const browser = await api();
    assert.strictEqual(sample.codes.get(49)?.title, FILTER);
    const rows = await browser.treeRows(['Recent Codes', FILTER]);
    assert.deepStrictEqual(rows.map((r) => [r.label, r.description]), [
      ['FindAll for .NET 2.0', `★ 5 (17) · anonymous · ${FILTER}`],
      ['LINQ', `★ 5 (1) · Katarzyna Wójcik · ${FILTER}`],
      ['Name the rule', `★ 2 (10) · Fatima Haddad · ${FILTER}`],
    ]);
    assert.deepStrictEqual(rows.map((r) => r.accessibilityLabel), [
      `FindAll for .NET 2.0, a refactoring of ${FILTER}, by anonymous, rated 5 (17 votes)`,
      `LINQ, a refactoring of ${FILTER}, by Katarzyna Wójcik, rated 5 (1 vote)`,
      `Name the rule, a refactoring of ${FILTER}, by Fatima Haddad, rated 2 (10 votes)`,
    ]);
    assert.ok(rows.every((r) => r.contextValue === 'refactorBrowser.refactor' && r.icon === 'git-compare' && r.command === Commands.openCode));
  });

  it('puts refactorings not rated yet last, newest first, and shows no rating for them', async () => {
    // Sample code 42: Hash.new(0) and Words, not spaces have no votes; #102 (untitled) 3 from 12 votes.
    const code = sample.codes.get(42)!;
    const rows = await (await api()).treeRows(['Recent Codes', code.title]);
    assert.deepStrictEqual(rows.map((r) => [r.label, r.description]), [
      ['Refactoring #102', `★ 3 (12) · anonymous · ${code.title}`],
      ['Words, not spaces (naïve split)', `Olusegun Adeyemi · ${code.title}`],
      ['Hash.new(0)', `Zoë Ødegaard · ${code.title}`],
    ]);
    assert.strictEqual(rows[2].accessibilityLabel, `Hash.new(0), a refactoring of ${code.title}, by Zoë Ødegaard, not rated`);
  });

  it('orders a code\'s refactorings newest or oldest first as refactorBrowser.refactoringOrder says', async () => {
    const browser = await api();
    await browser.treeRows(['Recent Codes', FILTER]);
    await useSettings({ refactoringOrder: 'newest' });
    assert.deepStrictEqual((await browser.treeRows(['Recent Codes', FILTER])).map((r) => r.label), ['Name the rule', 'FindAll for .NET 2.0', 'LINQ']);
    await useSettings({ refactoringOrder: 'oldest' });
    assert.deepStrictEqual((await browser.treeRows(['Recent Codes', FILTER])).map((r) => r.label), ['LINQ', 'FindAll for .NET 2.0', 'Name the rule']);
  });

  it('names the code of a recent refactoring where that code is loaded, and its rating; the list stays newest first', async () => {
    const browser = await api();
    await browser.treeRows(['Recent Codes']);
    const rows = items(await browser.treeRows(['Recent Refactorings']));
    const latest = sample.recentRefactors.all[0];
    const code = sample.recentCodes.all.find((c) => c.id === latest.codeId);
    assert.ok(code && sample.recentCodes.all.indexOf(code) < 25, 'the latest refactoring\'s code is on the first page');
    assert.strictEqual(rows[0].label, latest.title);
    assert.strictEqual(rows[0].description, `★ ${latest.rating} (${latest.ratingsCount}) · ${latest.userName} · ${code.title}`);
    // A "recent" list: newest first, as the service sends it, whatever the ratings (4, 2, 4, 4, 4 here).
    assert.deepStrictEqual(rows.slice(0, 5).map((r) => r.label), sample.recentRefactors.all.slice(0, 5).map((r) => r.title || `Refactoring #${r.id}`));
    assert.deepStrictEqual(sample.recentRefactors.all.slice(0, 5).map((r) => r.rating), [4, 2, 4, 4, 4]);
  });

  it('says "Refactoring #id" and "anonymous" where the service gives no title or author', async () => {
    const code = { ...sampleJson.codes[0], id: 900, permalink: 'p900' };
    const refactor = { ...sampleJson.refactors[0], id: 901, codeId: 900, userId: null, userName: '', title: '' };
    const served = await useFrontedService({}, { users: sampleJson.users, codes: [code], refactors: [refactor] });
    try {
      const rows = await (await api()).treeRows(['Recent Refactorings']);
      assert.strictEqual(rows[0].label, 'Refactoring #901');
      assert.strictEqual(rows[0].description, `★ ${refactor.rating} (${refactor.ratingsCount}) · anonymous`);
      assert.strictEqual(rows[0].accessibilityLabel, `Refactoring #901, a refactoring by anonymous, rated ${refactor.rating} (${refactor.ratingsCount} votes)`);
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
    await vscode.commands.executeCommand(Commands.refresh);
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
