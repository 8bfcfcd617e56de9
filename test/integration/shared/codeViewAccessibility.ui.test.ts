// The code view as a screen reader and a keyboard meet it, in both extension hosts: axe-core (WCAG 2
// A/AA and best practices) finds nothing, of any impact, in a code with refactorings, in a code with
// sections, in a high contrast theme and in the error line; every button's name says what it acts on; every code block
// takes keyboard focus; headings go h1, h2, h3; the page has its main landmark; after Retry focus is
// on the page's heading, not left on the body.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { loadSampleDataset } from '../../../src/server/catalog/sampleDataset';
import { hasSections, splitSections } from '../../../src/core/sections';
import { Commands } from '../../../src/extension/common/commandIds';
import { closeAllEditors, fetchCode, settleWebviews, webviewText } from '../codeViewHelpers';
import { resetState, useSettings, waitFor } from '../helpers';
import { refusedUrl, refusingPort, startService } from '../services';
import { uiOrSkip, type Ui } from '../ui';
import type { AxeViolation } from '../../ui/protocol';

/** What axe-core reports, a line per rule with the elements it flags (the issue asks for no serious or critical finding; none of any impact is left). */
function findings(violations: AxeViolation[]): string[] {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.join('\n  ')}`);
}

describe('Code view accessibility (UI)', function () {
  this.timeout(90_000);
  let ui: Ui;

  before(async function () {
    ui = uiOrSkip(this);
    await resetState();
    await settleWebviews(ui);
  });
  afterEach(closeAllEditors);
  after(resetState);

  it('has no axe violations, names every button by what it acts on, and lets the keyboard reach every code block', async () => {
    const code = await fetchCode(1);
    await vscode.commands.executeCommand(Commands.openCode, code.id);
    await webviewText(ui, [code.title, `Refactorings (${code.refactors!.length})`]);
    const dom = (css: string) => ui.dom({ css }, { webview: true, frameText: code.title, maxText: 80 });
    // What axe checks includes the Order switch and the Best rated mark.
    assert.strictEqual((await dom('select#refactoring-order')).length, 1);
    assert.strictEqual((await dom('h3 .badge')).length, 1);
    assert.deepStrictEqual(findings(await ui.axe(code.title)), []);

    const names = (await dom('button.action')).map((b) => b.attributes['aria-label']);
    assert.ok(names.includes(`Insert at Cursor: code #${code.id}`), JSON.stringify(names));
    const refactor = code.refactors![0];
    for (const name of [`Insert at Cursor: refactoring #${refactor.id}`, `Compare with Original: refactoring #${refactor.id}`, `Copy refactoring #${refactor.id}`, `Open as Document: refactoring #${refactor.id}`]) {
      assert.ok(names.includes(name), `${name} in ${JSON.stringify(names)}`);
    }
    const blocks = await dom('pre.code');
    assert.strictEqual(blocks.length, code.refactors!.length + 1);
    assert.ok(blocks.every((b) => b.attributes.tabindex === '0' && b.attributes['aria-label']?.startsWith('Code of ')), JSON.stringify(blocks.map((b) => b.attributes)));
    const headings = (await dom('h1, h2, h3')).map((h) => h.tag);
    assert.deepStrictEqual(headings, ['h1', 'h2', ...code.refactors!.map(() => 'h3')]);
    assert.strictEqual((await dom('main')).length, 1);
  });

  it('has no axe violations in a code shown section by section', async () => {
    const sectioned = loadSampleDataset().recentCodes.all.find((c) => hasSections(splitSections(c.code, c.language)));
    assert.ok(sectioned, 'the sample has a code with sections');
    await vscode.commands.executeCommand(Commands.openCode, sectioned.id);
    const sections = splitSections(sectioned.code, sectioned.language);
    await webviewText(ui, [sectioned.title, sections[0].title]);
    assert.deepStrictEqual(findings(await ui.axe(sectioned.title)), []);
    const names = (await ui.dom({ css: 'button.action' }, { webview: true, frameText: sectioned.title })).map((b) => b.attributes['aria-label']);
    assert.ok(names.includes(`Insert at Cursor: section ${sections[1].title} of code #${sectioned.id}`), JSON.stringify(names));
  });

  it('draws the keyboard focus, thicker in a high contrast theme, on buttons and on the code blocks', async () => {
    const code = await fetchCode(1);
    const theme = vscode.workspace.getConfiguration('workbench');
    try {
      await theme.update('colorTheme', 'Default High Contrast', vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand(Commands.openCode, code.id);
      await webviewText(ui, [code.title, `Refactorings (${code.refactors!.length})`]);
      const button = await ui.focusRing('button.action', code.title);
      assert.match(button.bodyClass, /vscode-high-contrast/);
      assert.deepStrictEqual([button.tag, button.ariaLabel], ['button', `Insert at Cursor: code #${code.id}`]);
      assert.strictEqual(button.outlineStyle, 'solid');
      assert.strictEqual(button.outlineWidth, '2px');
      const block = await ui.focusRing('pre.code', code.title);
      assert.deepStrictEqual([block.tag, block.ariaLabel], ['pre', `Code of code #${code.id}`]);
      assert.strictEqual(block.outlineStyle, 'solid');
      assert.strictEqual(block.outlineWidth, '2px');
      assert.deepStrictEqual(findings(await ui.axe(code.title)), [], 'and none in high contrast either');
    } finally {
      await theme.update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('has no axe violations in the error line, which is announced', async () => {
    await useSettings({ baseUrl: await refusedUrl(), requestTimeout: 2 });
    await vscode.commands.executeCommand(Commands.openCode, 1);
    await webviewText(ui, ['Retry']);
    assert.deepStrictEqual(findings(await ui.axe('Retry')), []);
    const alert = await ui.dom({ css: '[role=alert]' }, { webview: true, frameText: 'Retry' });
    assert.strictEqual(alert.length, 1);
    const heading = await ui.dom({ css: 'h1' }, { webview: true, frameText: 'Retry' });
    assert.deepStrictEqual(heading.map((h) => h.text), ['Code #1'], 'the page still says which code');
  });

  it('puts focus on the page heading after Retry, while it still fails and once the code shows', async () => {
    await resetState(); // the test before leaves a refused service configured
    const code = await fetchCode(1);
    // Nothing answers there until the service starts on that very port (held meanwhile).
    const refusing = await refusingPort();
    await useSettings({ baseUrl: `http://127.0.0.1:${refusing.port}`, requestTimeout: 5 });
    /** The focused element of the view showing `frameText`: the page's h1 saying `heading`, once it is. */
    const headingFocused = (frameText: string, heading: string) => {
      let seen: string | undefined;
      return waitFor(async () => {
        const focused = await ui.dom({ css: ':focus' }, { webview: true, frameText });
        seen = JSON.stringify(focused.map((f) => [f.tag, f.text, f.attributes.tabindex]));
        return focused.length === 1 && focused[0].tag === 'h1' && focused[0].text === heading && focused[0].attributes.tabindex === '-1' ? true : undefined;
      }, `focus on the heading "${heading}"`).catch((err: Error) => {
        throw new Error(`${err.message}; focused: ${seen}`);
      });
    };
    await vscode.commands.executeCommand(Commands.openCode, code.id);
    await webviewText(ui, [`/codes/${code.id}.xml`, 'Retry']);
    await ui.webviewClick({ role: 'button', name: 'Retry' }, `/codes/${code.id}.xml`);
    // Still refused: the error is drawn again, the button that had focus with it.
    await webviewText(ui, [`/codes/${code.id}.xml`, 'Retry']);
    await headingFocused(`/codes/${code.id}.xml`, `Code #${code.id}`);

    const service = await startService(undefined, { on: refusing });
    try {
      await ui.webviewClick({ role: 'button', name: 'Retry' }, `/codes/${code.id}.xml`);
      await webviewText(ui, [code.title, 'Refactorings (']);
      await headingFocused(code.title, code.title);
    } finally {
      await closeAllEditors();
      await resetState();
      await service.close();
    }
  });
});
