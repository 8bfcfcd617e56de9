// How a Node host reads the tree-sitter runtime and grammars that src/similarity/grammars.ts asks for
// (its GrammarFiles): the command line's `similar`, `adapt`, `mine` and `mcp`, and the tests. Here,
// not in src/similarity/, which reads no Node module so that the browser's extension host bundles it
// (it reads the files through VS Code's file system, src/extension/similar/finder.ts).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { GrammarFiles } from '../similarity/grammars';

/** The grammar files beside the bundle (`dist/tree-sitter/`), else in the packages that ship them. */
export function nodeGrammarFiles(): GrammarFiles {
  return async (file) => {
    try {
      return await fs.readFile(path.join(__dirname, 'tree-sitter', file));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    // Run from the compiled sources (out/), not the bundle: the files are where the packages put them.
    // The names are held in variables so that the bundler, which copies the files, does not try to.
    const runtime = 'web-tree-sitter/web-tree-sitter.wasm';
    const grammars = '@vscode/tree-sitter-wasm';
    return fs.readFile(file === 'web-tree-sitter.wasm' ? require.resolve(runtime) : path.join(path.dirname(require.resolve(grammars)), file));
  };
}
