// Adapting on real code renamed as a person renames it: functions from real packages in Python,
// JavaScript, TypeScript, Java, Ruby and C# (test/fixtures/adapt-real), each with its locals and
// parameters renamed and its members kept, many with a local named like a member (`sep = os.sep`,
// `const protocol = url.protocol`, `this.field = field`). A refactoring adapted to each must be the
// refactoring renamed alike, for at least 95% of them in every language but TypeScript, and what is
// not adapted exactly must be refused, never rewritten wrongly.
import { strict as assert } from 'node:assert';
import { adaptRealCorpus, realNote } from '../../../bench/adaptReal';
import { nodeGrammarFiles } from '../../../src/cli/grammarFiles';
import { Grammars } from '../../../src/similarity/grammars';
import { Tokenizers } from '../../../src/similarity/tokenize';

/**
 * TypeScript is compared as JavaScript, with the JavaScript grammar: where it parses its types
 * (typed parameters above all) astray, adapting is refused, so its share is lower.
 */
const GOAL: Record<string, number> = { TypeScript: 0.75 };

describe('similarity: adapting to real code renamed as a person renames it', () => {
  it('adapts at least 95% of the functions exactly in each language, and refuses the rest', async () => {
    const rows = await adaptRealCorpus(new Tokenizers(new Grammars(nodeGrammarFiles())));
    const languages = [...new Set(rows.map((r) => r.language))];
    assert.deepEqual(languages, ['Python', 'JavaScript', 'TypeScript', 'Java', 'Ruby', 'C#']);
    for (const language of languages) {
      const own = rows.filter((r) => r.language === language);
      assert.ok(own.length >= 20, `${language}: ${own.length} functions`);
      const exact = own.filter((r) => r.exact).length;
      assert.ok(exact / own.length >= (GOAL[language] ?? 0.95), `${language}: ${exact} of ${own.length} exact; ${realNote(own)}`);
    }
    const wrong = rows.filter((r) => !r.exact && r.why?.startsWith('gave '));
    assert.deepEqual(wrong.map((r) => `${r.language} ${r.fn.name}`), [], realNote(wrong));
    // The case the corpus is for: enough of its functions have a local named like a member.
    assert.ok(rows.filter((r) => r.fn.sharesMemberName).length >= 60);
  });
});
