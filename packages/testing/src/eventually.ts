/**
 * Polls `probe` until it returns something other than undefined and answers that; fails naming
 * `what` after `timeoutMs`. For conditions that produce the value the test goes on with (an
 * event, a row); for assertions that throw until they pass, use vitest's `vi.waitFor`. Probes
 * through the gateway poll every 100 ms or more (`everyMs`): faster polling spends the account's
 * rate limit and turns the awaited answer into a 429.
 */
export async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 10_000,
  everyMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
