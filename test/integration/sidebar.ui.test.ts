// The sidebar as a person uses it: click the activity-bar item, expand Recent Codes, read the rows
// off the screen. Saves media/screenshots/sidebar.png for the README.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { api, resetState, ROOT_LABELS } from './helpers';
import { uiOrSkip, type Ui } from './ui';

const ROWS = '.part.sidebar .monaco-list-row[role=treeitem]';

describe('Sidebar (UI)', () => {
  let ui: Ui;

  before(async function () {
    ui = uiOrSkip(this);
    await resetState();
    // Start from the Explorer, as a fresh window does: clicking our item must open our container.
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.view.explorer');
  });

  it('opens from the activity bar and lists Recent Codes when expanded', async () => {
    await ui.click({ role: 'tab', name: 'Refactor Browser' });
    const roots = await ui.query({ css: `${ROWS}[aria-level="1"]` }, ['aria-expanded'], ROOT_LABELS.length);
    assert.deepStrictEqual(roots.map((r) => r.text.split('\n')[0]), ROOT_LABELS);
    assert.ok(roots.every((r) => r.attributes['aria-expanded'] === 'false'), 'roots should start collapsed');

    await ui.click({ css: ROWS, hasText: 'Recent Codes' });
    const shown = await ui.query({ css: `${ROWS}[aria-level="2"]` }, ['aria-label'], 1);
    const expected = await (await api()).treeRows(['Recent Codes']);
    assert.ok(expected.length > 0, 'the sample catalog has recent codes');
    // The list is virtual: it renders the rows that fit, in order from the top.
    assert.ok(shown.length >= Math.min(expected.length, 10), `only ${shown.length} rows on screen`);
    shown.forEach((row, i) => {
      assert.ok(row.text.includes(expected[i].label), `row ${i}: ${JSON.stringify(row.text)} lacks ${expected[i].label}`);
      assert.ok(row.text.includes(expected[i].description), `row ${i}: ${JSON.stringify(row.text)} lacks ${expected[i].description}`);
    });

    await ui.screenshot('sidebar');
  });
});
