// What a person gets from the two packages, as the packagers list them. The .vsix (vsce ls, under
// .vscodeignore): the manifest's bundles, the sample catalog, the icons, the walkthrough's pages in each
// language, the README (no screenshots: it shows the repository's) with links that lead somewhere once
// vsce has rewritten them, the CHANGELOG, the licences of what the bundles contain; no command line,
// sources, maps or tests. The npm package (staged by scripts/npmPackage.mjs, listed by npm pack): the
// command line, which runs from a copy outside this tree, its own README and notices, and a manifest
// with no `main` or dependency it does not ship. The manifest's marketplace fields and settings; that
// the bundles are self-contained; and that the README keeps CI's set-up commands and CONTRIBUTING.md
// links every page of docs/.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SERVICE_LANGUAGES } from '../../src/core/languages';
import { parseCommandLine } from '../../src/cli/args';
import { installedPgliteVersion } from '../../src/server/sql/preparedDataDir';
import { GRAMMAR_ASSETS } from '../../src/similarity/grammars';
import { localizedManifest } from '../helpers/manifest';

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
  name: string;
  version: string;
  license: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
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
  contributes: { configuration: { properties: Record<string, Setting> }; walkthroughs: Array<{ steps: Array<{ media: { markdown?: string } }> }> };
}

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;

/** A manifest path as the packagers list it: relative, without './'. */
const listed = (file: string): string => path.posix.normalize(file);

/**
 * The Markdown pages the walkthrough shows, each with its translation for every language package.json
 * is translated into (`page.nls.<language>.md`, which VS Code shows in that language).
 */
function walkthroughPages(): string[] {
  const languages = readdirSync(root).map((f) => /^package\.nls\.([\w-]+)\.json$/.exec(f)?.[1]).filter((l): l is string => l !== undefined);
  const pages = pkg.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.markdown)).filter((p): p is string => p !== undefined);
  return pages.flatMap((p) => [p, ...languages.map((l) => p.replace(/\.md$/, `.nls.${l}.md`))]).map(listed).sort();
}

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

/** npm: under `npm run`, the npm that runs us; else the one on PATH. */
function npm(args: string[], cwd = root): string {
  const npmCli = process.env.npm_execpath;
  const [cmd, pre] = npmCli && npmCli.endsWith('.js') ? [process.execPath, [npmCli]] : ['npm', []];
  return execFileSync(cmd, [...pre, ...args], { cwd, encoding: 'utf8', timeout: 45_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The staged npm package (scripts/npmPackage.mjs, as `npm run package:cli` runs it) and its files as `npm pack` packs them. */
function stagedNpmPackage(): { folder: string; files: string[] } {
  execFileSync(process.execPath, ['scripts/npmPackage.mjs'], { cwd: root, encoding: 'utf8', timeout: 20_000 });
  const folder = path.join(root, 'dist/npm');
  const [report] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts', folder])) as Array<{ files: Array<{ path: string }> }>;
  return { folder, files: report.files.map((f) => f.path).sort() };
}

/** The package a bundle's input file belongs to (`…/node_modules/@scope/name/…`), or undefined for our sources. */
function packageDirOf(source: string): string | undefined {
  const parts = source.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at === -1) return undefined;
  return parts.slice(0, at + (parts[at + 1].startsWith('@') ? 3 : 2)).join('/');
}

/** What a bundle contains, by its source map (written beside the test build): each package's folder. */
function bundledPackageDirs(bundle: string): string[] | undefined {
  const sources = bundledSources(bundle);
  return sources && [...new Set(sources.map((s) => packageDirOf(path.join(root, s))).filter((d): d is string => d !== undefined))];
}

/** The files `bundle` was built from, relative to the project (from its source map), or undefined when it has no fresh map. */
function bundledSources(bundle: string): string[] | undefined {
  const map = path.join(root, `${bundle}.map`);
  // A packaging build minifies without maps: a map older than its bundle no longer tells.
  if (!existsSync(map) || statSync(map).mtimeMs < statSync(path.join(root, bundle)).mtimeMs - 1000) return undefined;
  const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
  return sources.map((s) => path.relative(root, path.resolve(path.dirname(map), s)).split(path.sep).join('/'));
}

/**
 * Run as `node -e MCP_INITIALIZE CLI`: starts `CLI mcp`, sends an initialize, prints the first line
 * it answers and closes its stdin.
 */
const MCP_INITIALIZE = `
const child = require('node:child_process').spawn(process.execPath, [process.argv[1], 'mcp'], { stdio: ['pipe', 'pipe', 'ignore'] });
let out = '';
child.stdout.setEncoding('utf8').on('data', (d) => {
  out += d;
  if (out.includes('\\n')) { process.stdout.write(out.split('\\n')[0]); child.stdin.end(); }
});
child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'packaging-test', version: '1' } } }) + '\\n');
`;

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
        'CHANGELOG.md', 'LICENSE', 'ThirdPartyNotices.txt', pkg.icon, 'media/icon-activitybar.svg', 'media/codeView.css']) {
        assert.ok(files.includes(listed(needed)), `${needed} missing from ${files.join(', ')}`);
      }
      // The command line ships in the npm package.
      for (const bin of Object.values(pkg.bin)) assert.ok(!files.includes(listed(bin)), `${bin} is in the .vsix`);
      const stray = files.filter((f) => /^(src|test|out|node_modules|scripts|bench|docs|\.)|\/\.|\.map$|\.ts$|\.vsix$|\.svg$/.test(f) && f !== 'media/icon-activitybar.svg');
      assert.deepEqual(stray, []);
      // What the Node host loads on first use (the similarity feature and the language model tools'
      // answers), the parser and eight grammars besides.
      assert.ok(files.includes('dist/similarity.js') && files.includes('dist/agents.js'), files.join(', '));
      assert.equal(files.filter((f) => f.startsWith('dist/tree-sitter/')).length, GRAMMAR_ASSETS.length, files.join(', '));
      assert.ok(files.length < 30 + 2 + GRAMMAR_ASSETS.length + walkthroughPages().length, `${files.length} files`);
    });

    it('holds no screenshot: the README it carries shows the repository\'s copies, which exist and git tracks', function () {
      if (!existsSync(path.join(root, 'dist/extension.js'))) this.skip(); // vsce lists what is on disk: build first
      const shown = readmeScreenshots();
      assert.ok(shown.length > 0, 'the README shows no screenshot');
      const tracked = new Set(execFileSync('git', ['ls-files', 'media/screenshots'], { cwd: root, encoding: 'utf8' }).split('\n'));
      for (const s of shown) assert.ok(tracked.has(s), `the README shows ${s}, which git does not track, so its rewritten link leads nowhere`);
      // vsce rewrites the README's images to the repository's URLs (checked below), so copies in the
      // .vsix would only make every install bigger.
      assert.deepEqual(vsceLs().filter((f) => f.startsWith('media/screenshots/')), []);
    });

    it('holds the walkthrough\'s Markdown pages, each in every language, and no other file of media/walkthrough/', () => {
      const pages = walkthroughPages();
      assert.ok(pages.length >= 10, `${pages.length} pages: five steps, in English and German`);
      for (const page of pages) assert.ok(existsSync(path.join(root, page)), `${page} does not exist`);
      assert.deepEqual(vsceLs().filter((f) => f.startsWith('media/walkthrough/')).sort(), pages);
    });

    it('has a README and CHANGELOG whose links, as `npm run package` rewrites them, lead to files of this repository, its headings or the web', async () => {
      // vsce's own rewriting, with the options the package script gives it.
      const vsce = (await import(path.join(root, 'node_modules/@vscode/vsce/out/package'))) as {
        ReadmeProcessor: new (m: unknown, o: object) => { processFile(f: object): Promise<{ contents: string | Buffer }> };
        ChangelogProcessor: new (m: unknown, o: object) => { processFile(f: object): Promise<{ contents: string | Buffer }> };
      };
      const script = pkg.scripts.package;
      assert.doesNotMatch(script, /--allow-missing-repository|--no-rewrite-relative-links/, 'vsce checks what it normally checks');
      const options = { gitHubIssueLinking: !script.includes('--no-gitHubIssueLinking'), rewriteRelativeLinks: true };
      const tracked = new Set(execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n'));
      const web = pkg.repository.url.replace(/\.git$/, '');
      for (const [Processor, file] of [[vsce.ReadmeProcessor, 'README.md'], [vsce.ChangelogProcessor, 'CHANGELOG.md']] as const) {
        const processed = await new Processor(pkg, options).processFile({ path: `extension/${file.toLowerCase()}`, localPath: path.join(root, file) });
        const contents = String(processed.contents);
        const headings = new Set([...contents.matchAll(/^#+ (.+)$/gm)].map((m) => m[1].trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-')));
        const links = [...contents.matchAll(/\]\(([^)\s]+)\)|<(?:img|a)\b[^>]*(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
        assert.ok(links.length > 0, `${file} has links`);
        for (const link of links) {
          if (link.startsWith('#')) {
            assert.ok(headings.has(link.slice(1)), `${file}: ${link} names no heading`);
            continue;
          }
          assert.match(link, /^https:\/\//, `${file}: ${link} is not absolute https, so it breaks in the Marketplace`);
          if (!link.startsWith(`${web}/`)) continue;
          const inRepo = /^\/(?:blob|raw)\/HEAD\/([^#?]+)/.exec(link.slice(web.length));
          assert.ok(inRepo, `${file}: ${link} is a link into the repository that is neither a file nor an image (an issue?)`);
          assert.ok(tracked.has(inRepo[1]), `${file}: ${link} names ${inRepo[1]}, which git does not track`);
        }
      }
    });
  });

  describe('the npm package', () => {
    let staged: { folder: string; files: string[] };
    before(function () {
      // Staged from the build: dist/cli.js and the notices beside it.
      if (!existsSync(path.join(root, 'dist/cli.js')) || !existsSync(path.join(root, 'ThirdPartyNotices.txt'))) this.skip();
      try {
        staged = stagedNpmPackage();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') this.skip(); // no npm here
        throw err;
      }
    });

    it('is the command line, its database\'s and its catalog reader\'s threads\' scripts and its MCP server\'s bundle with its README, CHANGELOG, LICENSE and third-party notices, the parser and grammars of `similar`, the prepared database of the PGlite it depends on, and nothing else', () => {
      const manifest = JSON.parse(readFileSync(path.join(staged.folder, 'package.json'), 'utf8')) as Partial<Manifest>;
      // Made by the build from the installed PGlite (scripts/pgliteDataDir.mjs), never kept in git.
      const prepared = `pglite-datadir/${installedPgliteVersion()}.tar.gz`;
      assert.deepEqual(staged.files, ['CHANGELOG.md', 'LICENSE', 'README.md', 'ThirdPartyNotices.txt', ...Object.values(manifest.bin ?? {}), 'catalogWorker.js', 'mcp.js', 'package.json', 'pgliteWorker.js',
        prepared, ...GRAMMAR_ASSETS.map((f) => `tree-sitter/${f}`)].sort());
      assert.equal(execFileSync('git', ['ls-files', 'dist', 'pglite-datadir'], { cwd: root, encoding: 'utf8' }), '', 'no prepared database in git');
    });

    it('has a manifest with the extension\'s name, version and links, its command in `bin`, the database drivers as its only dependencies, and no `main`, `browser` or script', () => {
      const manifest = JSON.parse(readFileSync(path.join(staged.folder, 'package.json'), 'utf8')) as Record<string, unknown>;
      for (const key of ['main', 'browser', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'scripts', 'private']) {
        assert.equal(manifest[key], undefined, key);
      }
      // Loaded (not bundled) by the storage commands, at the versions the repository tests.
      // PGlite exactly as installed here: the prepared database shipped beside the command is its.
      assert.deepEqual(manifest.dependencies, { '@electric-sql/pglite': installedPgliteVersion(), pg: pkg.devDependencies.pg });
      assert.deepEqual([manifest.name, manifest.version, manifest.license, manifest.repository, manifest.homepage, manifest.bugs],
        [pkg.name, pkg.version, pkg.license, pkg.repository, pkg.homepage, pkg.bugs]);
      assert.deepEqual(Object.keys(manifest.bin as object), Object.keys(pkg.bin));
      assert.doesNotMatch(String(manifest.description), /%/, 'the description is text, not a placeholder');
      for (const file of Object.values(manifest.bin as Record<string, string>)) assert.ok(staged.files.includes(file), `${file} is packed`);
    });

    it('has the command line\'s own README and description, whose every example command parses, and no link that npm cannot follow', () => {
      const readme = readFileSync(path.join(staged.folder, 'README.md'), 'utf8');
      assert.equal(readme, readFileSync(path.join(root, 'src/cli/README.md'), 'utf8'));
      assert.notEqual(readme, readFileSync(path.join(root, 'README.md'), 'utf8'));
      const manifest = JSON.parse(readFileSync(path.join(staged.folder, 'package.json'), 'utf8')) as { description: string };
      assert.match(manifest.description, /command line/);
      // npm's page shows the README as it is: relative links would lead nowhere.
      for (const m of readme.matchAll(/\]\(([^)\s]+)\)/g)) assert.match(m[1], /^https:\/\//, m[1]);
      // Every concrete example (a line of a sh block without a synopsis's [optional] part) is a command
      // line the command takes, with a token in the environment as contributing needs.
      const examples = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1].split('\n'))
        .map((line) => line.replace(/\s+#.*$/, '').trim())
        // A command whose output a variable takes (`code=$(refactor-browser post …)`), or after
        // variables set for it (`REFACTOR_BROWSER_TOKEN=$cam refactor-browser …`); a variable's
        // value in an argument ("$code", "${refactoring##*/}") stands for an id.
        .map((line) => (/^(?:\w+=\$\()?(?:\w+=\S+\s+)*(refactor-browser .*?)\)?$/.exec(line)?.[1] ?? line).replace(/"\$[^"]*"/g, '42'))
        .filter((line) => line.startsWith('refactor-browser ') && !line.includes('['));
      assert.ok(examples.length >= 8, `${examples.length} examples`);
      for (const line of examples) {
        const argv = [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]).slice(1);
        assert.doesNotThrow(() => parseCommandLine(argv, { REFACTOR_BROWSER_TOKEN: 'token' }), line);
      }
    });

    it('browses from a copy outside this tree: only the storage commands need a package beside the bundle', () => {
      const copy = mkdtempSync(path.join(tmpdir(), 'refactor-browser-npm-'));
      try {
        cpSync(staged.folder, copy, { recursive: true });
        const manifest = JSON.parse(readFileSync(path.join(copy, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };
        for (const [name, file] of Object.entries(manifest.bin)) {
          const script = path.join(copy, file);
          assert.match(readFileSync(script, 'utf8'), /^#!\/usr\/bin\/env node\n/, `${file} starts with a node shebang`);
          const cli = (args: string[]) => execFileSync(process.execPath, [script, ...args], {
            cwd: copy, encoding: 'utf8', timeout: 20_000, env: { PATH: process.env.PATH, REFACTOR_BROWSER_CACHE: path.join(copy, 'cache') },
          });
          assert.equal(cli(['--version']), `${manifest.version}\n`);
          assert.match(cli(['--help']), new RegExp(`\\b${name}\\b`));
          // The sample catalog, the XML decoder and the search index: the bundled packages at work.
          assert.ok((JSON.parse(cli(['recent', '--json'])) as unknown[]).length > 0);
          assert.ok((JSON.parse(cli(['search', 'array', '--json'])) as unknown[]).length > 0);
          // The MCP server, from the bundle beside the command's: it answers an initialize.
          const answered = execFileSync(process.execPath, ['-e', MCP_INITIALIZE, script], { cwd: copy, encoding: 'utf8', timeout: 20_000, env: { PATH: process.env.PATH } });
          assert.equal((JSON.parse(answered) as { result: { serverInfo: { name: string } } }).result.serverInfo.name, 'refactor-browser');
        }
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    });
  });

  describe('the third-party notices', () => {
    const notices = path.join(root, 'ThirdPartyNotices.txt');
    before(function () {
      if (!existsSync(notices)) this.skip(); // written by the build
    });

    it('give the name, version and licence text of every package the bundles contain, and of no other', function () {
      const text = readFileSync(notices, 'utf8');
      const bundles = [pkg.main, pkg.browser, 'dist/webview.js', ...Object.values(pkg.bin), 'dist/mcp.js'].map(listed);
      const dirs = new Set<string>();
      for (const bundle of bundles) {
        const found = bundledPackageDirs(bundle);
        if (found === undefined) this.skip(); // a packaging build: build for the tests to see what went in
        for (const d of found) dirs.add(d);
      }
      assert.ok(dirs.size > 0, 'the bundles contain packages');
      // And the packages whose files the build copies into dist/tree-sitter as they are.
      for (const dir of ['web-tree-sitter', '@vscode/tree-sitter-wasm']) dirs.add(path.join(root, 'node_modules', dir));
      const named: string[] = [];
      for (const dir of dirs) {
        const { name, version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
        named.push(name);
        assert.match(text, new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} ${version.replace(/\./g, '\\.')} \\(`, 'm'), `${name} ${version}`);
        const licence = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
        if (licence) assert.ok(text.includes(readFileSync(path.join(dir, licence), 'utf8').replace(/\r\n/g, '\n').trim()), `${name}'s ${licence}`);
        else assert.match(text, new RegExp(`^${name.replace(/[/]/g, '\\/')} [^\n]*\\(MIT\\)\\n(?:.*\\n){2}\\nMIT License[^\n]*\\n\\nCopyright \\(c\\) \\S`, 'm'), `${name} without a licence file: the MIT text under its author`);
      }
      const listedPackages = [...text.matchAll(/^={100}\n(\S+) /gm)].map((m) => m[1]).sort();
      assert.deepEqual(listedPackages, named.sort());
      // The highlighter is BSD-licensed: its conditions travel too.
      assert.ok(named.includes('highlight.js') && /Redistributions in binary form must reproduce/.test(text));
    });
  });

  describe('the documents', () => {
    const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

    it('the README\'s install lines name what `npm run package` and `npm run package:cli` make, and the scripts they run exist', () => {
      const readme = read('README.md');
      // npm pack names the tarball after the package and its version.
      const tarballs = [...readme.matchAll(/\.\/(refactor-browser-[\w.-]+\.tgz)/g)].map((m) => m[1]);
      assert.ok(tarballs.length > 0, 'the README installs the command from its tarball');
      for (const t of tarballs) assert.equal(t, `${pkg.name}-${pkg.version}.tgz`);
      assert.match(pkg.scripts.package, /--out refactor-browser\.vsix\b/);
      assert.match(readme, /install `refactor-browser\.vsix`/);
      for (const m of readme.matchAll(/`(?:npm ci && )?npm (?:run ([\w:-]+)|(start|test))\b/g)) {
        const script = m[1] ?? m[2];
        assert.ok(pkg.scripts[script] !== undefined, `the README runs npm ${script}, which package.json does not have`);
      }
      // Not published: every `npx -y refactor-browser` or `npm install -g refactor-browser` says so.
      for (const line of readme.split('\n').filter((l) => /npx["\s,]|install -g refactor-browser\b/.test(l) && !/\.tgz/.test(l))) {
        assert.match(line, /once|not yet|published/, line);
      }
    });

    it('the README keeps the two set-up commands CI runs, npm ci and npm test, and points to CONTRIBUTING.md', () => {
      // A command line may wrap the test command (a private PostgreSQL for its run): the npm command is what counts.
      const ci = read('.ci/run').split('\n').map((l) => l.trim()).filter((l) => !l.startsWith('#'))
        .map((l) => /(?:^|\s)(npm (?:ci|test))\b/.exec(l)?.[1]).filter((c) => c !== undefined);
      assert.deepEqual(ci, ['npm ci', 'npm test']);
      const readme = read('README.md');
      for (const command of ci) assert.match(readme, new RegExp(`^${command}\\b`, 'm'), `README: ${command}`);
      assert.match(readme, /\]\(CONTRIBUTING\.md\)/);
    });

    it('CONTRIBUTING.md links every page of docs/', () => {
      const contributing = read('CONTRIBUTING.md');
      const pages = readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md'));
      assert.ok(pages.length > 0);
      assert.deepEqual(pages.filter((p) => !contributing.includes(`](docs/${p})`)), []);
    });
  });

  describe('the repository\'s package.json', () => {
    it('is private, the extension\'s manifest: the npm package is staged from it, so nothing publishes it with a `main` outside the package', () => {
      assert.equal(pkg.private, true);
    });

    it('declares no runtime dependency: the bundles hold what they use, so every package is a devDependency', () => {
      assert.equal(pkg.dependencies, undefined);
      for (const used of ['fast-xml-parser', 'highlight.js', 'minisearch', 'undici', '@vscode/l10n']) assert.ok(pkg.devDependencies[used], used);
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

    it('keeps the MCP SDK in dist/mcp.js, which the command line loads for `mcp` only: not in dist/cli.js, not in the extension\'s bundles', function () {
      const sdk = (bundle: string) => bundledPackageDirs(bundle)?.filter((d) => /node_modules\/(@modelcontextprotocol\/sdk|zod)$/.test(d));
      const inCli = sdk('dist/cli.js');
      const inMcp = sdk('dist/mcp.js');
      if (inCli === undefined || inMcp === undefined) this.skip(); // a packaging build: no maps to tell
      assert.deepEqual(inCli, []);
      assert.equal(inMcp.length, 2, 'the SDK and zod');
      const cli = readFileSync(path.join(root, 'dist/cli.js'), 'utf8');
      assert.ok(cli.includes('await import("./mcp.js")'), 'dist/cli.js loads the bundle beside it when `mcp` runs');
      for (const bundle of [pkg.main, pkg.browser]) assert.doesNotMatch(readFileSync(path.join(root, bundle), 'utf8'), /modelcontextprotocol|McpServer/, bundle);
    });

    it('leaves out of the Node host\'s activation what it loads on first use: the similarity feature and the tools\' answers', function () {
      const activation = bundledSources('dist/extension.js');
      const similarity = bundledSources('dist/similarity.js');
      const agents = bundledSources('dist/agents.js');
      if (!activation || !similarity || !agents) this.skip(); // a packaging build: no maps to tell
      const firstUse = /^src\/similarity\/|web-tree-sitter|^src\/extension\/similar\/(finder|actions)\.ts$|^src\/agents\/answers\.ts$|^src\/extension\/agents\/answering\.ts$/;
      assert.deepEqual(activation.filter((f) => firstUse.test(f)), []);
      assert.ok(similarity.includes('src/similarity/fingerprint.ts') && similarity.includes('src/extension/similar/finder.ts'), similarity.join(', '));
      assert.ok(agents.includes('src/agents/answers.ts') && agents.includes('src/extension/agents/answering.ts'), agents.join(', '));
      const text = readFileSync(path.join(root, 'dist/extension.js'), 'utf8');
      assert.ok(text.includes('import("./similarity.js")') && text.includes('import("./agents.js")'), 'loaded from beside the bundle');
    });

    it('bundles the browser entry with nothing to require but vscode: no Node module, no undici', function () {
      const bundle = path.join(root, 'dist/web/extension.js');
      if (!existsSync(bundle)) this.skip();
      const text = readFileSync(bundle, 'utf8');
      const required = [...new Set([...text.matchAll(/\brequire\(["']([^"']+)["']\)/g)].map((m) => m[1]))];
      assert.deepEqual(required, ['vscode']);
      assert.doesNotMatch(text, /undici/);
    });

    it('leaves the test API, is-unsafe and the DOCTYPE reader out of the packaging build\'s bundles, and keeps the test API in the test build\'s', function () {
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
      // is-unsafe's rule ids and DocTypeReader's messages, which only their own code carries: the
      // extension bundles leave both out (the decoder gives fast-xml-parser an entity decoder of its
      // own and refuses a DOCTYPE first), keeping within their budget.
      const isUnsafe = /shell-path-traversal-unix/;
      const docTypeReader = /Unclosed DOCTYPE/;
      for (const bundle of build('--minify')) {
        assert.doesNotMatch(bundle, testApi);
        assert.doesNotMatch(bundle, isUnsafe);
        assert.doesNotMatch(bundle, docTypeReader);
      }
      for (const bundle of build()) assert.match(bundle, testApi);
    });
  });
});
