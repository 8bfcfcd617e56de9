// The layers hold because ESLint refuses what would break them (eslint.config.mjs): this lints a
// line of source as though it were a file in each folder, with the project's own configuration,
// and expects the import refused there and allowed where the layers allow it.
import * as assert from 'node:assert';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const ROOT = path.resolve(__dirname, '../../..');
const RULE = '@typescript-eslint/no-restricted-imports';

describe('Layering: ESLint keeps each layer to its own imports', function () {
  this.timeout(60_000);
  let eslint: ESLint;

  before(() => {
    // The project's configuration, without the type-checked rules, which need a file in the
    // TypeScript project; the import rules read the source alone.
    eslint = new ESLint({
      cwd: ROOT,
      overrideConfig: [{
        files: ['**/*.ts'],
        languageOptions: { parserOptions: { projectService: false, project: false } },
      }],
      ruleFilter: ({ ruleId }) => ruleId === RULE,
    });
  });

  /** The messages of the layering rule for `source` placed at `file` (relative to the repository). */
  async function refusals(file: string, source: string): Promise<string[]> {
    const [result] = await eslint.lintText(`${source}\nexport {};\n`, { filePath: path.join(ROOT, file) });
    const fatal = result.messages.filter((m) => m.fatal);
    assert.deepStrictEqual(fatal, [], `${file} was parsed`);
    return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
  }

  it('keeps vscode out of every layer below the extension', async () => {
    for (const folder of ['core', 'client', 'server', 'server/http', 'server/catalog', 'search', 'similarity', 'mining', 'agents', 'cli', 'protocol', 'webview']) {
      const said = await refusals(`src/${folder}/layeringProbe.ts`, "import * as vscode from 'vscode';\nvoid vscode;");
      assert.strictEqual(said.length, 1, `vscode refused in src/${folder}/: ${said.join(' | ')}`);
      assert.match(said[0], /Only src\/extension\/ and src\/extension\.ts import vscode/);
    }
    assert.deepStrictEqual(await refusals('src/extension/catalog/layeringProbe.ts', "import * as vscode from 'vscode';\nvoid vscode;"), []);
  });

  it('keeps the lower layers in their order: mining → similarity → search → client → core, each importing only downwards', async () => {
    const lower = ['mining', 'similarity', 'search', 'client', 'core'];
    // Every folder and entry file at the top of src/, so that a new one is refused too.
    const top = readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .map((d) => d.isDirectory() ? d.name : d.name.replace(/\.ts$/, ''))
      .filter((name) => !name.includes('.'));
    assert.ok(lower.every((l) => top.includes(l)) && top.includes('extension') && top.includes('cli'), top.join(' '));
    for (const [i, layer] of lower.entries()) {
      for (const to of top.filter((t) => t !== layer)) {
        const said = await refusals(`src/${layer}/layeringProbe.ts`, `import { probe } from '../${to}/probe';\nvoid probe;`);
        if (lower.indexOf(to) > i) {
          assert.deepStrictEqual(said, [], `${layer} → ${to} is downwards`);
        } else {
          assert.strictEqual(said.length, 1, `${layer} → ${to}: ${said.join(' | ')}`);
          assert.match(said[0], new RegExp(`src/${layer}/ imports only the layers below it`));
        }
      }
      // A file in a folder of the layer is held to the same order.
      const deeper = await refusals(`src/${layer}/sub/layeringProbe.ts`, "import { probe } from '../../extension/probe';\nvoid probe;");
      assert.strictEqual(deeper.length, 1, `${layer}/sub → extension: ${deeper.join(' | ')}`);
      // The rule for the order keeps vscode out as well.
      const vscode = await refusals(`src/${layer}/layeringProbe.ts`, "import * as vscode from 'vscode';\nvoid vscode;");
      assert.strictEqual(vscode.length, 1, vscode.join(' | '));
      assert.match(vscode[0], /Only src\/extension\/ and src\/extension\.ts import vscode/);
    }
    // The one real wrong-way import this is about: the HTTP client's layer reaching up into search.
    const upwards = await refusals('src/client/layeringProbe.ts', "import { entryOf } from '../search/entries';\nvoid entryOf;");
    assert.strictEqual(upwards.length, 1, upwards.join(' | '));
    // The vocabulary speaks no HTTP: core never imports the client.
    const vocabulary = await refusals('src/core/layeringProbe.ts', "import { RefactorClient } from '../client/client';\nvoid RefactorClient;");
    assert.strictEqual(vocabulary.length, 1, vocabulary.join(' | '));
  });

  it('keeps Node modules out of search, similarity and mining, whatever the spelling, and lets the command line read them', async () => {
    const sources = [
      "import * as fs from 'node:fs/promises';\nvoid fs;",
      "import { readFile } from 'fs';\nvoid readFile;",
      "import * as path from 'path';\nvoid path;",
      "import { readFile } from 'fs/promises';\nvoid readFile;",
    ];
    for (const layer of ['search', 'similarity', 'mining']) {
      for (const file of [`src/${layer}/layeringProbe.ts`, `src/${layer}/sub/layeringProbe.ts`]) {
        for (const source of sources) {
          const said = await refusals(file, source);
          assert.strictEqual(said.length, 1, `${file}: ${source}: ${said.join(' | ')}`);
          assert.match(said[0], new RegExp(`src/${layer}/ imports no Node module: .*src/cli/grammarFiles\\.ts`));
        }
      }
      // A package is not a Node module, though its name may start like one.
      assert.deepStrictEqual(await refusals(`src/${layer}/layeringProbe.ts`, "import { Parser } from 'web-tree-sitter';\nvoid Parser;"), []);
      assert.deepStrictEqual(await refusals(`src/${layer}/layeringProbe.ts`, "import { x } from 'pathological';\nvoid x;"), []);
    }
    for (const file of ['src/cli/layeringProbe.ts', 'src/server/layeringProbe.ts', 'src/api/layeringProbe.ts']) {
      assert.deepStrictEqual(await refusals(file, sources[0]), [], file);
    }
  });

  it('keeps src/cli/ off the entry files above it, and nodeGrammarFiles in its own home', async () => {
    for (const [file, source] of [
      ['src/cli/layeringProbe.ts', "import type { Io } from '../cli';\nlet io: Io | undefined;\nvoid io;"],
      ['src/cli/layeringProbe.ts', "import { main } from '../cli.js';\nvoid main;"],
      ['src/cli/layeringProbe.ts', "import { serveMcp } from '../mcp';\nvoid serveMcp;"],
      ['src/cli/sub/layeringProbe.ts', "import { main } from '../../cli';\nvoid main;"],
    ]) {
      const said = await refusals(file, source);
      assert.strictEqual(said.length, 1, `${file}: ${source}: ${said.join(' | ')}`);
      assert.match(said[0], /src\/cli\/ imports neither entry file .*src\/cli\/io\.ts/);
    }
    assert.deepStrictEqual(await refusals('src/cli/layeringProbe.ts', "import type { Io } from './io';\nlet io: Io | undefined;\nvoid io;"), []);
    assert.deepStrictEqual(await refusals('src/cli/layeringProbe.ts', "import { catalogTools } from './mcp';\nvoid catalogTools;"), [], 'the tools, not the entry');
    assert.deepStrictEqual(await refusals('src/cli/sub/layeringProbe.ts', "import { catalogTools } from '../mcp';\nvoid catalogTools;"), [], 'the tools, not the entry');
    assert.deepStrictEqual(await refusals('src/cli.ts', "import { processIo } from './cli/io';\nvoid processIo;"), []);
    const similar = await refusals('src/cli/layeringProbe.ts', "import { nodeGrammarFiles } from './similar';\nvoid nodeGrammarFiles;");
    assert.strictEqual(similar.length, 1, similar.join(' | '));
    assert.match(similar[0], /nodeGrammarFiles has its own home: import it from src\/cli\/grammarFiles\.ts/);
    assert.deepStrictEqual(await refusals('src/cli/layeringProbe.ts', "import { runSimilar } from './similar';\nvoid runSimilar;"), []);
    assert.deepStrictEqual(await refusals('src/cli/layeringProbe.ts', "import { nodeGrammarFiles } from './grammarFiles';\nvoid nodeGrammarFiles;"), []);
  });

  it('keeps the SQL store out of the reference service\'s catalog, and lets the store import the catalog', async () => {
    for (const source of [
      "import { IMPORT_BATCH } from '../sql/transfer';\nvoid IMPORT_BATCH;",
      "import type { SqlStore } from '../sql/sqlStore';\nlet s: SqlStore | undefined;\nvoid s;",
      "import { IMPORT_BATCH } from '../../server/sql/transfer';\nvoid IMPORT_BATCH;",
    ]) {
      const said = await refusals('src/server/catalog/layeringProbe.ts', source);
      assert.strictEqual(said.length, 1, `${source}: ${said.join(' | ')}`);
      assert.match(said[0], /The catalog imports nothing of the SQL store/);
    }
    assert.deepStrictEqual(await refusals('src/server/sql/layeringProbe.ts', "import { catalogRows } from '../catalog/catalogRows';\nvoid catalogRows;"), []);
    assert.deepStrictEqual(await refusals('src/server/catalog/layeringProbe.ts', "import { catalogRows } from './catalogRows';\nvoid catalogRows;"), []);
  });

  it('keeps the reference service out of the extension\'s feature folders, and lets the composition files import it', async () => {
    const inProcess = (up: string): string => `import { inProcessFetch } from '${up}server/http/fetchHandler';\nvoid inProcessFetch;`;
    for (const file of ['src/extension/share/layeringProbe.ts', 'src/extension/common/layeringProbe.ts', 'src/extension/code/view/layeringProbe.ts']) {
      const up = '../'.repeat(file.split('/').length - 2);
      const said = await refusals(file, inProcess(up));
      assert.strictEqual(said.length, 1, `the server refused in ${file}: ${said.join(' | ')}`);
      assert.match(said[0], /never imports the reference service/);
    }
    assert.deepStrictEqual(await refusals('src/extension/service.ts', inProcess('../')), []);
    assert.deepStrictEqual(await refusals('src/extension.ts', inProcess('./')), []);
  });

  it('refuses a value from another feature\'s folder, allows its type and the common vocabulary; the common vocabulary imports no feature', async () => {
    const value = await refusals('src/extension/stars/layeringProbe.ts', "import { itemsOf } from '../code/items';\nvoid itemsOf;");
    assert.strictEqual(value.length, 1, value.join(' | '));
    assert.match(value[0], /imports no value from another feature's folder/);
    const deeper = await refusals('src/extension/code/view/layeringProbe.ts', "import { Stars } from '../../stars/stars';\nvoid Stars;");
    assert.strictEqual(deeper.length, 1, deeper.join(' | '));
    assert.deepStrictEqual(await refusals('src/extension/code/view/layeringProbe.ts', "import type { Stars } from '../../stars/stars';\nlet s: Stars | undefined;\nvoid s;"), []);
    assert.deepStrictEqual(await refusals('src/extension/stars/layeringProbe.ts', "import { itemsOf } from '../common/items';\nvoid itemsOf;"), []);
    assert.deepStrictEqual(await refusals('src/extension/stars/layeringProbe.ts', "import { entryOf } from '../../search/entries';\nvoid entryOf;"), [],
      'src/search/ is a layer below, not the search feature');
    assert.deepStrictEqual(await refusals('src/extension/stars/layeringProbe.ts', "import { titleOf } from '../names';\nvoid titleOf;"), []);
    const shared = await refusals('src/extension/common/layeringProbe.ts', "import type { Stars } from '../stars/stars';\nlet s: Stars | undefined;\nvoid s;");
    assert.strictEqual(shared.length, 1, shared.join(' | '));
    assert.match(shared[0], /common vocabulary imports no feature/);
  });

  it('knows every folder of src/extension/: a value imported from one into another is refused', async () => {
    const folders = readdirSync(path.join(ROOT, 'src/extension'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    assert.ok(folders.includes('common') && folders.length > 5, folders.join(' '));
    for (const from of folders) {
      for (const to of folders.filter((f) => f !== from && f !== 'common')) {
        const said = await refusals(`src/extension/${from}/layeringProbe.ts`, `import { probe } from '../${to}/probe';\nvoid probe;`);
        assert.strictEqual(said.length, 1, `${from} → ${to}: ${said.join(' | ')}`);
      }
    }
  });

  it('gives the extension\'s shared code one home: src/extension/common/; the top holds only the composition files', () => {
    // A helper every feature uses goes into common/, where ESLint keeps it free of features; the top
    // of src/extension/ is for the files that put the features and the service together.
    const top = readdirSync(path.join(ROOT, 'src/extension'), { withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name).sort();
    assert.deepStrictEqual(top, ['buildFlags.d.ts', 'service.ts', 'testApi.ts']);
  });

  it('splits the lower ground in two: src/core/ the vocabulary every layer speaks, src/client/ the HTTP client', () => {
    const names = (folder: string) => readdirSync(path.join(ROOT, 'src', folder)).map((f) => f.replace(/\.ts$/, ''));
    const client = names('client');
    for (const part of ['client', 'http', 'dispatcher', 'writes', 'urls']) assert.ok(client.includes(part), `src/client/${part}.ts`);
    const core = names('core');
    for (const part of ['model', 'languages', 'names', 'ratings', 'xmlDecode', 'writeContract']) assert.ok(core.includes(part), `src/core/${part}.ts`);
    assert.ok(!readdirSync(path.join(ROOT, 'src')).includes('api'), 'src/api/ is gone: its files are in src/core/ or src/client/');
  });
});
