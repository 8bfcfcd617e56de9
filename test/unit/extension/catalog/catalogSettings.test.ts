// The Catalog view's small pure rules: what a saved tag may be, and the package's lazy activation and
// its commands and menus (public names).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { localizedManifest } from '../../../helpers/manifest';
import { normalizeTag } from '../../../../src/extension/catalog/tags';
import { ContextKeys } from '../../../../src/extension/common/commandIds';

const pkg = localizedManifest<{
  activationEvents: string[];
  engines: { vscode: string };
  contributes: {
    commands: Array<{ command: string; title: string; category: string }>;
    menus: Record<string, Array<{ command: string; when?: string; group?: string }>>;
    viewsWelcome: Array<{ view: string; contents: string; when: string }>;
    views: Record<string, Array<{ id: string; name: string }>>;
    viewsContainers: { activitybar: Array<{ id: string; title: string; icon: string }> };
  };
  scripts: Record<string, string>;
}>();

describe('saved tags', () => {
  it('are trimmed non-empty single path segments', () => {
    assert.equal(normalizeTag('  arrays '), 'arrays');
    assert.equal(normalizeTag('c++'), 'c++');
    for (const bad of ['', '   ', 'a/b', '.', '..']) assert.equal(normalizeTag(bad), undefined, bad);
  });
});

describe('package.json for the Catalog view', () => {
  it('activates lazily: on its view (and its commands), never at startup', () => {
    // VS Code (1.74 and later) activates on a contributed view and on a contributed command by itself.
    const [major, minor] = /^\^?(\d+)\.(\d+)/.exec(pkg.engines.vscode)!.slice(1).map(Number);
    assert.ok(major > 1 || minor >= 74, pkg.engines.vscode);
    assert.ok(pkg.contributes.views.refactorBrowser.some((v) => v.id === 'refactorBrowser.catalog'));
    assert.ok(!pkg.activationEvents.some((e) => e === '*' || e.startsWith('onStartupFinished')));
  });

  it('contributes the container, the view and the contract commands with their titles', () => {
    assert.deepEqual(pkg.contributes.viewsContainers.activitybar.map((c) => [c.id, c.title]), [['refactorBrowser', 'Refactor Browser']]);
    assert.deepEqual(pkg.contributes.views.refactorBrowser.map((v) => [v.id, v.name]), [['refactorBrowser.catalog', 'Catalog']]);
    const titles = new Map(pkg.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
    assert.equal(titles.get('refactorBrowser.refresh'), 'Refactor Browser: Refresh');
    assert.equal(titles.get('refactorBrowser.filterLanguage'), 'Refactor Browser: Filter by Language…');
    assert.equal(titles.get('refactorBrowser.addTag'), 'Refactor Browser: Add Tag…');
    assert.equal(titles.get('refactorBrowser.removeTag'), 'Refactor Browser: Remove Tag');
  });

  it('puts Filter and Add Tag in the view title, Remove Tag on tag rows, Retry on error rows', () => {
    const title = pkg.contributes.menus['view/title'].map((m) => m.command);
    for (const c of ['refactorBrowser.refresh', 'refactorBrowser.filterLanguage', 'refactorBrowser.addTag']) assert.ok(title.includes(c), c);
    const items = pkg.contributes.menus['view/item/context'];
    assert.ok(items.some((m) => m.command === 'refactorBrowser.removeTag' && m.when?.includes('viewItem == refactorBrowser.tag')));
    assert.ok(items.some((m) => m.command === 'refactorBrowser.retry' && m.when?.includes('viewItem == refactorBrowser.error')));
    // Commands that need a row make no sense in the palette.
    const hidden = pkg.contributes.menus.commandPalette.filter((m) => m.when === 'false').map((m) => m.command);
    assert.ok(hidden.includes('refactorBrowser.loadMore') && hidden.includes('refactorBrowser.retry'));
  });

  it('shows welcome content on the context key the extension sets when the service cannot be reached', () => {
    const welcome = pkg.contributes.viewsWelcome.find((w) => w.view === 'refactorBrowser.catalog');
    assert.ok(welcome);
    assert.equal(welcome.when, ContextKeys.unreachable);
    assert.match(welcome.contents, /\(command:refactorBrowser\.refresh\)/);
    const source = readFileSync(path.resolve(__dirname, '../../../../../src/extension/catalog/view.ts'), 'utf8');
    assert.match(source, /'setContext', ContextKeys\.unreachable,/);
  });
});
