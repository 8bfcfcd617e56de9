// "Is this an http(s) URL" has one answer (src/core/httpUrl.ts), and every place that asks gives it:
// the base address, a pasted code page URL, the page a write made, the code view's links, a tool's
// code input, the service's links to a website and the command line's --base-url. A caller with a
// pattern of its own once refused `http:host/codes/42`, an address the base URL took.
import * as assert from 'node:assert/strict';
import { httpUrl, isHttpUrl, schemeOf } from '../../../src/core/httpUrl';
import { normalizeBaseUrl, parseCodeRef } from '../../../src/client/urls';
import { createdPage } from '../../../src/client/writes';
import { readCodeInput } from '../../../src/agents/tools';
import { parseCommandLine } from '../../../src/cli/args';
import { parseToExtension } from '../../../src/protocol/codeView';
import { parseDataset } from '../../../src/server/catalog/dataset';
import { inProcessFetch } from '../../../src/server/http/fetchHandler';

const HTTP = ['https://h.example', 'http://h.example', 'HTTPS://H.EXAMPLE', 'http:h.example', 'http:/h.example', ' https://h.example'];
const NOT_HTTP = ['ftp://h.example', 'javascript:alert(1)//h.example', 'file:///h.example', 'vscode://h.example', 'mailto:a@h.example', 'not a url', 'h.example', 'https://'];

/** What each caller says of `url`: true where it took it for an http(s) URL. */
async function answers(url: string): Promise<Record<string, boolean>> {
  const accepts = (f: () => unknown): boolean => {
    try {
      f();
      return true;
    } catch {
      return false;
    }
  };
  const page = `${url}/codes/42`;
  const website = await inProcessFetch(parseDataset({
    users: [{ id: 1, name: 'Ada', identityUrl: '', rating: 0, website: url }],
    codes: [{ id: 1, title: 'Only code', language: 'Ruby', userId: 1, createdAt: '2008-03-14T09:26:53+01:00', updatedAt: '2008-03-14T09:26:53+01:00', code: 'x = 1' }],
    refactors: [],
  }, 'one.json'))(new URL('http://pages.test/codes/1'));
  const tool = readCodeInput({ code: page }, 'http://other.example/');
  return {
    'the base address': accepts(() => normalizeBaseUrl(url)),
    'a pasted code page URL': parseCodeRef(page) === '42',
    'the page a write made': createdPage('/codes/42', url, 'fallback') !== 'fallback',
    'a code view link': parseToExtension({ type: 'openExternal', url }) !== undefined,
    'a tool\'s code input': !tool.ok && /is not a page of/.test(tool.error),
    'the service\'s link to a website': (await website.text()).includes('rel="nofollow noopener">Ada</a>'),
    '--base-url': accepts(() => parseCommandLine(['search', 'x', '--base-url', url], {})),
  };
}

describe('http(s) URLs: one answer for every caller', () => {
  it('takes http: and https: URLs as the URL parser reads them, and nothing else', () => {
    for (const url of HTTP) assert.ok(isHttpUrl(url) && httpUrl(url) !== undefined, url);
    for (const url of NOT_HTTP) assert.ok(!isHttpUrl(url) && httpUrl(url) === undefined, url);
    assert.equal(httpUrl('http:h.example/a')?.href, 'http://h.example/a');
    assert.equal(isHttpUrl(undefined), false);
    assert.equal(isHttpUrl(42), false);
  });

  it('resolves a relative URL against a base, and refuses one whose result is another scheme', () => {
    assert.equal(httpUrl('/codes/7', 'https://h.example/api/')?.href, 'https://h.example/codes/7');
    assert.equal(httpUrl('ftp://x/', 'https://h.example/'), undefined);
    assert.equal(httpUrl('/codes/7', 'not a url'), undefined);
  });

  it('names the scheme of what it refuses, for the messages that say why', () => {
    assert.equal(schemeOf('ftp://h.example/'), 'ftp');
    assert.equal(schemeOf('not a url'), undefined);
  });

  it('gives every caller the same answer for the same text', async () => {
    for (const url of [...HTTP, ...NOT_HTTP]) {
      const expected = isHttpUrl(url);
      const said = await answers(url);
      for (const [caller, took] of Object.entries(said)) assert.equal(took, expected, `${caller} on "${url}"`);
    }
  });
});
