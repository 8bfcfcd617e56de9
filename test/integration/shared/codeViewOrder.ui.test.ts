// The best refactoring first, read off the code view in both extension hosts: the
// refactorings best rated first with the best one marked (for the eye and for a screen reader);
// the Order switch reorders them at once and is remembered in the user settings, so a code view
// opened next shows that order; a change of the setting from elsewhere reorders the open view.
// (axe-core checks the switch and the mark in codeViewAccessibility.ui.test.ts, on this same code.)
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { RefactoringOrder } from '../../../src/core/ratings';
import { Commands } from '../../../src/extension/common/commandIds';
import { closeAllEditors, settleWebviews, webviewText } from '../codeViewHelpers';
import { api, resetState, useSettings, waitFor } from '../helpers';
import { uiOrSkip, type Ui } from '../ui';

// Sample code 1, its refactorings as the service lists them (oldest first), rating/votes:
// #1 5/5, #4 4/8, #5 2/10, #10 4/5, #15 4/2, #22 not rated, #24 3/38, #28 5/4, #34 5/31.
const CODE = { id: 1, title: 'Sum an array of prices' };
const BEST_FIRST = [34, 1, 28, 4, 10, 15, 24, 5, 22];
const NEWEST_FIRST = [34, 28, 24, 22, 15, 10, 5, 4, 1];
const OLDEST_FIRST = [1, 4, 5, 10, 15, 22, 24, 28, 34];
// Sample code 49: #119 5/1, #121 5/17, #122 2/10.
const OTHER = { id: 49, title: 'Filter a list with foreach' };

describe('Code view order (UI)', function () {
  this.timeout(90_000);
  let ui: Ui;

  before(async function () {
    ui = uiOrSkip(this);
    await resetState();
    await settleWebviews(ui);
  });
  beforeEach(() => useSettings({ refactoringOrder: undefined }));
  afterEach(closeAllEditors);
  after(resetState);

  const dom = (css: string, frameText: string) => ui.dom({ css }, { webview: true, frameText, maxText: 200 });

  /** The ids of the refactorings the view of `title` shows, top to bottom. */
  async function shownIds(title: string): Promise<number[]> {
    return (await dom('section.refactor', title)).map((s) => Number(/^refactor-(\d+)$/.exec(s.attributes.id ?? '')?.[1]));
  }

  /** Waits until the view of `title` shows its refactorings in `ids` and its switch says `order`. */
  async function waitForOrder(title: string, ids: number[], order: RefactoringOrder): Promise<void> {
    let seen: unknown;
    try {
      await waitFor(async () => {
        const [select] = await dom('select#refactoring-order', title);
        seen = [await shownIds(title), select?.value];
        return JSON.stringify(seen) === JSON.stringify([ids, order]) ? true : undefined;
      }, `the refactorings in the order ${order}`);
    } catch (err) {
      throw new Error(`${(err as Error).message}: the view shows ${JSON.stringify(seen)}`, { cause: err });
    }
  }

  async function open(code: { id: number; title: string }, count: number): Promise<void> {
    await vscode.commands.executeCommand(Commands.openCode, code.id);
    await webviewText(ui, [code.title, `Refactorings (${count})`]);
  }

  it('shows the refactorings best rated first, the best one marked in its heading, and unrated ones said so', async () => {
    await open(CODE, BEST_FIRST.length);
    await waitForOrder(CODE.title, BEST_FIRST, 'bestRated');
    const badges = await dom('.badge', CODE.title);
    assert.deepStrictEqual(badges.map((b) => b.text), ['Best rated']);
    // Inside the heading: a screen reader's list of headings, and the region it names, say it.
    const [heading] = await dom('#refactor-34-title', CODE.title);
    assert.strictEqual(heading.text, 'Symbol#to_proc for 1.8.6 Best rated');
    const [region] = await dom('#refactor-34', CODE.title);
    assert.strictEqual(region.attributes['aria-labelledby'], 'refactor-34-title');
    const [best] = await dom('#refactor-34 .meta', CODE.title);
    assert.ok(best.text.includes('rated 5 (31 votes)'), best.text);
    const [unrated] = await dom('#refactor-22 .meta', CODE.title);
    assert.ok(unrated.text.includes('not rated'), unrated.text);
    // The switch is labelled, and offers the three orders.
    const [label] = await dom('label[for="refactoring-order"]', CODE.title);
    assert.strictEqual(label.text, 'Order');
    const options = await dom('#refactoring-order option', CODE.title);
    assert.deepStrictEqual(options.map((o) => [o.attributes.value, o.text]), [
      ['bestRated', 'Best rated first'], ['newest', 'Newest first'], ['oldest', 'Oldest first'],
    ]);
  });

  it('reorders at once from the Order switch, and remembers it: a code view opened next shows that order', async () => {
    await open(CODE, BEST_FIRST.length);
    await waitForOrder(CODE.title, BEST_FIRST, 'bestRated');
    await ui.webviewSelect({ css: 'select#refactoring-order' }, 'newest', CODE.title);
    await waitForOrder(CODE.title, NEWEST_FIRST, 'newest');
    // The mark stays with the best rated, whatever the order.
    assert.deepStrictEqual((await dom('.badge', CODE.title)).map((b) => b.text), ['Best rated']);
    assert.strictEqual((await dom('#refactor-34 .badge', CODE.title)).length, 1);

    // Remembered where every window and the next session read it: the user settings.
    const browser = await api();
    await waitFor(() => (browser.settings().refactoringOrder === 'newest' ? true : undefined), 'the setting applied');
    assert.strictEqual(vscode.workspace.getConfiguration('refactorBrowser').inspect('refactoringOrder')?.globalValue, 'newest');

    await closeAllEditors();
    await open(OTHER, 3);
    await waitForOrder(OTHER.title, [122, 121, 119], 'newest');
    await ui.webviewSelect({ css: 'select#refactoring-order' }, 'oldest', OTHER.title);
    await waitForOrder(OTHER.title, [119, 121, 122], 'oldest');
    await waitFor(() => (browser.settings().refactoringOrder === 'oldest' ? true : undefined), 'the setting applied');
    assert.strictEqual(vscode.workspace.getConfiguration('refactorBrowser').inspect('refactoringOrder')?.globalValue, 'oldest');
  });

  it('follows the setting changed elsewhere (the Settings editor, another window): the open view reorders', async () => {
    await open(CODE, BEST_FIRST.length);
    await waitForOrder(CODE.title, BEST_FIRST, 'bestRated');
    await useSettings({ refactoringOrder: 'oldest' });
    await waitForOrder(CODE.title, OLDEST_FIRST, 'oldest');
    await useSettings({ refactoringOrder: undefined });
    await waitForOrder(CODE.title, BEST_FIRST, 'bestRated');
  });
});
