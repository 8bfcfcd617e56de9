// ESLint over every TypeScript file, with typescript-eslint's type-checked recommended rules: they
// catch what the compiler lets through (floating promises, unsafe `any`, needless assertions).
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers (CONTRIBUTING.md, Architecture). Only src/extension/ and src/extension.ts import
// `vscode`; the extension's feature folders never import the reference service (the composition
// files src/extension.ts and src/extension/service.ts hand its in-process fetch in), and never a
// value from another feature's folder: what they share is in src/extension/common/; the top of
// src/extension/ holds only the composition files (service.ts, testApi.ts). A type may name what
// the composition root hands a feature (another's object).
// Below them, mining → similarity → search → client → core: each of those imports only the ones
// after it, and the first three no Node module. src/cli/ imports neither entry file above it.
const NO_VSCODE = ['core', 'client', 'server', 'search', 'similarity', 'mining', 'agents', 'cli', 'protocol', 'webview'];
const FEATURES = ['accounts', 'agents', 'catalog', 'code', 'drafts', 'rateDelete', 'search', 'share', 'similar', 'stars'];
const RULE = '@typescript-eslint/no-restricted-imports';
const NO_VSCODE_PATH = { name: 'vscode', message: 'Only src/extension/ and src/extension.ts import vscode.' };

/** The restriction for files `depth` folders below src/extension/, in folder `own` (common: none is its own). */
function featureImports(own, depth) {
  const up = '\\.\\./'.repeat(depth);
  const others = FEATURES.filter((f) => f !== own);
  return ['error', {
    patterns: [
      { regex: `^(\\.\\./)+server(/|$)`, message: 'A feature never imports the reference service: src/extension.ts or src/extension/service.ts hands it in.' },
      {
        regex: `^${up}(${others.join('|')})(/|$)`,
        allowTypeImports: own !== 'common',
        message: own === 'common'
          ? 'The common vocabulary imports no feature.'
          : 'A feature imports no value from another feature\'s folder: move what both need to src/extension/common/, or have src/extension.ts hand it in.',
      },
    ],
  }];
}

// The lower layers, each above the ones after it: a layer imports only those below it, so the
// command line, the extension and the service can take any of them without the rest.
const LOWER = ['mining', 'similarity', 'search', 'client', 'core'];
// Everything else at the top of src/ (folders, and the entry files cli.ts, mcp.ts, extension.ts).
const ABOVE = ['agents', 'cli', 'extension', 'mcp', 'protocol', 'server', 'webview'];
// The lower layers that read no Node module: the browser's extension host bundles search and
// similarity, and mining is handed its git. A host hands in what they read: the command line's way
// to read tree-sitter's grammars is src/cli/grammarFiles.ts, the extension's VS Code's file system.
const NODE_FREE = ['mining', 'similarity', 'search'];
const NODE_MODULE = `^(node:|(${builtinModules.join('|')})(/|$))`;

/** The restriction for files `depth` folders below src/<layer>/: nothing above the layer. */
function lowerImports(layer, depth) {
  const below = LOWER.slice(LOWER.indexOf(layer) + 1);
  const refused = [...ABOVE, ...LOWER.slice(0, LOWER.indexOf(layer))];
  const allowed = below.length ? below.map((l) => `src/${l}/`).join(', ') : 'no other folder of src/';
  return ['error', {
    paths: [NO_VSCODE_PATH],
    patterns: [
      {
        regex: `^${'\\.\\./'.repeat(depth)}(${refused.join('|')})(/|$)`,
        message: `src/${layer}/ imports only the layers below it (${allowed}): ${LOWER.join(' → ')}.`,
      },
      ...(NODE_FREE.includes(layer) ? [{
        regex: NODE_MODULE,
        message: `src/${layer}/ imports no Node module: the host hands in what it reads (the command line's grammar files: src/cli/grammarFiles.ts).`,
      }] : []),
    ],
  }];
}

/**
 * The restriction for files `depth` folders below src/cli/: neither entry file (src/cli.ts, src/mcp.ts),
 * which import src/cli/; what both need has its home in src/cli/. The grammar files are read
 * through src/cli/grammarFiles.ts, not through the command that first read them.
 */
function cliImports(depth) {
  return ['error', {
    paths: [NO_VSCODE_PATH],
    patterns: [
      {
        regex: `^${'\\.\\./'.repeat(depth)}(cli|mcp)(\\.[jt]s)?$`,
        message: 'src/cli/ imports neither entry file (src/cli.ts, src/mcp.ts), which import it: what both need has its home in src/cli/ (the commands\' Io: src/cli/io.ts).',
      },
      {
        regex: '(^|/)similar$',
        importNames: ['nodeGrammarFiles'],
        message: 'nodeGrammarFiles has its own home: import it from src/cli/grammarFiles.ts.',
      },
    ],
  }];
}

const layering = [
  {
    files: [`src/{${NO_VSCODE.join(',')}}/**/*.ts`, 'src/cli.ts', 'src/mcp.ts'],
    rules: { [RULE]: ['error', { paths: [NO_VSCODE_PATH] }] },
  },
  // The reference service's catalog (a file read and checked, a Dataset, its rows) is below its SQL
  // store, which imports and keeps it: nothing in src/server/catalog/ imports src/server/sql/. (A
  // later block for the same files replaces the rule's options, so vscode is named again.)
  {
    files: ['src/server/catalog/**/*.ts'],
    rules: {
      [RULE]: ['error', {
        paths: [NO_VSCODE_PATH],
        patterns: [{ regex: '^(\\.\\./)+(server/)?sql(/|$)', message: 'The catalog imports nothing of the SQL store: src/server/sql/ imports the catalog, never the other way round.' }],
      }],
    },
  },
  { files: ['src/cli/*.ts'], rules: { [RULE]: cliImports(1) } },
  { files: ['src/cli/*/**/*.ts'], rules: { [RULE]: cliImports(2) } },
  ...LOWER.flatMap((layer) => [
    { files: [`src/${layer}/*.ts`], rules: { [RULE]: lowerImports(layer, 1) } },
    { files: [`src/${layer}/*/**/*.ts`], rules: { [RULE]: lowerImports(layer, 2) } },
  ]),
  ...[...FEATURES, 'common'].flatMap((own) => [
    { files: [`src/extension/${own}/*.ts`], rules: { [RULE]: featureImports(own, 1) } },
    { files: [`src/extension/${own}/*/**/*.ts`], rules: { [RULE]: featureImports(own, 2) } },
  ]),
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.vscode-test/**', 'reports/**', '.stryker-tmp*/**', '**/*.mjs', '**/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Output and catalog checks match control characters on purpose, to strip or refuse them.
      'no-control-regex': 'off',
      // An async function without await still turns a throw into a rejection, which callers rely on.
      '@typescript-eslint/require-await': 'off',
      // `const { dropped: _dropped, ...rest } = x` leaves a field out of a copy.
      // A `let` assigned once, after a closure that reads it was made (a signal handler).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // A caught failure, or one kept for later, is thrown as it came, whatever its type.
      '@typescript-eslint/only-throw-error': ['error', { allowRethrowing: true, allowThrowingUnknown: true }],
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  ...layering,
);
