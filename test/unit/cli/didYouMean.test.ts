// A mistyped command, option, help topic or language is answered with what it was most likely meant
// to be, and a list's language is checked as post checks it (`all` being the service's word for
// every language): bad usage, exit 2, never an empty list.
import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { parseCommandLine, UsageError } from '../../../src/cli/args';
import { nearest } from '../../../src/cli/didYouMean';

function usage(argv: string[]): string {
  try {
    parseCommandLine(argv, {});
  } catch (e) {
    assert.ok(e instanceof UsageError, String(e));
    return e.message;
  }
  assert.fail(`${argv.join(' ')} was taken`);
}

describe('refactor-browser: did you mean', () => {
  it('names the command, option or language a slip was meant to be', () => {
    assert.equal(usage(['recnet']), 'unknown command "recnet" (did you mean "recent"?)');
    assert.equal(usage(['mien', '.']), 'unknown command "mien" (did you mean "mine"?)');
    assert.equal(usage(['popluar']), 'unknown command "popluar" (did you mean "popular"?)', 'two letters swapped are one slip');
    assert.equal(usage(['recent', '--langauge', 'ruby']), 'unknown option --langauge (did you mean "--language"?)');
    assert.equal(usage(['serve', '--prot', '3000']), 'unknown option --prot (did you mean "--port"?)');
    assert.equal(usage(['--jsno', 'recent']), 'unknown option --jsno (did you mean "--json"?)');
    assert.equal(usage(['recent', '--language', 'rubby']), '--language: the service has no language "rubby" (did you mean Ruby?)');
  });

  it('suggests nothing for what is not near any name, and lists the languages instead', () => {
    assert.equal(usage(['frobnicate']), 'unknown command "frobnicate"');
    assert.equal(usage(['recent', '-x']), 'unknown option -x');
    assert.match(usage(['recent', '--language', 'klingon']), /^--language: the service has no language "klingon"; it has Ruby, PHP, JavaScript/);
    assert.equal(nearest('ab', ['at', 'ax']), undefined, 'two as near: no guess');
    assert.equal(nearest('x', ['y']), undefined, 'a one-letter word is not a slip of another');
  });

  it('checks a list\'s language, takes the service\'s spellings and slugs, and reads "all" as no filter', () => {
    for (const name of ['recent', 'popular', 'refactorings']) assert.match(usage([name, '--language', 'klingon']), /no language "klingon"/, name);
    assert.match(usage(['tag', 'arrays', '--language', 'klingon']), /no language "klingon"/);
    const of = (argv: string[]): string | undefined => (parseCommandLine(argv, {}) as { language?: string }).language;
    assert.equal(of(['recent', '--language', 'cpp']), 'C++');
    assert.equal(of(['recent', '--language', 'RUBY']), 'Ruby');
    assert.equal(of(['recent', '--language', 'All']), undefined);
  });

  it('names the help topic a slip was meant to be', async () => {
    let err = '';
    const code = await main(['help', 'serach'], { out: () => undefined, err: (t) => void (err += t) });
    assert.equal(code, 2);
    assert.equal(err, 'refactor-browser: no help for "serach" (did you mean "search"?)\n');
  });
});
