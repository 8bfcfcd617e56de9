// package.json's contributions for reading and reusing code: command ids and titles, the context menus
// of code and refactoring rows, the palette hiding commands that need a row (and offering Star or
// Unstar as the open code view's code is), icons only where VS Code draws them, and activation.
// `when` clauses are evaluated (for the operators used here) in the contexts that matter.
import * as assert from 'node:assert/strict';
import { localizedManifest } from '../helpers/manifest';

interface MenuEntry { command: string; when?: string; group?: string }
const pkg = localizedManifest<{
  activationEvents: string[];
  contributes: { commands: Array<{ command: string; title: string; category?: string; icon?: unknown }>; menus: Record<string, MenuEntry[]> };
}>();

type Context = Record<string, string | boolean>;

/** VS Code's when-clause language, the part package.json uses: `&&`, `!`, `==`, `=~ /re/`, keys, true/false. */
function evaluate(when: string | undefined, ctx: Context): boolean {
  if (when === undefined) return true;
  return when.split('&&').map((t) => t.trim()).every((term) => {
    let m = /^(\S+)\s*==\s*(\S+)$/.exec(term);
    if (m) return ctx[m[1]] === m[2];
    m = /^(\S+)\s*=~\s*\/(.*)\/$/.exec(term);
    if (m) return typeof ctx[m[1]] === 'string' && new RegExp(m[2]).test(ctx[m[1]] as string);
    if (term === 'true' || term === 'false') return term === 'true';
    if (term.startsWith('!')) return !ctx[term.slice(1)];
    if (/^[\w.]+$/.test(term)) return Boolean(ctx[term]);
    throw new Error(`unsupported when clause term: ${term}`);
  });
}

const TITLES: Record<string, string> = {
  openCode: 'Open Code…', goToCode: 'Go to Code…', insertAtCursor: 'Insert at Cursor',
  compareWithOriginal: 'Compare with Original', compareSelected: 'Compare Selected',
  compareWithEditor: 'Compare with Active Editor', copyCode: 'Copy Code', copyPageUrl: 'Copy Page URL',
  openInBrowser: 'Open in Browser', openAsDocument: 'Open as Document', compareAllRefactorings: 'Compare All Refactorings',
};

function menuCommands(menu: string, ctx: Context): Set<string> {
  return new Set((pkg.contributes.menus[menu] ?? []).filter((e) => evaluate(e.when, ctx)).map((e) => e.command.replace(/^refactorBrowser\./, '')));
}

function paletteShows(command: string, ctx: Context): boolean {
  const entries = (pkg.contributes.menus.commandPalette ?? []).filter((e) => e.command === `refactorBrowser.${command}`);
  return entries.length === 0 || entries.some((e) => evaluate(e.when, ctx));
}

describe('package.json: code commands and menus', () => {
  it('contributes every command with its contract title in the Refactor Browser category', () => {
    for (const [id, title] of Object.entries(TITLES)) {
      const c = pkg.contributes.commands.find((x) => x.command === `refactorBrowser.${id}`);
      assert.ok(c, id);
      assert.equal(c.title, title);
      assert.equal(c.category, 'Refactor Browser');
    }
  });

  it('offers the contract context menu on code and refactoring rows', () => {
    const row = (kind: string): Context => ({ view: 'refactorBrowser.catalog', viewItem: `refactorBrowser.${kind}` });
    const onCode = menuCommands('view/item/context', row('code'));
    const onRefactor = menuCommands('view/item/context', row('refactor'));
    for (const c of ['insertAtCursor', 'compareWithEditor', 'copyCode', 'openInBrowser', 'openAsDocument']) {
      assert.ok(onCode.has(c), `code rows: ${c}`);
      assert.ok(onRefactor.has(c), `refactoring rows: ${c}`);
    }
    assert.ok(onRefactor.has('compareWithOriginal'));
    assert.ok(!onCode.has('compareWithOriginal'), 'a code has no original');
    assert.ok(onCode.has('compareAllRefactorings'));
    assert.ok(!onCode.has('compareSelected'), 'Compare Selected needs two selected rows');
    assert.ok(menuCommands('view/item/context', { ...row('code'), listDoubleSelection: true }).has('compareSelected'));
    for (const other of ['refactorBrowser.tag', 'refactorBrowser.error', 'refactorBrowser.root.tags']) {
      const offered = [...menuCommands('view/item/context', { view: 'refactorBrowser.catalog', viewItem: other })];
      assert.ok(!offered.some((c) => c in TITLES), `${other} rows offer ${offered.join(', ')}`);
    }
  });

  it('hides commands that need a row from the palette, and shows those that can use the open code view', () => {
    for (const c of ['openCode', 'goToCode']) assert.ok(paletteShows(c, {}), c);
    for (const c of ['compareWithOriginal', 'compareSelected']) {
      assert.ok(!paletteShows(c, {}) && !paletteShows(c, { 'refactorBrowser.hasCodeView': true }), c);
    }
    for (const c of ['insertAtCursor', 'compareWithEditor', 'compareAllRefactorings', 'copyCode', 'copyPageUrl', 'openInBrowser', 'openAsDocument']) {
      assert.ok(!paletteShows(c, {}), `${c} without a code view`);
      assert.ok(paletteShows(c, { 'refactorBrowser.hasCodeView': true }), `${c} with a code view`);
    }
  });

  it('offers Star from the palette for an open code view whose code is not starred, and Unstar for one whose code is', () => {
    const open = { 'refactorBrowser.hasCodeView': true };
    const starred = { ...open, 'refactorBrowser.codeViewStarred': true };
    for (const c of ['star', 'unstar']) assert.ok(!paletteShows(c, {}), `${c} without a code view`);
    assert.ok(paletteShows('star', open) && !paletteShows('unstar', open), 'a code not starred');
    assert.ok(paletteShows('unstar', starred) && !paletteShows('star', starred), 'a starred code');
  });

  it('gives an icon only to commands shown where VS Code draws one: a view title\'s navigation, an inline row action, an editor title', () => {
    const drawn = new Set(Object.entries(pkg.contributes.menus).flatMap(([menu, entries]) => entries.filter((e) =>
      (menu === 'view/title' && (e.group ?? '').startsWith('navigation'))
      || ((menu === 'view/item/context' || menu === 'view/title') && e.group === 'inline')
      || menu === 'editor/title').map((e) => e.command)));
    const withIcon = pkg.contributes.commands.filter((c) => c.icon !== undefined).map((c) => c.command);
    assert.ok(withIcon.length > 0, 'the view title and rows have buttons');
    assert.deepEqual(withIcon.filter((c) => !drawn.has(c)), [], 'icons nobody sees');
    assert.deepEqual([...drawn].filter((c) => !withIcon.includes(c)), [], 'buttons without an icon show their title instead');
  });

  it('activates to restore a code view after a reload, and leaves the view\'s activation to VS Code', () => {
    assert.ok(pkg.activationEvents.includes('onWebviewPanel:refactorBrowser.code'));
    // VS Code derives onView: from contributes.views; listing it again only draws a warning from vsce.
    assert.deepEqual(pkg.activationEvents.filter((e) => e.startsWith('onView:')), []);
  });
});
