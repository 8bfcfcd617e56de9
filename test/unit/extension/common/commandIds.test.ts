// The command table (src/extension/common/commandIds.ts) against package.json: every command registered
// is contributed and every contributed command is registered under the same id (as is every command a
// menu or the walkthrough names), and no other source file spells a command id itself, so that a
// renamed command cannot leave one place behind. The same for the context keys: each key a `when`
// clause reads is set by the extension through the table.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Commands, ContextKeys } from '../../../../src/extension/common/commandIds';
import { readJson } from '../../../helpers/manifest';

const ROOT = path.resolve(__dirname, '../../../../..');
const SRC = path.join(ROOT, 'src');
const manifest = readJson('package.json') as {
  contributes: {
    commands: Array<{ command: string }>;
    menus: Record<string, Array<{ command: string }>>;
    walkthroughs: Array<{ steps: Array<{ id: string; description: string; completionEvents?: string[] }> }>;
  };
};
const english = readJson('package.nls.json') as Record<string, string>;
const TABLE_FILE = path.join(SRC, 'extension', 'common', 'commandIds.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the command table', () => {
  const table = Object.values(Commands);
  const contributed = manifest.contributes.commands.map((c) => c.command);

  it('names each command once', () => {
    assert.equal(new Set(table).size, table.length);
  });

  it('holds exactly the commands package.json contributes', () => {
    assert.deepEqual([...table].sort(), [...contributed].sort());
  });

  it('holds every command a menu of package.json names', () => {
    for (const [menu, entries] of Object.entries(manifest.contributes.menus)) {
      for (const e of entries) assert.ok((table as readonly string[]).includes(e.command), `${menu}: ${e.command}`);
    }
  });

  it('holds every command of the extension a walkthrough step links to or is checked off by', () => {
    const named = manifest.contributes.walkthroughs.flatMap((w) => w.steps).flatMap((step) => {
      const description = english[/^%([^%]+)%$/.exec(step.description)?.[1] ?? ''] ?? step.description;
      const linked = [...description.matchAll(/\]\(command:(?:toSide:)?([^)?\s]+)/g)].map((m) => m[1]);
      const ran = (step.completionEvents ?? []).map((e) => /^onCommand:(?:toSide:)?(.+)$/.exec(e)?.[1]).filter((c) => c !== undefined);
      return [...linked, ...ran].map((command) => ({ step: step.id, command }));
    });
    assert.ok(named.length >= 5, JSON.stringify(named));
    // The extension's own commands, not the `<view>.focus` command VS Code makes for its view.
    const own = named.filter(({ command }) => command.startsWith('refactorBrowser.') && !command.endsWith('.focus'));
    assert.deepEqual(own.filter(({ command }) => !(table as readonly string[]).includes(command)), []);
  });

  it('is the only source file that spells a command id', () => {
    const ids = new Set<string>(table);
    // The command table, and the row table: a row's contextValue is another namespace, which may share a command's name.
    const tables = [TABLE_FILE, path.join(SRC, 'extension', 'common', 'rows.ts')];
    const spelled: string[] = [];
    for (const file of sourceFiles(SRC)) {
      if (tables.includes(file)) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/['"`](refactorBrowser\.\w+)['"`]/g)) {
        if (ids.has(m[1])) spelled.push(`${path.relative(ROOT, file)}: ${m[1]}`);
      }
    }
    assert.deepEqual(spelled, []);
  });
});

/** Every `when` and `enablement` clause of package.json, wherever it stands (menus, keybindings, views, welcome content). */
function clauses(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(clauses);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => ((key === 'when' || key === 'enablement') && typeof v === 'string' ? [v] : clauses(v)));
}

/** The keys a clause reads: each term's left side (`view == x` reads `view`; `x` is a value, not a key, as is a regular expression). */
function keysRead(clause: string): string[] {
  return clause.replace(/=~\s*\/(?:\\.|[^/\\])*\/\w*/g, '=~ re').split(/&&|\|\||[()]/).map((term) => term.trim().replace(/^!\s*/, '').split(/\s*(?:==|!=|=~|>=|<=|>|<|\s+not in\s+|\s+in\s+)\s*/)[0]).filter((k) => k !== '');
}

describe('the context key table', () => {
  const table: readonly string[] = Object.values(ContextKeys);
  const read = new Set(clauses(manifest.contributes).flatMap(keysRead).filter((k) => k.startsWith('refactorBrowser.')));
  const files = sourceFiles(SRC).filter((f) => f !== TABLE_FILE).map((f) => ({ file: path.relative(ROOT, f), text: readFileSync(f, 'utf8') }));

  it('reads the keys of the clauses, not their values', () => {
    assert.deepEqual(keysRead("view == refactorBrowser.catalog && !refactorBrowser.signedIn && viewItem =~ /^refactorBrowser\\.code$/"),
      ['view', 'refactorBrowser.signedIn', 'viewItem']);
  });

  it('holds exactly the refactorBrowser keys that package.json\'s when clauses read', () => {
    assert.equal(new Set(table).size, table.length);
    assert.deepEqual([...table].sort(), [...read].sort());
  });

  it('names the key of every setContext call, and each key is set somewhere', () => {
    const set: string[] = [];
    for (const { file, text } of files) {
      for (const m of text.matchAll(/['"`]setContext['"`],\s*([^,]+),/g)) {
        const name = /^ContextKeys\.(\w+)$/.exec(m[1].trim());
        assert.ok(name && Object.hasOwn(ContextKeys, name[1]), `${file} sets ${m[1]}`);
        set.push(name[1]);
      }
    }
    assert.deepEqual([...new Set(set)].sort(), Object.keys(ContextKeys).sort(), 'keys nobody sets');
  });

  it('is the only source file that spells a context key', () => {
    const spelled = files.flatMap(({ file, text }) => [...text.matchAll(/['"`](refactorBrowser\.\w+)['"`]/g)]
      .filter((m) => table.includes(m[1])).map((m) => `${file}: ${m[1]}`));
    assert.deepEqual(spelled, []);
  });
});
