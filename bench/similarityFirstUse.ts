// similarity.firstUse's child (bench/similarity.ts): the parser's runtime and a grammar load once per
// process, so each sample is a fresh process. It reads a code from stdin and prints the milliseconds
// from the first tokenize in the language of its argument (web-tree-sitter's module, its runtime, the
// grammar and the parse) to the tokens.
import { nodeGrammarFiles } from '../src/cli/grammarFiles';
import { Grammars } from '../src/similarity/grammars';
import { Tokenizers } from '../src/similarity/tokenize';

async function main(): Promise<void> {
  const language = process.argv[2];
  if (!language) throw new Error('usage: similarityFirstUse LANGUAGE < code');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const started = performance.now();
  const tokenizers = new Tokenizers(new Grammars(nodeGrammarFiles()));
  const { tokens, by } = await tokenizers.tokenize(text, language);
  const ms = performance.now() - started;
  if (by !== 'tree' || tokens.length === 0) throw new Error(`${language}: no syntax tree`);
  process.stdout.write(`${ms}\n`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
