// code-server's install compiles native modules (test/runners/codeServerInstall.ts rebuildNative).
// On a fresh machine node-gyp would download Node's headers from nodejs.org although the Node that
// runs it has them beside it (Debian's nodejs: /usr/include/node), and fail where only the npm
// registry is reachable. Run for real: a one-file addon rebuilt with an empty HOME (no npmrc, no
// node-gyp cache) and any download of headers pointed at an address nothing answers.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { nodeHeadersDir, rebuildNative } from '../../runners/codeServerInstall';

describe('code-server install: native modules compile against the running Node, nothing downloaded', function () {
  this.timeout(120_000);
  let root: string;
  const saved = { ...process.env };
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-native-'));
  });
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('rebuilds a native module with an empty home folder and no way to download headers', async function () {
    try {
      nodeHeadersDir();
    } catch {
      this.skip(); // no headers here: the next case covers what the install then says
    }
    const home = path.join(root, 'home');
    const addon = path.join(root, 'project', 'node_modules', 'tiny-addon');
    fs.mkdirSync(home, { recursive: true });
    fs.mkdirSync(addon, { recursive: true });
    fs.writeFileSync(path.join(root, 'project', 'package.json'), JSON.stringify({ private: true, dependencies: { 'tiny-addon': '1.0.0' } }));
    fs.writeFileSync(path.join(addon, 'package.json'), JSON.stringify({ name: 'tiny-addon', version: '1.0.0', main: 'build/Release/tiny.node' }));
    fs.writeFileSync(path.join(addon, 'binding.gyp'), JSON.stringify({ targets: [{ target_name: 'tiny', sources: ['tiny.c'] }] }));
    fs.writeFileSync(path.join(addon, 'tiny.c'), `#include <node_api.h>
static napi_value answer(napi_env env, napi_callback_info info) {
  napi_value n;
  napi_create_int32(env, 42, &n);
  return n;
}
NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "answer", NAPI_AUTO_LENGTH, answer, NULL, &fn);
  napi_set_named_property(env, exports, "answer", fn);
  return exports;
}
`);
    process.env.HOME = home;
    delete process.env.XDG_CACHE_HOME;
    delete process.env.npm_config_nodedir;
    process.env.NODEJS_ORG_MIRROR = 'http://127.0.0.1:9/';

    await rebuildNative(path.join(root, 'project'), ['tiny-addon']);

    const built = path.join(addon, 'build', 'Release', 'tiny.node');
    assert.ok(fs.existsSync(built), 'the addon was compiled');
    const loaded = { exports: {} as { answer(): number } };
    process.dlopen(loaded, built);
    assert.equal(loaded.exports.answer(), 42);
    assert.deepEqual(fs.readdirSync(home).filter((f) => f !== '.npm'), [], 'no node-gyp header cache was made in HOME');
  });

  it('without headers beside node, says so in one line instead of downloading them', () => {
    const fakeNode = path.join(root, 'bare', 'bin', 'node');
    fs.mkdirSync(path.dirname(fakeNode), { recursive: true });
    fs.writeFileSync(fakeNode, '');
    assert.throws(() => nodeHeadersDir(fakeNode), (err: Error) => {
      assert.equal(err.message.split('\n').length, 1);
      assert.match(err.message, new RegExp(`^the headers of this Node are missing \\(no ${path.join(root, 'bare', 'include', 'node', 'node.h')}\\)`));
      return true;
    });
  });
});
