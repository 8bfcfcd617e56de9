// The PostgreSQL server the tests may use: REFACTOR_BROWSER_TEST_DATABASE names it (a URL;
// scripts/withPostgres.sh starts a private one and sets it). A suite that needs it is pending
// without it on a developer's machine, and fails in CI, which must run it: postgresOrSkip says so
// in one place (test/unit/testHelpers.test.ts refuses a copy of the check in a test file).
import { skipOutsideCi } from './skip';

/** The variable naming the server. */
export const TEST_DATABASE_VARIABLE = 'REFACTOR_BROWSER_TEST_DATABASE';

/** The server's URL, or undefined when none is named (an empty value names none). */
export const TEST_DATABASE: string | undefined = testDatabase(process.env);

function testDatabase(env: NodeJS.ProcessEnv): string | undefined {
  return env[TEST_DATABASE_VARIABLE] || undefined;
}

/**
 * The server's URL, for a `before` hook (or a test) that needs it: without one it marks the suite
 * pending with `context.skip()`, or in CI fails saying what to set (skipOutsideCi). `env` is the
 * process's; a test of this helper passes its own.
 */
export function postgresOrSkip(context: Pick<Mocha.Context, 'skip'>, env: NodeJS.ProcessEnv = process.env): string {
  const url = testDatabase(env);
  if (url !== undefined) return url;
  return skipOutsideCi(context, `CI runs the PostgreSQL suites: set ${TEST_DATABASE_VARIABLE} (scripts/withPostgres.sh does)`, env);
}
