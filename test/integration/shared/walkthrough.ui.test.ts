// The walkthrough as VS Code shows it (Help → Welcome, "Get Started with Refactor Browser"), opened by
// its id as the Welcome page opens it: its title and each step's title on the page, and a step's
// Markdown page, read from media/walkthrough/, in the media webview beside them.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { closeAllEditors } from '../codeViewHelpers';
import { WALKTHROUGH, extension } from '../helpers';
import { uiOrSkip, type Ui } from '../ui';

/** A manifest string as VS Code hands it over: a title may come with its untranslated original. */
type Localized = string | { value: string; original: string };
const text = (v: Localized): string => (typeof v === 'object' ? v.value : v);

interface Walkthrough { id: string; title: Localized; steps: Array<{ id: string; title: Localized; media: { markdown: string } }> }

describe('The walkthrough (UI)', function () {
  this.timeout(60_000);
  let ui: Ui;

  before(function () {
    ui = uiOrSkip(this);
  });
  after(closeAllEditors);

  it('opens by its id with its title, its steps and the chosen step\'s Markdown page', async () => {
    const [walkthrough] = (extension().packageJSON as { contributes: { walkthroughs: Walkthrough[] } }).contributes.walkthroughs;
    assert.ok(WALKTHROUGH.endsWith(`#${walkthrough.id}`), WALKTHROUGH);
    const step = walkthrough.steps[0];
    // A step named, since the page otherwise opens at the first step not yet checked off, which
    // depends on what the tests before this one did.
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', { category: WALKTHROUGH, step: step.id }, false);
    await ui.waitFor({ css: '.getting-started-category .category-title', hasText: text(walkthrough.title) });
    const titles = await ui.query({ css: '.getting-started-step .step-title' }, [], walkthrough.steps.length);
    assert.deepStrictEqual(titles.map((t) => t.text.trim()), walkthrough.steps.map((s) => text(s.title)));
    const page = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extension().extensionUri, step.media.markdown)));
    const heading = /^#+ (.+)$/m.exec(page)?.[1];
    assert.ok(heading, `${step.media.markdown} has a heading`);
    const shown = await ui.dom({ css: 'h1, h2, h3' }, { webview: true, frameText: heading });
    assert.ok(shown.some((h) => h.text.trim() === heading), JSON.stringify(shown.map((h) => h.text)));
  });
});
