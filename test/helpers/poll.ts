// Waiting for what something else makes true in its own time (a server's side of a socket, another
// process, another instance of the store, VS Code's tabs): the one polling loop of the tests
// (test/unit/testHelpers.test.ts refuses a second). It imports no Node module, so the integration
// tests the browser's web worker extension host runs (test/integration/shared/) use it too.

/**
 * Asks `probe` again, `everyMs` after each answer, until it gives a value other than undefined or
 * false, and resolves to that value; after `timeoutMs` it fails with "timed out after N ms waiting
 * for <what>". The bound only keeps a regression from hanging: on a loaded machine a loopback event
 * can take a while, so callers make it generous.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  what: string,
  timeoutMs = 10_000,
  everyMs = 20,
): Promise<Exclude<T, undefined | false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as Exclude<T, undefined | false>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Reads again with `read` until `done` holds of what it gave, and resolves to that answer: waitFor
 * for a check made on each answer (a service's page, an access log).
 */
export function waitForAnswer<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  return waitFor(async () => {
    const value = await read();
    return done(value) ? { value } : undefined;
  }, what, timeoutMs).then(({ value }) => value);
}
