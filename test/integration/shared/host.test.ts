// The suite checks where it ran. The launcher asks for an extension host (its run settings);
// this checks that the tests and the extension are really there. In the browser's web worker host:
// no Node `process`, a worker's globals, VS Code's UI kind Web, the extension run beside the UI (from
// its `browser` entry: one with only a `main` would quietly run in the Node host instead), and its
// requests made by the browser, which sends an Origin and its own User-Agent. In the Node host, the
// opposite: Node's process, and the extension's own User-Agent with no Origin.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { expectedHost } from '../bridgeClient';
import { api, extension, resetState } from '../helpers';
import { items, useFrontedService } from '../catalogHelpers';

describe('Where the suite runs', function () {
  this.timeout(30_000);
  beforeEach(resetState);
  after(resetState);

  it('runs in the extension host the launcher asked for, and the extension runs and fetches there too', async () => {
    const served = await useFrontedService({});
    try {
      assert.strictEqual(items(await (await api()).treeRows(['Recent Codes'])).length, 25);
      const request = (await served.front.requests()).find((r) => r.path === '/codes/recent.xml');
      assert.ok(request, 'the extension asked the front server for Recent Codes');
      if (expectedHost() === 'web') {
        assert.strictEqual(typeof process, 'undefined', 'no Node process in a web worker');
        assert.strictEqual(typeof (globalThis as { importScripts?: unknown }).importScripts, 'function', "a worker's globals");
        assert.strictEqual(vscode.env.uiKind, vscode.UIKind.Web);
        assert.strictEqual(extension().extensionKind, vscode.ExtensionKind.UI, 'the extension runs beside the UI, from its browser entry');
        assert.ok(request.origin, `the browser made the request (it sends an Origin): ${JSON.stringify(request)}`);
        assert.ok(!request.userAgent?.startsWith('refactor-browser/'), `the browser's own User-Agent: ${request.userAgent}`);
      } else {
        assert.strictEqual(typeof process, 'object');
        assert.ok(process.versions.node, 'Node');
        assert.strictEqual(request.origin, null, `Node's fetch sends no Origin: ${JSON.stringify(request)}`);
        assert.match(request.userAgent ?? '', /^refactor-browser\//);
      }
    } finally {
      await resetState();
      await served.close();
    }
  });
});
