// package.json's contributions for reading and reusing code: command ids and titles, the context menus
// of code and refactoring rows, the palette hiding commands that need a row (and offering Star or
// Unstar as the open code view's code is), icons only where VS Code draws them, and activation.
// `when` clauses are evaluated (for the operators used here) in the contexts that matter. Last, the
// walkthrough.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ContextKeys } from '../../src/extension/common/commandIds';
import { localizedManifest, readJson } from '../helpers/manifest';

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

// The walkthrough (Help → Welcome, "Get Started with Refactor Browser"): each step's text through
// package.nls.json and its German file, its buttons on commands that exist, its completion events on
// commands, views, settings and context keys that exist, and a Markdown page with its German translation.
interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string; image?: unknown; svg?: string; altText?: string };
  completionEvents?: string[];
  when?: string;
}
interface Walkthrough { id: string; title: string; description: string; steps: WalkthroughStep[] }
interface WalkthroughManifest {
  contributes: {
    commands: Array<{ command: string }>;
    views: Record<string, Array<{ id: string }>>;
    configuration: { properties: Record<string, unknown> };
    walkthroughs: Walkthrough[];
  };
}

const ROOT = path.resolve(__dirname, '../../..');
/** The languages package.json is translated into, besides English: package.nls.<language>.json. */
const TRANSLATIONS = readdirSync(ROOT).map((f) => /^package\.nls\.([\w-]+)\.json$/.exec(f)?.[1]).filter((l): l is string => l !== undefined);
/** A Markdown page as VS Code shows it in `language`: `page.nls.<language>.md` beside it (see gettingStartedDetailsRenderer). */
const translatedPage = (page: string, language: string): string => page.replace(/\.md$/, `.nls.${language}.md`);
/** `[label](command:id)` and `[label](command:toSide:id?args)` links: the command ids. */
const commandLinks = (markdown: string): string[] => [...markdown.matchAll(/\]\(command:(?:toSide:)?([^)?\s]+)/g)].map((m) => m[1]);

describe('package.json: the walkthrough', () => {
  const raw = readJson('package.json') as WalkthroughManifest;
  const english = localizedManifest<WalkthroughManifest>();
  const contributes = english.contributes;
  const [walkthrough] = contributes.walkthroughs;
  const commands = new Set(contributes.commands.map((c) => c.command));
  const views = new Set(Object.values(contributes.views).flat().map((v) => v.id));
  /** A command a link may run: a contributed one, or the `<view>.focus` VS Code makes for each contributed view. */
  const runnable = (id: string): boolean => commands.has(id) || (id.endsWith('.focus') && views.has(id.slice(0, -'.focus'.length)));

  it('is one walkthrough of the five first steps, in order', () => {
    assert.equal(contributes.walkthroughs.length, 1);
    assert.equal(walkthrough.id, 'getStarted');
    assert.deepEqual(walkthrough.steps.map((s) => s.id), ['catalog', 'service', 'signIn', 'share', 'findSimilar']);
    assert.equal(new Set(walkthrough.steps.map((s) => s.id)).size, walkthrough.steps.length);
  });

  it('names every title and description through package.nls.json, with a German text of its own', () => {
    const [w] = raw.contributes.walkthroughs;
    const texts = [w.title, w.description, ...w.steps.flatMap((s) => [s.title, s.description])];
    const nls = readJson('package.nls.json') as Record<string, string>;
    assert.ok(TRANSLATIONS.includes('de'), TRANSLATIONS.join(', '));
    for (const text of texts) {
      const key = /^%([^%]+)%$/.exec(text)?.[1];
      assert.ok(key, `${text} is not a %key%`);
      assert.ok((nls[key] ?? '').trim() !== '', `package.nls.json: ${key}`);
      for (const language of TRANSLATIONS) {
        const local = readJson(`package.nls.${language}.json`) as Record<string, string>;
        assert.ok((local[key] ?? '').trim() !== '', `package.nls.${language}.json: ${key}`);
        assert.notEqual(local[key], nls[key], `package.nls.${language}.json: ${key} is the English text`);
      }
    }
  });

  it('gives each step a button that runs a command that exists, the same in every language', () => {
    const linked = walkthrough.steps.map((step) => {
      // VS Code draws a link alone on its line as a button.
      const buttons = step.description.split('\n').filter((line) => /^\[[^\]]+\]\(command:[^)]+\)$/.test(line.trim()));
      assert.equal(buttons.length, 1, `${step.id}: ${step.description}`);
      const links = commandLinks(step.description);
      for (const id of links) assert.ok(runnable(id), `${step.id} links to ${id}, which is neither a contributed command nor a view's focus command`);
      return links;
    });
    assert.deepEqual(linked, [['refactorBrowser.catalog.focus'], ['refactorBrowser.openSettings'], ['refactorBrowser.signIn'],
      ['refactorBrowser.shareSelection'], ['refactorBrowser.findSimilar']]);
    for (const language of TRANSLATIONS) {
      const local = localizedManifest<WalkthroughManifest>(language).contributes.walkthroughs[0];
      assert.deepEqual(local.steps.map((s) => commandLinks(s.description)), linked, `package.nls.${language}.json`);
    }
  });

  it('checks each step off on an event about a command, view, setting or context key that exists', () => {
    const contextKeys = new Set<string>(Object.values(ContextKeys));
    for (const step of walkthrough.steps) {
      const events = step.completionEvents ?? [];
      assert.ok(events.length > 0, `${step.id}: with no completion event, selecting the step would check it off`);
      for (const event of events) {
        const [, kind, what] = /^(\w+):(.+)$/.exec(event) ?? [];
        if (kind === 'onCommand') assert.ok(runnable(what.replace(/^toSide:/, '')), event);
        else if (kind === 'onView') assert.ok(views.has(what), event);
        else if (kind === 'onSettingChanged') assert.ok(Object.hasOwn(contributes.configuration.properties, what), event);
        else if (kind === 'onContext') {
          const keys = what.match(/refactorBrowser\.\w+/g) ?? [];
          assert.ok(keys.length > 0 && keys.every((k) => contextKeys.has(k)), `${event}: a key the extension sets`);
        } else assert.fail(`${step.id}: ${event} is not an event this test knows to check`);
      }
    }
  });

  it('shows a Markdown page of media/walkthrough/ beside each step, translated into every language package.json is', () => {
    for (const step of walkthrough.steps) {
      const page = step.media.markdown;
      assert.ok(page !== undefined && Object.keys(step.media).length === 1, `${step.id}: ${JSON.stringify(step.media)}`);
      assert.match(page, /^media\/walkthrough\/[\w-]+\.md$/);
      const text = readFileSync(path.join(ROOT, page), 'utf8');
      const items = (md: string): number => md.split('\n').filter((l) => /^(- |\d+\. )/.test(l)).length;
      for (const language of TRANSLATIONS) {
        const file = translatedPage(page, language);
        assert.ok(existsSync(path.join(ROOT, file)), `${file} is missing`);
        const local = readFileSync(path.join(ROOT, file), 'utf8');
        assert.notEqual(local, text, `${file} is the English page`);
        assert.equal(items(local), items(text), `${file} has as many points as ${page}`);
        assert.deepEqual(commandLinks(local), commandLinks(text), file);
      }
      for (const id of commandLinks(text)) assert.ok(runnable(id), `${page} links to ${id}`);
      // A page shows only what it carries: no image, which would have to be packaged beside it.
      assert.doesNotMatch(text, /!\[|<img\b/i, page);
    }
  });
});
