// `vscode.tree.cold` is one sample per fresh window: the figure `npm run bench` reports is the median
// of several windows, its goal held by that median, with every sample named in its note.
import * as assert from 'node:assert/strict';
import type { Figure } from '../../../bench/measure';
import { TREE_WINDOWS, withTreeColdMedian } from '../../../bench/vscode';

const figure = (name: string, value: number, baseline = 0.02): Figure =>
  ({ name, value, baseline, ratio: value / baseline, goal: 60, unit: 'ms', pass: value <= 60, note: 'first expansion' });

describe('bench: vscode.tree.cold over fresh windows', () => {
  it('runs five windows', () => {
    assert.equal(TREE_WINDOWS, 5);
  });

  it('reports the median of the windows, passing when the median is within the goal', () => {
    const samples = [89, 44, 52, 47, 61];
    const windows = samples.map((v, i) => [figure('vscode.activate', 8 + i), figure('vscode.tree.cold', v, 0.01 * (i + 1))]);
    const [activate, cold] = withTreeColdMedian(windows[0], windows);
    assert.deepEqual(activate, windows[0][0], 'other figures are the first window\'s');
    assert.equal(cold.value, 52);
    assert.equal(cold.baseline, 0.03);
    assert.equal(cold.ratio, Number((52 / 0.03).toPrecision(4)));
    assert.equal(cold.pass, true, 'the 89 ms sample alone would fail');
    assert.match(cold.note!, /median of 5 fresh windows \(89, 44, 52, 47, 61 ms\)/);
    const slow = withTreeColdMedian(windows[0], [89, 70, 61, 44, 50].map((v) => [figure('vscode.tree.cold', v)]));
    assert.equal(slow[1].value, 61);
    assert.equal(slow[1].pass, false);
  });

  it('refuses a window that reported no tree.cold', () => {
    assert.throws(() => withTreeColdMedian([figure('vscode.tree.cold', 50)], [[figure('vscode.tree.cold', 50)], [figure('vscode.activate', 8)]]), /reported no vscode.tree.cold/);
  });
});
