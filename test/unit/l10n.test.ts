// Localization: the bundle the extension ships is what `@vscode/l10n-dev export` finds in the sources
// (a string added to the code without re-exporting fails here), and the German translation covers
// every string of the code and of package.json, keeping each string's placeholders.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { localizedManifest, placeholders, readJson } from '../helpers/manifest';
import { typeScriptFilesUnder } from '../helpers/sourceFiles';

const ROOT = path.resolve(__dirname, '../../..');
const placeholdersOf = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('localization', function () {
  this.timeout(60_000);

  it('ships l10n/bundle.l10n.json as the export of the sources makes it (npm run l10n:export)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'refactor-browser-l10n-'));
    try {
      execFileSync(process.execPath, [path.join(ROOT, 'node_modules/@vscode/l10n-dev/dist/cli.js'), 'export', '-o', dir, './src'],
        { cwd: ROOT, stdio: 'pipe', timeout: 50_000 });
      const fresh = JSON.parse(readFileSync(path.join(dir, 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
      assert.deepEqual(readJson('l10n/bundle.l10n.json'), fresh);
      assert.ok(Object.keys(fresh).length > 50, `only ${Object.keys(fresh).length} strings exported`);
      for (const needed of ['Recent Codes', 'Could not load: {0}', 'Insert at Cursor: {0}', 'Loading…', 'Loading {0}…']) assert.ok(Object.hasOwn(fresh, needed), needed);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('translates every string of the code into German, keeping its placeholders', () => {
    const english = readJson('l10n/bundle.l10n.json') as Record<string, string>;
    const german = readJson('l10n/bundle.l10n.de.json') as Record<string, string>;
    assert.deepEqual(Object.keys(german).sort(), Object.keys(english).sort());
    for (const [key, text] of Object.entries(german)) {
      assert.ok(text.trim() !== '', key);
      assert.deepEqual(placeholdersOf(text), placeholdersOf(key), key);
    }
  });

  it('names every title and description of package.json through package.nls.json, in English and German', () => {
    const english = readJson('package.nls.json') as Record<string, string>;
    const german = readJson('package.nls.de.json') as Record<string, string>;
    const used = placeholders();
    assert.ok(used.length > 25, `${used.length} placeholders`);
    assert.deepEqual([...new Set(used)].sort(), Object.keys(english).sort(), 'every placeholder has its English text, and no text is unused');
    assert.deepEqual(Object.keys(german).sort(), Object.keys(english).sort());
    type Manifest = { contributes: { commands: Array<{ title: string }>; views: Record<string, Array<{ name: string }>> } };
    const de = localizedManifest<Manifest>('de');
    assert.equal(de.contributes.views.refactorBrowser[0].name, 'Katalog');
    assert.ok(de.contributes.commands.every((c) => !c.title.includes('%')), 'no placeholder left');
  });

  describe('whole sentences', () => {
    const english = (): string[] => Object.keys(readJson('l10n/bundle.l10n.json') as Record<string, string>);

    it('has no fragment meant to be joined to other words in code', () => {
      const fragments = ['by', 'of', 'and', 'or', 'at', 'on', 'in', 'from', 'posted', 'updated', 'cached', 'starred'];
      const found = english().filter((k) => fragments.includes(k.trim()));
      assert.deepEqual(found, []);
    });

    it('says every count with a singular message beside the plural one', () => {
      const keys = new Set(english());
      const singular: Record<string, string> = { codes: 'code', refactorings: 'refactoring', votes: 'vote', lists: 'list' };
      const counted = [...keys].filter((k) => /\{\d+\} (more )?(codes|refactorings|votes|lists)\b/.test(k));
      assert.ok(counted.length >= 3, `${counted.length} counted messages`);
      for (const key of counted) {
        const one = key.replace(/\{(\d+)\} (more )?(codes|refactorings|votes|lists)\b/, (_, n: string, more = '', noun: string) => `{${n}} ${more}${singular[noun]}`);
        const literalOne = key.replace(/\{\d+\} (more )?(codes|refactorings|votes|lists)\b/, (_, more = '', noun: string) => `1 ${more}${singular[noun]}`);
        assert.ok(keys.has(one) || keys.has(literalOne), `${key} has no singular form ("${one}")`);
      }
    });

    it('never joins a translated message to more text with +', () => {
      const offenders: string[] = [];
      for (const file of typeScriptFilesUnder(path.join(ROOT, 'src'))) {
        readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
          if (/l10n\.t\((?:[^()]|\([^()]*\))*\)\s*\+|\+\s*(vscode\.)?l10n\.t\(/.test(line)) offenders.push(`${path.relative(ROOT, file)}:${i + 1}`);
        });
      }
      assert.deepEqual(offenders, []);
    });
  });
});
