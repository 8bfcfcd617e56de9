// A test that needs what a developer's machine may lack (a PostgreSQL server, openssl) is pending
// there and fails in CI, which must have it and run the test: CI set, as every CI service sets it.
// postgresOrSkip (test/helpers/postgres.ts) and certificateOrSkip (test/hostile/tls.ts) end here.

/** Marks the test or suite pending with `context.skip()`; in CI, throws `ciMessage` instead. */
export function skipOutsideCi(context: Pick<Mocha.Context, 'skip'>, ciMessage: string, env: NodeJS.ProcessEnv = process.env): never {
  if (env.CI) throw new Error(ciMessage);
  return context.skip();
}
