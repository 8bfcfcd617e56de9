// Share Selection as Code…, in both extension hosts, against a writable service: the selection goes
// verbatim, in the document's language, with the title, comment and tags answered, after a preview
// of what will be sent; the new code opens in the code view, heads Recent Codes and is found by
// search. A refused share keeps what was typed, shows each field's reason beside it and sends again
// once corrected; a document language the service lacks is asked for; signed out it offers Sign In,
// and on the built-in sample catalog it says that takes no contributions. The walkthrough's button
// shares the selection of the editor used last; with no editor it says to select code in one. No log
// line ever holds the token.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { Code } from '../../../src/core/model';
import { Commands } from '../../../src/extension/common/commandIds';
import { api, assertNoLogHolds, openWalkthrough, resetState, signIn, signOut, useSettings, waitFor, walkthroughButton } from '../helpers';
import { items } from '../catalogHelpers';
import { closeAllEditors } from '../codeViewHelpers';
import { startWritable, type WritableTestService } from '../services';
import { uiOrSkip } from '../ui';

const AGAIN = 'Edit and Send Again';

/** Opens `content` as a `language` document and selects its lines `from` to `to` whole. */
async function select(content: string, language: string, from: number, to: number): Promise<string> {
  const doc = await vscode.workspace.openTextDocument({ language, content });
  const editor = await vscode.window.showTextDocument(doc);
  editor.selection = new vscode.Selection(from, 0, to + 1, 0);
  return doc.getText(editor.selection);
}

/** The code the code view shows, once it has loaded the one titled `title`. */
async function inCodeView(title: string): Promise<Code> {
  const browser = await api();
  return waitFor(() => {
    const code = browser.currentCode();
    return code?.title === title ? code : undefined;
  }, `the code view to show "${title}"`, 20_000);
}

async function firstRecent(): Promise<string | undefined> {
  return items(await (await api()).treeRows(['Recent Codes']))[0]?.label;
}

describe('Share Selection as Code', function () {
  this.timeout(60_000);
  let service: WritableTestService;
  let token: string;
  let host: string;

  before(async () => {
    service = await startWritable();
    token = await service.addPerson('Ana Lima');
    host = new URL(service.url).host;
  });

  beforeEach(async () => {
    await resetState();
    await useSettings({ baseUrl: service.url });
  });

  afterEach(async () => {
    await signOut();
    await assertNoLogHolds(token);
    await resetState();
  });

  after(async () => {
    await service?.close();
  });

  async function signInAsAna(): Promise<void> {
    await signIn(token);
    assert.ok(await (await api()).session(), 'signed in');
  }

  it('shares the selection verbatim after showing what will be sent; the code view opens on it, Recent Codes lists it first and search finds it', async () => {
    await signInAsAna();
    await useSettings({ tags: ['legacy', 'loops'] });
    assert.notStrictEqual(await firstRecent(), 'Sum with a loop');
    const code = await select('# before\ndef total(xs):\n\tn = 0  \n    for x in xs: n += x\n    return n\n# after\n', 'python', 1, 4);
    const comment = 'A loop where sum() would do.\n\nHow would you write it?';
    const { asked, said, confirmed } = await (await api()).runAnswering(Commands.shareSelection, { inputs: ['Sum with a loop', comment, 'loops python'] });
    assert.deepStrictEqual(said, []);
    assert.deepStrictEqual(asked.map((a) => a.value), ['', '', ''], 'nothing typed before');
    assert.match(asked[0].prompt ?? '', /title/i);
    assert.match(asked[1].prompt ?? '', /comment/i);
    assert.ok(asked[2].prompt?.includes('legacy loops'), `the saved tags are suggested: ${asked[2].prompt}`);
    assert.deepStrictEqual(confirmed, [
      `Share this code with ${host}?\nTitle: Sum with a loop\nLanguage: Python\nTags: loops python\nCode: 4 lines\nComment:\n${comment}`,
    ]);

    const shown = await inCodeView('Sum with a loop');
    assert.strictEqual(shown.code, code, 'the code is the selection, verbatim');
    assert.strictEqual(shown.language, 'Python');
    assert.strictEqual(shown.comment, comment);
    assert.strictEqual(await firstRecent(), 'Sum with a loop');
    // Search knows it at once, without the catalog being indexed again.
    const browser = await api();
    await waitFor(async () => ((await browser.searchFor('Sum with a loop'))[0]?.codeId === shown.id ? true : undefined), 'search to find the new code');
  });

  it('keeps what was typed when the service refuses it, shows each reason beside its field, and sends again once corrected', async () => {
    await signInAsAna();
    const code = await select('x = 1\nputs x\n', 'ruby', 0, 1);
    const long = 'T'.repeat(201);
    const { asked, said } = await (await api()).runAnswering(Commands.shareSelection, {
      inputs: [long, ' ', 'ruby', 'Printing a number', 'Why assign first?', 'ruby'],
      button: AGAIN,
    });
    assert.strictEqual(said.length, 1, said.join('\n'));
    assert.match(said[0], new RegExp(`^Could not share the code with ${host.replace(/\./g, '\\.')}: `));
    assert.ok(said[0].includes('Title is too long (maximum is 200 characters)'), said[0]);
    assert.ok(said[0].includes("Comment can't be blank"), said[0]);

    assert.strictEqual(asked.length, 6);
    assert.deepStrictEqual(asked.slice(3).map((a) => a.value), [long, ' ', 'ruby'], 'asked again with what was typed');
    const beside = await asked[3].validateInput?.(long);
    assert.strictEqual(typeof beside === 'object' && beside?.message, 'Title is too long (maximum is 200 characters)');
    assert.strictEqual(await asked[3].validateInput?.('Printing a number'), undefined, 'the reason goes once the title changes');
    assert.ok(asked[4].prompt?.startsWith("Comment can't be blank"), `the comment's reason: ${asked[4].prompt}`);
    assert.strictEqual(await asked[5].validateInput?.('ruby'), undefined, 'nothing was wrong with the tags');

    const shown = await inCodeView('Printing a number');
    assert.strictEqual(shown.code, code);
    assert.strictEqual(await firstRecent(), 'Printing a number');
  });

  it('asks for the language when the document\'s has none at the service', async () => {
    await signInAsAna();
    const code = await select('main = print (sum [1..10])\n', 'plaintext', 0, 0);
    const { asked, confirmed } = await (await api()).runAnswering(Commands.shareSelection, { inputs: ['Haskell', 'Sum of one to ten', 'A range summed.', ''] });
    assert.strictEqual(asked[0].title, 'Language of the Shared Code');
    assert.strictEqual(asked[0].placeHolder, `${host} has no language for plaintext: pick the code's language`);
    assert.ok(confirmed[0]?.includes('\nLanguage: Haskell\nTags: none\nCode: 1 line\n'), confirmed[0]);
    const shown = await inCodeView('Sum of one to ten');
    assert.strictEqual(shown.language, 'Haskell');
    assert.strictEqual(shown.code, code);
  });

  it('from the walkthrough\'s button, with no text editor active, shares the selection of the editor used last', async function () {
    const ui = uiOrSkip(this);
    await signInAsAna();
    const code = await select('x = 1\ny = 2\nputs x + y\n', 'ruby', 1, 2);
    await openWalkthrough('share');
    const button = walkthroughButton('Share Selection as Code…');
    // Answered while the command the click started runs: until the code view shows the new code, or
    // the command has given up (what it said, below, says why).
    const { said, confirmed } = await (await api()).runAnswering(async () => {
      await ui.click(button);
      await inCodeView('Adding two numbers').catch(() => undefined);
    }, { inputs: ['Adding two numbers', 'Why not one line?', ''] });
    assert.deepStrictEqual(said, []);
    assert.ok(confirmed[0]?.includes('\nLanguage: Ruby\nTags: none\nCode: 2 lines\n'), confirmed[0]);
    assert.strictEqual((await inCodeView('Adding two numbers')).code, code, 'the selection, verbatim');
  });

  it('with no text editor open, says to select the code in one', async () => {
    await signInAsAna();
    await closeAllEditors();
    await openWalkthrough('share');
    const { asked, said } = await (await api()).runAnswering(Commands.shareSelection, { inputs: [] });
    assert.deepStrictEqual(said, ['Select the code to share in an editor first.']);
    assert.deepStrictEqual(asked, []);
  });

  it('sends nothing when the preview is not confirmed', async () => {
    await signInAsAna();
    await select('a = 1\n', 'ruby', 0, 0);
    const { confirmed } = await (await api()).runAnswering(Commands.shareSelection, { inputs: ['Never sent', 'No.', ''], send: false });
    assert.strictEqual(confirmed.length, 1);
    assert.notStrictEqual(await firstRecent(), 'Never sent');
  });

  it('signed out, offers Sign In and then shares; on the built-in sample catalog it says that takes no contributions', async () => {
    await select('echo hi\n', 'shellscript', 0, 0);
    const declined = await (await api()).runAnswering(Commands.shareSelection, { inputs: [] });
    assert.deepStrictEqual(declined.said, [`Sign in to ${host} to share code there.`]);
    assert.deepStrictEqual(declined.asked, []);

    const { asked, said } = await (await api()).runAnswering(Commands.shareSelection, { inputs: [token, 'Saying hi', 'Greets.', ''], button: 'Sign In…' });
    assert.strictEqual(asked[0].password, true, 'the token is asked for as Sign In asks');
    assert.deepStrictEqual(said, [`Sign in to ${host} to share code there.`, `Signed in to ${host} as Ana Lima.`]);
    assert.strictEqual((await inCodeView('Saying hi')).language, 'Bash');

    await useSettings({ baseUrl: undefined });
    await select('echo hi\n', 'shellscript', 0, 0);
    const sample = await (await api()).runAnswering(Commands.shareSelection, { inputs: [] });
    assert.strictEqual(sample.said.length, 1);
    assert.match(sample.said[0], /built-in sample catalog takes no contributions/);
    assert.deepStrictEqual(sample.asked, []);
  });
});
