// A code in sections as a person sees it in the code view: each section under its title (its language
// beside it where it is not the code's), heading lines not shown as code, and a section's own
// Insert at Cursor button inserting that section only. Uses the sample's Ruby class with its spec.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { Code } from '../../src/core/model';
import { Commands } from '../../src/extension/common/commandIds';
import { closeAllEditors, fetchCode, settleWebviews, untitledEditor, webviewText } from './codeViewHelpers';
import { resetState, waitFor } from './helpers';
import { uiOrSkip, type Ui } from './ui';

describe('Code view sections (UI)', function () {
  this.timeout(90_000);
  let ui: Ui;
  let code: Code;

  before(async function () {
    ui = uiOrSkip(this);
    await resetState();
    code = await fetchCode(54);
    assert.ok(code.code.startsWith('## user.rb\n'), 'sample code 54 is the one in sections');
    await settleWebviews(ui);
  });
  afterEach(closeAllEditors);
  after(resetState);

  it('shows each section under its title and inserts one section from its own button', async () => {
    const editor = await untitledEditor('', 'ruby');
    await vscode.commands.executeCommand(Commands.openCode, code.id);
    const text = await webviewText(ui, [code.title, 'user_spec.rb', 'Run the spec', 'describe User do']);
    assert.ok(!text.includes('## user'), 'heading lines are titles, not code');
    const titles = await ui.dom({ css: `#code-${code.id} .part-title` }, { webview: true, frameText: code.title });
    assert.deepStrictEqual(titles.map((t) => t.text), ['user.rb', 'user_spec.rb', 'Run the spec Bash']);

    await ui.webviewClick({ css: `#code-${code.id}-section-1 button`, hasText: 'Insert at Cursor' }, code.title);
    await waitFor(() => (editor.document.getText() !== '' ? true : undefined), 'the inserted section');
    const spec = code.code.split('## user_spec.rb\n')[1].split('## Run the spec [Bash]\n')[0];
    assert.strictEqual(editor.document.getText(), spec.slice(0, -1));
  });
});
