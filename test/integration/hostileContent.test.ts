// Hostile content in VS Code (docs/hostile.md, case 10): a service whose every text field holds `<script>`, `<img onerror>`,
// `javascript:` and both quotes (test/hostile/bodies.ts markupCatalogJson). The tree's labels,
// descriptions and tooltips show it as text (tooltips untrusted Markdown without links), and the code
// view's webview shows it as text: read from its DOM, nothing in it was made from the data but text.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { Commands } from '../../src/extension/common/commandIds';
import type { DomInfo } from '../ui/protocol';
import { MARKUP, markupCatalogJson } from '../hostile/bodies';
import { closeAllEditors, collapseCatalog, settleWebviews, showRoot, TREE_ROWS, webviewText } from './codeViewHelpers';
import { api, resetState, useSettings } from './helpers';
import { watchUnhandled } from './hostileHelpers';
import { items } from './catalogHelpers';
import { uiOrSkip, type Ui } from './ui';
import { startService, type RunningService } from './services';

const TAG = 'tag"><svg onload=alert(7)>';

/** Elements that only markup in the data could have made, and attributes that would run or navigate. */
function activeParts(elements: DomInfo[]): string[] {
  const found: string[] = [];
  for (const e of elements) {
    for (const [name, value] of Object.entries(e.attributes)) {
      if (/^on/i.test(name)) found.push(`<${e.tag} ${name}=${JSON.stringify(value)}>`);
      if (/^\s*(javascript|vbscript|data|command):/i.test(value)) found.push(`<${e.tag} ${name}=${JSON.stringify(value)}>`);
    }
  }
  return found;
}

describe('Hostile content in VS Code', function () {
  this.timeout(60_000);
  const unhandled = watchUnhandled();
  let service: RunningService;

  before(async () => {
    unhandled.start();
    await resetState();
    service = await startService(markupCatalogJson());
  });
  beforeEach(() => useSettings({ baseUrl: service.url, tags: [TAG] }));
  after(async () => {
    await resetState();
    await service.close();
    unhandled.stop();
    assert.deepStrictEqual(unhandled.take(), [], 'no unhandled rejection or uncaught exception in the extension host');
  });

  it('shows labels and descriptions of codes, refactorings and tags as the text they are', async () => {
    const browser = await api();
    const [code] = items(await browser.treeRows(['Recent Codes']));
    assert.strictEqual(code.label, `Title ${MARKUP}`);
    assert.strictEqual(code.description, `JavaScript · Mallory ${MARKUP} · 2 refactorings`);
    const refactors = await browser.treeRows(['Recent Codes', code.label]);
    // Best rated first: Second is rated 2, Refactor 1.
    assert.deepStrictEqual(refactors.map((r) => [r.label, r.description]), [
      [`Second ${MARKUP}`, `★ 2 (1) · Mallory ${MARKUP} · Title ${MARKUP}`],
      [`Refactor ${MARKUP}`, `★ 1 (1) · Anon ${MARKUP} · Title ${MARKUP}`],
    ]);
    assert.deepStrictEqual((await browser.treeRows(['Tags'])).map((r) => r.label), [TAG]);
    assert.deepStrictEqual(items(await browser.treeRows(['Tags', TAG])).map((r) => r.label), [`Title ${MARKUP}`]);
  });

  it('builds tooltips as untrusted Markdown without HTML, links or command links', async () => {
    const browser = await api();
    await browser.treeRows(['Recent Codes']);
    for (const path of [['Recent Codes', `Title ${MARKUP}`], ['Recent Codes', `Title ${MARKUP}`, `Refactor ${MARKUP}`]]) {
      const row = await browser.row(path);
      assert.strictEqual(row.tooltipTrusted, false);
      assert.strictEqual(row.tooltipHtml, false);
      assert.ok(row.tooltip.length > 0);
      // Markdown links and autolinks are what could make a tooltip navigate; the data's brackets are escaped.
      assert.doesNotMatch(row.tooltip, /\]\(|(^|[^\\])<(javascript|command|https?):/, row.tooltip);
      assert.match(row.tooltip, /alert\\\(1\\\)|alert\(1\)/, 'the text is there');
    }
  });

  describe('as the UI shows it', function () {
    this.timeout(90_000);
    let ui: Ui;

    before(async function () {
      ui = uiOrSkip(this);
      // Webviews settle with a code of the sample (see settleWebviews), then back to the markup service.
      await resetState();
      await settleWebviews(ui);
      await useSettings({ baseUrl: service.url, tags: [TAG] });
    });
    afterEach(closeAllEditors);
    after(async () => {
      await collapseCatalog();
      await vscode.commands.executeCommand('workbench.view.explorer');
    });

    it('renders the rows and their hover as text: no element or handler from the data', async () => {
      await showRoot(ui, 'Recent Codes');
      const rows = await ui.query({ css: `${TREE_ROWS}[aria-level="2"]` }, ['aria-label'], 1);
      assert.ok(rows[0].text.includes(`Title ${MARKUP}`), rows[0].text);
      const sidebar = await ui.dom({ css: '.part.sidebar *' });
      assert.deepStrictEqual(activeParts(sidebar), []);
      assert.deepStrictEqual(sidebar.filter((e) => ['script', 'img', 'svg', 'iframe'].includes(e.tag) && /alert/.test(JSON.stringify(e))), []);

      // A hover shows when the mouse moves onto the row: from elsewhere first, a bounded number of times.
      for (let attempt = 1; ; attempt++) {
        await ui.hover({ css: `${TREE_ROWS}[aria-level="1"]`, hasText: 'Tags' });
        await ui.hover({ css: `${TREE_ROWS}[aria-level="2"]`, hasText: 'Title' });
        const shown = await ui.waitFor({ css: '.monaco-hover, .workbench-hover', hasText: 'Comment' }, 'visible', 5000).then(() => true, () => false);
        if (shown) break;
        if (attempt === 3) throw new Error('the tooltip did not show after 3 hovers');
      }
      const hover = await ui.dom({ css: ':is(.monaco-hover, .workbench-hover) *' });
      const text = (await ui.query({ css: '.monaco-hover, .workbench-hover', hasText: 'Comment' }))[0].text;
      assert.ok(text.includes('<script>alert(1)</script>'), `the hover shows the markup as text: ${text}`);
      assert.deepStrictEqual(activeParts(hover), []);
      assert.deepStrictEqual(hover.filter((e) => ['script', 'img', 'svg', 'iframe', 'a'].includes(e.tag)), []);
      await ui.press('Escape');
    });

    it('shows every field in the code view as text: no script, image, handler or javascript: link from the data', async () => {
      const browser = await api();
      await browser.treeRows(['Recent Codes']); // so the view knows the author (whatever the single-code answer says)
      await vscode.commands.executeCommand(Commands.openCode, 1);
      await webviewText(ui, [
        `Title ${MARKUP}`, `Comment ${MARKUP}`, `Mallory ${MARKUP}`, `const s = '${MARKUP}';`,
        `Refactor ${MARKUP}`, `Anon ${MARKUP}`, `Why ${MARKUP}`, `Second ${MARKUP}`,
      ]);
      const all = await ui.dom({ css: '*' }, { webview: true, frameText: `Title ${MARKUP}` });
      assert.deepStrictEqual(activeParts(all), []);
      const inRoot = await ui.dom({ css: '#root *' }, { webview: true, frameText: `Title ${MARKUP}` });
      const made = inRoot.filter((e) => !['header', 'h1', 'h2', 'h3', 'p', 'span', 'time', 'section', 'div', 'button', 'pre', 'code', 'label', 'select', 'option'].includes(e.tag));
      assert.deepStrictEqual(made, [], 'only the elements the view makes itself');
      const scripts = all.filter((e) => e.tag === 'script' && e.attributes.src !== undefined);
      assert.ok(scripts.every((s) => /\/dist\/webview\.js$/.test(s.attributes.src)), JSON.stringify(scripts));
      assert.ok(!all.some((e) => e.tag === 'script' && /alert\(/.test(e.text)), 'no script holds the data');
      // Websites of javascript: are not links: the only link buttons go to http(s) (Open in Browser).
      const links = inRoot.filter((e) => e.tag === 'a' || (e.attributes.class ?? '').split(' ').includes('link'));
      assert.ok(links.length > 0 && links.every((l) => l.tag === 'button' && /^https?:/.test(l.attributes.title ?? '')), JSON.stringify(links));
      assert.ok(inRoot.some((e) => e.tag === 'h1' && e.text === `Title ${MARKUP}`));
    });
  });
});
