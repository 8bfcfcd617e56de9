// The bound on what is compared at once (similarity/tokens.ts checkLength): a text of 2,000 lines is
// compared, whether or not its last line ends with a line break; one line more is refused, saying so.
import { strict as assert } from 'node:assert';
import { nodeGrammarFiles } from '../../../src/cli/grammarFiles';
import { Grammars } from '../../../src/similarity/grammars';
import { Tokenizers } from '../../../src/similarity/tokenize';
import { MAX_COMPARED_LINES, TooLongError } from '../../../src/similarity/tokens';

const tokenizers = new Tokenizers(new Grammars(nodeGrammarFiles()));

describe('the bound on the lines compared at once', () => {
  it(`compares a file of exactly ${MAX_COMPARED_LINES} lines, with or without a line break after the last`, async () => {
    const lines = Array.from({ length: MAX_COMPARED_LINES }, (_, i) => `x${i} = ${i}`);
    for (const text of [`${lines.join('\n')}\n`, lines.join('\n'), `${lines.join('\r\n')}\r\n`]) {
      const { tokens } = await tokenizers.tokenize(text, 'Python');
      assert.equal(tokens.at(-1)?.line, MAX_COMPARED_LINES - 1, 'its last line is read');
    }
  });

  it(`refuses ${MAX_COMPARED_LINES + 1} lines, naming the bound`, async () => {
    const text = `${Array.from({ length: MAX_COMPARED_LINES + 1 }, (_, i) => `x${i} = ${i}`).join('\n')}\n`;
    await assert.rejects(tokenizers.tokenize(text, 'Python'), (e: unknown) => e instanceof TooLongError && e.message === `the code is too long to compare (more than ${MAX_COMPARED_LINES} lines)`);
  });
});
