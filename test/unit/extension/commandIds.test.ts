// The command table (src/extension/commandIds.ts) against package.json: every command registered
// is contributed and every contributed command is registered under the same id, and no other source
// file spells a command id itself, so that a renamed command cannot leave one place behind.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Commands } from '../../../src/extension/commandIds';
import { readJson } from '../../helpers/manifest';

const ROOT = path.resolve(__dirname, '../../../..');
const SRC = path.join(ROOT, 'src');
const manifest = readJson('package.json') as {
  contributes: { commands: Array<{ command: string }>; menus: Record<string, Array<{ command: string }>> };
};

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

  it('is the only source file that spells a command id', () => {
    const ids = new Set<string>(table);
    // The command table, and the row table: a row's contextValue is another namespace, which may share a command's name.
    const tables = [path.join(SRC, 'extension', 'commandIds.ts'), path.join(SRC, 'extension', 'shared', 'rows.ts')];
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
