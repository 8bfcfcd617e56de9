// What a person gets from the two packages, as the packagers list them. The .vsix (vsce ls, under
// .vscodeignore): the manifest's bundles, the sample catalog, the icons, the README with exactly the
// screenshots it shows, the CHANGELOG; no command line, sources, maps or tests. The npm package (npm
// pack, under .npmignore): the command line, which runs, and its documents, nothing else. The
// manifest's marketplace fields and settings. And that the extension bundles are self-contained
// (nothing but `vscode` left to require at run time).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { SERVICE_LANGUAGES } from '../../src/api/languages';
import { localizedManifest } from './helpers/manifest';

const root = path.resolve(__dirname, '../../..');

interface Setting {
  type: string;
  order?: number;
  scope?: string;
  default: unknown;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  items?: { type: string; minLength?: number };
  uniqueItems?: boolean;
  enum?: unknown[];
  enumDescriptions?: string[];
  enumItemLabels?: string[];
}

interface Manifest {
  main: string;
  browser: string;
  bin: Record<string, string>;
  icon: string;
  categories: string[];
  keywords: string[];
  repository: { type: string; url: string };
  homepage: string;
  bugs: { url: string };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
  contributes: { configuration: { properties: Record<string, Setting> } };
}

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;

/** A manifest path as the packagers list it: relative, without './'. */
const listed = (file: string): string => path.posix.normalize(file);

/** The media/screenshots/ images the README shows. */
function readmeScreenshots(): string[] {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  return [...new Set([...readme.matchAll(/\]\((media\/screenshots\/[^)\s]+)\)|src="(media\/screenshots\/[^"]+)"/g)].map((m) => m[1] ?? m[2]))].sort();
}

function vsceLs(): string[] {
  const vsce = path.join(root, 'node_modules/@vscode/vsce/vsce');
  return execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8', timeout: 45_000 })
    .split('\n').map((l) => l.trim()).filter(Boolean);
}

/** The npm package's files, as `npm pack` would pack them (its prepack build left out). */
function npmPackFiles(): string[] {
  // Under `npm run`, the npm that runs us; else the one on PATH.
  const npmCli = process.env.npm_execpath;
  const [cmd, args] = npmCli && npmCli.endsWith('.js') ? [process.execPath, [npmCli]] : ['npm', []];
  const out = execFileSync(cmd, [...args, 'pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root, encoding: 'utf8', timeout: 45_000, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [report] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
  return report.files.map((f) => f.path).sort();
}

/** Width and height from a PNG's IHDR chunk, which the format puts first. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${file} is not a PNG`);
  assert.equal(bytes.toString('latin1', 12, 16), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('packaging', function () {
  this.timeout(60_000);

  describe('the .vsix', () => {
    before(function () {
      if (!existsSync(path.join(root, 'node_modules/@vscode/vsce/vsce'))) this.skip();
    });

    it('holds the bundles the manifest names, the sample catalog, the icons, the README and the CHANGELOG, and no command line, sources or maps', function () {
      if (!existsSync(path.join(root, 'dist/extension.js'))) this.skip(); // vsce lists what is on disk: build first
      const files = vsceLs();
      for (const needed of [pkg.main, pkg.browser, 'dist/webview.js', 'dist/sample-catalog.json', 'package.json', 'README.md',
        'CHANGELOG.md', 'LICENSE', pkg.icon, 'media/icon-activitybar.svg', 'media/codeView.css']) {
        assert.ok(files.includes(listed(needed)), `${needed} missing from ${files.join(', ')}`);
      }
      // The command line ships in the npm package.
      for (const bin of Object.values(pkg.bin)) assert.ok(!files.includes(listed(bin)), `${bin} is in the .vsix`);
      const stray = files.filter((f) => /^(src|test|out|node_modules|scripts|bench|docs|\.)|\/\.|\.map$|\.ts$|\.vsix$|\.svg$/.test(f) && f !== 'media/icon-activitybar.svg');
      assert.deepEqual(stray, []);
      assert.ok(files.length < 30, `${files.length} files`);
    });

    it('holds the screenshots the README shows and no other file of media/screenshots/, whatever the UI tests left there', () => {
      const shown = readmeScreenshots();
      assert.ok(shown.length > 0, 'the README shows no screenshot');
      for (const s of shown) assert.ok(existsSync(path.join(root, s)), `the README shows ${s}, which does not exist`);
      // A debug screenshot as a UI test writes one, for as long as vsce lists the files.
      const stray = path.join(root, 'media/screenshots', `debug-packaging-test-${process.pid}.png`);
      writeFileSync(stray, readFileSync(path.join(root, shown[0])));
      try {
        assert.deepEqual(vsceLs().filter((f) => f.startsWith('media/screenshots/')).sort(), shown);
      } finally {
        rmSync(stray, { force: true });
      }
    });
  });

  describe('the npm package', () => {
    let files: string[];
    before(function () {
      try {
        files = npmPackFiles();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') this.skip(); // no npm here
        throw err;
      }
    });

    it('is the command line with its README, CHANGELOG and LICENSE, and nothing else: no extension bundles, sources or tests', () => {
      assert.deepEqual(files, ['CHANGELOG.md', 'LICENSE', 'README.md', ...Object.values(pkg.bin).map(listed), 'package.json'].sort());
    });

    it('holds a command line that runs: each bin a node script that prints its help', function () {
      for (const [name, file] of Object.entries(pkg.bin)) {
        assert.ok(files.includes(listed(file)), `${name}: ${file} is not packed`);
        const script = path.join(root, file);
        if (!existsSync(script)) this.skip(); // built by npm's prepack, and by test:unit
        assert.match(readFileSync(script, 'utf8'), /^#!\/usr\/bin\/env node\n/, `${file} starts with a node shebang`);
        const help = execFileSync(process.execPath, [script, '--help'], { encoding: 'utf8', timeout: 20_000 });
        assert.match(help, new RegExp(`\\b${name}\\b`));
      }
    });
  });

  describe('the manifest', () => {
    it('has the marketplace categories and keywords', () => {
      assert.deepEqual(pkg.categories, ['Snippets', 'Other']);
      assert.ok(pkg.keywords.length > 0 && pkg.keywords.length <= 30, 'the Marketplace takes at most 30 keywords');
      assert.ok(pkg.keywords.every((k) => typeof k === 'string' && k.trim() === k && k !== ''));
      assert.equal(new Set(pkg.keywords).size, pkg.keywords.length);
    });

    it('links the repository, its issues and its README: the Marketplace\'s and npm\'s links, and where vsce points relative links', () => {
      assert.equal(pkg.repository.type, 'git');
      const repo = /^https:\/\/github\.com\/([\w.-]+\/[\w.-]+?)(\.git)?$/.exec(pkg.repository.url);
      assert.ok(repo, `a GitHub https URL: ${pkg.repository.url}`);
      const web = `https://github.com/${repo[1]}`;
      assert.equal(pkg.bugs.url, `${web}/issues`);
      assert.equal(pkg.homepage, `${web}#readme`);
    });

    it('offers the service\'s languages, from the one table, as the language setting\'s values, with All Languages first', () => {
      const english = localizedManifest<Manifest>();
      const setting = english.contributes.configuration.properties['refactorBrowser.language'];
      assert.deepEqual(setting.enum, ['', ...SERVICE_LANGUAGES]);
      assert.equal(setting.default, '');
      // The settings editor lists the labels; the empty value reads "All Languages", as the filter's quick pick says.
      assert.deepEqual(setting.enumItemLabels, ['All Languages', ...SERVICE_LANGUAGES]);
      assert.equal(setting.enumDescriptions?.length, setting.enum.length);
      assert.deepEqual(setting.enumDescriptions?.slice(1), SERVICE_LANGUAGES);
    });

    it('lists the settings in reading order, each with a scope that user, remote and workspace settings can set', () => {
      const settings = pkg.contributes.configuration.properties;
      const byOrder = Object.entries(settings).sort(([, a], [, b]) => (a.order ?? Infinity) - (b.order ?? Infinity)).map(([key]) => key);
      assert.deepEqual(byOrder, ['baseUrl', 'language', 'followEditorLanguage', 'tags', 'requestTimeout', 'refactoringOrder'].map((k) => `refactorBrowser.${k}`));
      assert.equal(new Set(Object.values(settings).map((s) => s.order)).size, byOrder.length, 'one order per setting');
      for (const [key, setting] of Object.entries(settings)) {
        // Not machine or machine-overridable: a user setting would neither apply in remote windows nor
        // sync. Not application or machine: a workspace could not set it (Restricted Mode leaves out a
        // folder's baseUrl until it is trusted instead).
        assert.ok(['window', 'resource', 'language-overridable'].includes(setting.scope ?? ''), `${key}: scope ${setting.scope}`);
      }
      assert.deepEqual(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations, ['refactorBrowser.baseUrl']);
    });

    it('bounds the settings: numbers between a minimum and a maximum, tags non-empty and distinct, a base URL empty or http(s), choices described', () => {
      for (const [key, setting] of Object.entries(pkg.contributes.configuration.properties)) {
        if (setting.enum) {
          assert.ok(setting.enum.includes(setting.default), `${key}'s default is one of its values`);
          assert.equal(setting.enumDescriptions?.length, setting.enum.length, `${key}: a description per value`);
        }
        if (setting.type === 'number' || setting.type === 'integer') {
          assert.ok(setting.minimum !== undefined && setting.maximum !== undefined, `${key} has bounds`);
          assert.ok(setting.minimum <= (setting.default as number) && (setting.default as number) <= setting.maximum, `${key}'s default within its bounds`);
        }
        if (setting.type === 'array' && setting.items?.type === 'string') {
          assert.ok((setting.items.minLength ?? 0) >= 1, `${key}: no empty item`);
          assert.equal(setting.uniqueItems, true, `${key}: no item twice`);
        }
      }
      assert.ok((pkg.contributes.configuration.properties['refactorBrowser.requestTimeout'].minimum ?? 0) > 0, 'a timeout of 0 would fail every request');
      // VS Code's settings editor reads `pattern` as a JavaScript regular expression.
      const pattern = new RegExp(pkg.contributes.configuration.properties['refactorBrowser.baseUrl'].pattern ?? '', 'u');
      for (const ok of ['', 'http://127.0.0.1:3000', 'https://refactor.example.org/api/', 'HTTPS://refactor.example.org', ' http://h/ ']) {
        assert.match(ok, pattern);
      }
      for (const bad of ['refactor.example.org', 'ftp://example.org/', 'http://', 'file:///etc/passwd']) assert.doesNotMatch(bad, pattern);
    });

    it('names a 128×128 PNG icon', () => {
      assert.match(pkg.icon, /\.png$/);
      assert.deepEqual(pngSize(path.join(root, pkg.icon)), { width: 128, height: 128 });
    });
  });

  describe('the bundles', () => {
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

    it('leaves the test API out of the packaging build\'s bundles, and keeps it in the test build\'s', function () {
      this.timeout(120_000);
      /** The extension's two bundles as `node esbuild.config.mjs <args>` writes them, into a folder of their own. */
      const build = (...args: string[]): string[] => {
        const out = mkdtempSync(path.join(tmpdir(), 'refactor-browser-bundles-'));
        try {
          execFileSync(process.execPath, ['esbuild.config.mjs', ...args, '--out', out], { cwd: root, timeout: 90_000, stdio: 'pipe' });
          return ['extension.js', 'web/extension.js'].map((f) => readFileSync(path.join(out, f), 'utf8'));
        } finally {
          rmSync(out, { recursive: true, force: true });
        }
      };
      // Names of the test API's methods: object keys, which minifying keeps.
      const testApi = /\bforgetStarredCopy\b|\brestoreCodeView\b|\bcodeViewMessage\b/;
      for (const bundle of build('--minify')) assert.doesNotMatch(bundle, testApi);
      for (const bundle of build()) assert.match(bundle, testApi);
    });
  });
});
