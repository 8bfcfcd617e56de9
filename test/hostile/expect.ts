// Assertions the hostile suites share: how a failed CLI run must look, and how a client call fails.

import { strict as assert } from 'node:assert';
import { ApiError } from '../../src/core/errors';
import type { CliRun } from './runCli';

/** Exit 1, nothing on stdout, exactly one line on stderr naming `url` and matching `cause`, no stack. */
export function assertCliFailure(run: CliRun, url: string, cause: RegExp): void {
  assert.equal(run.code, 1, `exit code (stderr: ${run.stderr})`);
  assert.equal(run.stdout, '');
  assert.ok(run.stderr.endsWith('\n'), JSON.stringify(run.stderr));
  const lines = run.stderr.slice(0, -1).split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got: ${run.stderr}`);
  assert.ok(lines[0].startsWith('refactor-browser: '), lines[0]);
  assert.ok(lines[0].includes(url), `names ${url}: ${lines[0]}`);
  assert.match(lines[0], cause);
  assert.doesNotMatch(run.stderr, /\bat .*\(.*:\d+:\d+\)|Error:/, 'no stack trace or error class name');
}

/** The ApiError a call rejects with (fails the test if it resolves or throws something else). */
export async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    const value = await promise;
    assert.fail(`expected an ApiError, got a value: ${JSON.stringify(value)?.slice(0, 200)}`);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return e;
  }
}
