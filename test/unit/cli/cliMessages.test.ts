// What the command line says when a line is wrong or help is asked for: in its own one-line voice,
// and the general help naming every option each command's own help names.
import { strict as assert } from 'node:assert';
import { parseCommandLine, UsageError } from '../../../src/cli/args';
import { MAIN_HELP, TOPICS } from '../../../src/cli/help';
import { run } from '../../helpers/cliProcess';

/** The message parseCommandLine refuses `argv` with. */
function refusal(argv: string[]): string {
  try {
    parseCommandLine(argv, {});
  } catch (e) {
    assert.ok(e instanceof UsageError, String(e));
    return e.message;
  }
  assert.fail(`${argv.join(' ')} was taken`);
}

describe('the command line\'s messages', () => {
  it('says what a value-taking option lacks, not the argument parser\'s words', () => {
    assert.equal(refusal(['recent', '--language']), '--language needs a value');
    assert.equal(refusal(['recent', '-l']), '--language needs a value');
    assert.equal(refusal(['search', 'x', '--limit', '--json']), '--limit needs a value (--json is an option)');
    assert.equal(refusal(['recent', '--json=yes']), '--json takes no value');
  });

  it('reads a negative number after an option as its value, and holds it to the option\'s range', () => {
    assert.match(refusal(['recent', '--page', '-1']), /^--page /);
    assert.doesNotMatch(refusal(['recent', '--page', '-1']), /ambiguous|argument/);
    assert.equal(refusal(['recent', '--page', '-1']), refusal(['recent', '--page=-1']));
    assert.equal(refusal(['search', 'x', '-n', '-3']), refusal(['search', 'x', '--limit=-3']));
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
