// Which storage the owner's commands use: --data-dir or --database, else REFACTOR_BROWSER_DATA_DIR
// or REFACTOR_BROWSER_DATABASE, so that a folder need not be named on every command; two named at
// once is bad usage, never a guess.
import { strict as assert } from 'node:assert';
import { parseCommandLine, UsageError } from '../../../src/cli/args';

const storageOf = (argv: string[], env: NodeJS.ProcessEnv): unknown => (parseCommandLine(argv, env) as { storage?: unknown }).storage;

describe('refactor-browser: the storage the owner\'s commands use', () => {
  it('takes the folder from REFACTOR_BROWSER_DATA_DIR when no option names one, for every owner\'s command', () => {
    const env = { REFACTOR_BROWSER_DATA_DIR: '/srv/refactorings' };
    for (const argv of [['users', 'list'], ['import', 'x.json'], ['export'], ['serve']]) {
      assert.deepEqual(storageOf(argv, env), { kind: 'dir', dir: '/srv/refactorings' }, argv.join(' '));
    }
    assert.deepEqual(storageOf(['export', '--data-dir', '/tmp/other'], env), { kind: 'dir', dir: '/tmp/other' }, 'an option wins');
    assert.deepEqual(storageOf(['export', '--database', 'postgres://db/x'], env), { kind: 'database', url: 'postgres://db/x' });
    assert.equal(storageOf(['serve'], { REFACTOR_BROWSER_DATA_DIR: '' }), undefined, 'an empty variable names nothing');
  });

  it('refuses two storages named at once, in options or in the environment', () => {
    const both = { REFACTOR_BROWSER_DATA_DIR: '/srv/r', REFACTOR_BROWSER_DATABASE: 'postgres://db/x' };
    assert.throws(() => parseCommandLine(['users', 'list'], both), (e: unknown) => e instanceof UsageError && /REFACTOR_BROWSER_DATA_DIR and REFACTOR_BROWSER_DATABASE name two storages/.test(e.message));
    assert.deepEqual(storageOf(['users', 'list', '--data-dir', '/a'], both), { kind: 'dir', dir: '/a' }, 'an option settles it');
    assert.throws(() => parseCommandLine(['export', '--data-dir', '/a', '--database', 'postgres://db/x'], {}), /--data-dir and --database name two storages/);
  });
});
