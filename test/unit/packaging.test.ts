// Issue 5, point 8: what the .vsix holds, as vsce lists it under .vscodeignore: the bundles the
// manifest names, the media, the README; no sources, tests or node_modules. Also that the
// extension bundle is self-contained (nothing but `vscode` left to require at run time).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

describe('packaging', function () {
  this.timeout(60_000);

  it('packs the bundles, media and README only', function () {
    const vsce = path.join(root, 'node_modules/@vscode/vsce/vsce');
    if (!existsSync(vsce)) this.skip();
    const files = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8', timeout: 45_000 })
      .split('\n').map((l) => l.trim()).filter(Boolean);
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { main: string; browser: string; bin: Record<string, string> };
    for (const needed of [pkg.main, pkg.browser, ...Object.values(pkg.bin), 'dist/webview.js', 'dist/sample-catalog.json', 'package.json', 'README.md', 'media/icon-activitybar.svg', 'media/codeView.css']) {
      assert.ok(files.includes(needed.replace(/^\.\//, '')), `${needed} missing from ${files.join(', ')}`);
    }
    const stray = files.filter((f) => /^(src|test|out|node_modules|\.)|\.map$|\.ts$|\.vsix$/.test(f));
    assert.deepEqual(stray, []);
    assert.ok(files.length < 30, `${files.length} files`);
  });

  it('bundles every dependency into dist/extension.js', function () {
    const bundle = path.join(root, 'dist/extension.js');
    if (!existsSync(bundle)) this.skip();
    const required = [...readFileSync(bundle, 'utf8').matchAll(/\brequire\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    const outside = [...new Set(required)].filter((m) => m !== 'vscode' && !m.startsWith('node:') && !builtinModules.includes(m.split('/')[0]));
    assert.deepEqual(outside, []);
  });

  it('bundles the browser entry with nothing to require but vscode: no Node module, no undici', function () {
    const bundle = path.join(root, 'dist/web/extension.js');
    if (!existsSync(bundle)) this.skip();
    const text = readFileSync(bundle, 'utf8');
    const required = [...new Set([...text.matchAll(/\brequire\(["']([^"']+)["']\)/g)].map((m) => m[1]))];
    assert.deepEqual(required, ['vscode']);
    assert.doesNotMatch(text, /undici/);
  });
});

