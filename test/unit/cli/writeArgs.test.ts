// The write commands' command lines: what each takes, what it refuses as bad usage, and where the
// token and the service come from.
import { strict as assert } from 'node:assert';
import { COMMANDS, parseCommandLine, UsageError, type Command } from '../../../src/cli/args';
import { helpText } from '../../../src/cli/help';

const SERVICE = 'http://127.0.0.1:3000/';
const ENV = { REFACTOR_BROWSER_TOKEN: 'tok-123', REFACTOR_BROWSER_BASE_URL: SERVICE };

function parse(argv: string[], env: NodeJS.ProcessEnv = ENV): Command {
  return parseCommandLine(argv, env);
}

function usage(argv: string[], message: RegExp, env: NodeJS.ProcessEnv = ENV): void {
  assert.throws(() => parse(argv, env), (e: unknown) => {
    assert.ok(e instanceof UsageError, String(e));
    assert.match(e.message, message);
    return true;
  });
}

const GLOBAL = { baseUrl: SERVICE, timeoutSeconds: 15, json: false };

describe('write commands: arguments', () => {
  it('post reads FILE, title, language (as the service spells it), comment and every tag', () => {
    assert.deepEqual(parse(['post', 'a.rb', '--title', 'Sum', '--language', 'ruby', '--comment', 'Shorter?', '--tag', 'math', '--tag', 'loops,arrays  sum']), {
      name: 'post', file: 'a.rb', title: 'Sum', language: 'Ruby', comment: 'Shorter?', tags: ['math', 'loops', 'arrays', 'sum'],
      token: 'tok-123', global: GLOBAL,
    });
  });

  it('post takes - for stdin, an empty comment, no tags, and the global options before or after', () => {
    const c = parse(['--json', 'post', '-', '-l', 'c#', '--title', 'T', '--comment', '', '--timeout', '2']);
    assert.deepEqual(c, {
      name: 'post', file: '-', title: 'T', language: 'C#', comment: '', tags: [], token: 'tok-123',
      global: { baseUrl: SERVICE, timeoutSeconds: 2, json: true },
    });
  });

  it('post refuses a missing FILE, title, language or comment, an unknown language and a second FILE', () => {
    usage(['post', '--title', 'T', '--language', 'ruby', '--comment', 'c'], /^post needs a FILE/);
    usage(['post', 'a.rb', '--language', 'ruby', '--comment', 'c'], /^post needs --title/);
    usage(['post', 'a.rb', '--title', ' ', '--language', 'ruby', '--comment', 'c'], /^post needs --title/);
    usage(['post', 'a.rb', '--title', 'T', '--comment', 'c'], /^post needs --language/);
    usage(['post', 'a.rb', '--title', 'T', '--language', 'ruby'], /^post needs --comment/);
    usage(['post', 'a.rb', '--title', 'T', '--language', 'klingon', '--comment', 'c'], /the service has no language "klingon"; it has .*Ruby/);
    usage(['post', 'a.rb', 'b.rb', '--title', 'T', '--language', 'ruby', '--comment', 'c'], /unexpected argument "b.rb"/);
    usage(['post', 'a.rb', '--title'], /--title/);
    usage(['post', 'a.rb', '--page', '2'], /--page/);
  });

  it('refactor reads CODE_REF (an id, a code ref or a page URL) and FILE, comment and title optional', () => {
    assert.deepEqual(parse(['refactor', '42-sum', 'b.rb']), {
      name: 'refactor', ref: '42-sum', file: 'b.rb', comment: '', title: undefined, token: 'tok-123', global: GLOBAL,
    });
    const c = parse(['refactor', 'https://refactor.example.org/codes/7-x', '-', '--comment', 'inject', '--title', 'Reduce']);
    assert.equal(c.name === 'refactor' && `${c.ref} ${c.file} ${c.comment} ${c.title ?? ''}`, '7-x - inject Reduce');
  });

  it('refactor refuses a missing FILE, a CODE_REF that is none, and options it does not take', () => {
    usage(['refactor', '42'], /^refactor needs a CODE_REF and a FILE/);
    usage(['refactor', 'forty-two', 'b.rb'], /"forty-two" is not a code ref/);
    usage(['refactor', '42', 'b.rb', 'c.rb'], /unexpected argument "c.rb"/);
    usage(['refactor', '42', 'b.rb', '--tag', 'x'], /--tag/);
  });

  it('rate reads CODE_REF, REFACTOR_ID and a VALUE from 1 to 5', () => {
    assert.deepEqual(parse(['rate', '42', '7', '5']), { name: 'rate', ref: '42', refactorId: 7, value: 5, token: 'tok-123', global: GLOBAL });
    assert.equal((parse(['rate', '42', '7', '1']) as { value: number }).value, 1);
  });

  it('rate refuses a value outside 1 to 5, a refactoring id that is none, and missing arguments', () => {
    usage(['rate', '42', '7', '6'], /VALUE must be between 1 and 5, got 6/);
    usage(['rate', '42', '7', '0'], /VALUE must be between 1 and 5, got 0/);
    usage(['rate', '42', '7', '4.5'], /VALUE must be a whole number, got "4.5"/);
    usage(['rate', '42', '0', '3'], /REFACTOR_ID must be a refactoring's id .* got "0"/);
    usage(['rate', '42', 'x7', '3'], /REFACTOR_ID must be .* got "x7"/);
    usage(['rate', '42', '7'], /^rate needs a CODE_REF, a REFACTOR_ID and a VALUE/);
    usage(['rate', '42', '7', '3', '4'], /unexpected argument "4"/);
  });

  it('delete reads CODE_REF and, for a refactoring, REFACTOR_ID; --yes (-y) deletes without asking', () => {
    assert.deepEqual(parse(['delete', '42-sum']), { name: 'delete', ref: '42-sum', refactorId: undefined, yes: false, token: 'tok-123', global: GLOBAL });
    assert.deepEqual(parse(['delete', '42', '9']), { name: 'delete', ref: '42', refactorId: 9, yes: false, token: 'tok-123', global: GLOBAL });
    assert.deepEqual(parse(['delete', '42', '--yes']), { name: 'delete', ref: '42', refactorId: undefined, yes: true, token: 'tok-123', global: GLOBAL });
    assert.deepEqual(parse(['delete', '-y', '42', '9']), { name: 'delete', ref: '42', refactorId: 9, yes: true, token: 'tok-123', global: GLOBAL });
    usage(['rate', '42', '9', '5', '--yes'], /--yes/);
    usage(['delete'], /^delete needs a CODE_REF/);
    usage(['delete', '42', '9', '10'], /unexpected argument "10"/);
    usage(['delete', '42', 'nine'], /REFACTOR_ID must be/);
  });

  it('takes the token from REFACTOR_BROWSER_TOKEN only, and leaves an absent or empty one to the shell to refuse', () => {
    const env = { REFACTOR_BROWSER_BASE_URL: SERVICE };
    assert.equal((parse(['delete', '42'], env) as { token?: string }).token, undefined);
    assert.equal((parse(['delete', '42'], { ...env, REFACTOR_BROWSER_TOKEN: '' }) as { token?: string }).token, undefined);
    usage(['delete', '42', '--token', 'x'], /--token/, env);
  });

  it('without --base-url or REFACTOR_BROWSER_BASE_URL names no service (the sample catalog, which the shell refuses)', () => {
    const c = parse(['delete', '42'], { REFACTOR_BROWSER_TOKEN: 't' });
    assert.equal((c as { global: { baseUrl?: string } }).global.baseUrl, undefined);
  });

  it('delete\'s --yes and options the hand-typed list missed say where they go before the command', () => {
    for (const option of ['--yes', '-y', '--id', '--identity-url', '--website']) {
      usage([option, 'delete', '1'], new RegExp(`^${option} is an option of a command: put it after the command$`));
    }
  });

  it('a write command\'s own option before the command says where it goes', () => {
    for (const option of ['--title', '--comment', '--tag']) {
      usage([option, 'x', 'post', 'a.rb'], new RegExp(`^${option} is an option of a command: put it after the command$`));
    }
  });

  it('--help for each write command, before or after it, gives its own help naming the token', () => {
    for (const name of ['post', 'refactor', 'rate', 'delete']) {
      assert.ok((COMMANDS as readonly string[]).includes(name));
      assert.deepEqual(parse([name, '--help']), { name: 'help', topic: name });
      assert.deepEqual(parse(['--help', name]), { name: 'help', topic: name });
      const text = helpText(name) ?? '';
      assert.match(text, new RegExp(`^Usage: refactor-browser ${name} `));
      assert.match(text, /REFACTOR_BROWSER_TOKEN/);
    }
    assert.match(helpText() ?? '', /post FILE --title T --language L --comment C \[--tag TAG\]\.\.\./);
  });
});
