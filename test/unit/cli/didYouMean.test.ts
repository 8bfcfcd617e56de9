// A mistyped command, option, help topic or language is answered with what it was most likely meant
// to be, and a list's language is checked as post checks it (`all` being the service's word for
// every language): bad usage, exit 2, never an empty list.
import { strict as assert } from 'node:assert';
import { main } from '../../../src/cli';
import { parseCommandLine, UsageError } from '../../../src/cli/args';
import { MAIN_HELP, TOPICS } from '../../../src/cli/help';
import { nearest } from '../../../src/cli/didYouMean';
import { run } from '../../helpers/cliProcess';

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

// What the command line says when a line is wrong or help is asked for: in its own one-line voice,
// and the general help naming every option each command's own help names.
describe('the command line\'s messages', () => {
  it('says what a value-taking option lacks, not the argument parser\'s words', () => {
    assert.equal(usage(['recent', '--language']), '--language needs a value');
    assert.equal(usage(['recent', '-l']), '--language needs a value');
    assert.equal(usage(['search', 'x', '--limit', '--json']), '--limit needs a value (--json is an option)');
    assert.equal(usage(['recent', '--json=yes']), '--json takes no value');
  });

  it('reads a negative number after an option as its value, and holds it to the option\'s range', () => {
    assert.match(usage(['recent', '--page', '-1']), /^--page /);
    assert.doesNotMatch(usage(['recent', '--page', '-1']), /ambiguous|argument/);
    assert.equal(usage(['recent', '--page', '-1']), usage(['recent', '--page=-1']));
    assert.equal(usage(['search', 'x', '-n', '-3']), usage(['search', 'x', '--limit=-3']));
  });

  it('answers --help TOPIC as help TOPIC: an unknown topic is refused with a suggestion', async () => {
    assert.deepEqual(parseCommandLine(['--help', 'recent'], {}), { name: 'help', topic: 'recent' });
    assert.deepEqual(parseCommandLine(['--help', 'recnet'], {}), parseCommandLine(['help', 'recnet'], {}));
    const asked = await run(['--help', 'recnet']);
    const typed = await run(['help', 'recnet']);
    assert.equal(asked.code, 2);
    assert.equal(asked.stderr, typed.stderr);
    assert.match(asked.stderr, /did you mean "recent"/);
    assert.equal(asked.stdout, '');
  });

  it('names in the general help every option a command\'s own help names', () => {
    const global = new Set(['--base-url', '--timeout', '--json', '--help']);
    const lines = MAIN_HELP.split('\n');
    for (const [command, text] of Object.entries(TOPICS)) {
      const own = [...text.split('\n')[0].matchAll(/--[a-z-]+/g)].map((m) => m[0]).filter((o) => !global.has(o));
      // The command's entry: its line, the lines wrapped under it, or its place in a line of several (import | export).
      const at = lines.findIndex((l) => new RegExp(`^  (?:[a-z]+ .*\\| )?${command}\\b`).test(l));
      assert.ok(at >= 0, `${command} is in the general help`);
      let entry = lines[at];
      for (let i = at + 1; i < lines.length && /^ {4,}/.test(lines[i]); i++) entry += lines[i];
      for (const option of own) assert.ok(entry.includes(option), `the general help's ${command} names ${option}: ${entry.trim()}`);
    }
  });
});
