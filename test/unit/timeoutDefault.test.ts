// The default deadline, wherever a user meets it: the client, the CLI's parsed default
// and its help text, and the extension's setting. Waiting 15 s for a timeout would prove it too slowly;
// these say the same number in every place, so changing one place alone fails here. The same for the
// setting's maximum, which package.json states and the extension applies.

import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { RefactorClient } from '../../src/client/client';
import { DEFAULT_TIMEOUT_MS } from '../../src/client/http';
import { parseCommandLine } from '../../src/cli/args';
import { helpText } from '../../src/cli/help';
import { MAX_TIMEOUT_SECONDS } from '../../src/extension/common/settingBounds';

const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, { default?: unknown; maximum?: unknown }> } };
};

describe('the default deadline', () => {
  it('is 15 s for the transport and for a RefactorClient made without timeoutMs', async () => {
    assert.equal(DEFAULT_TIMEOUT_MS, 15_000);
    const plain = new RefactorClient({ baseUrl: 'http://127.0.0.1:9/' });
    const given = new RefactorClient({ baseUrl: 'http://127.0.0.1:9/', timeoutMs: 2500 });
    try {
      assert.equal(plain.timeoutMs, 15_000);
      assert.equal(given.timeoutMs, 2500);
    } finally {
      await plain.close();
      await given.close();
    }
  });

  it('is 15 s in the CLI without --timeout, and its help says so', () => {
    for (const argv of [['recent'], ['show', '42']]) {
      const command = parseCommandLine(argv, {});
      assert.ok('global' in command);
      assert.equal(command.global.timeoutSeconds, 15, argv.join(' '));
    }
    const withOption = parseCommandLine(['popular', '--timeout', '2.5'], {});
    assert.ok('global' in withOption);
    assert.equal(withOption.global.timeoutSeconds, 2.5);
    for (const topic of [undefined, 'recent', 'show']) {
      assert.match(helpText(topic) ?? '', /^ {2}--timeout SECONDS {2}give a request up after this long \(default 15\)$/m, String(topic));
    }
  });

  it('is 15 s in the extension setting refactorBrowser.requestTimeout (seconds)', () => {
    assert.equal(pkg.contributes.configuration.properties['refactorBrowser.requestTimeout'].default, DEFAULT_TIMEOUT_MS / 1000);
  });

  it('is at most 300 s in the extension setting, as package.json says and the extension applies', () => {
    assert.equal(MAX_TIMEOUT_SECONDS, 300);
    assert.equal(pkg.contributes.configuration.properties['refactorBrowser.requestTimeout'].maximum, MAX_TIMEOUT_SECONDS);
  });
});
