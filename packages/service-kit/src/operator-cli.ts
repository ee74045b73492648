// The operator CLIs of the services (their `cli.ts`) share this; it is a client of a service, not
// part of serving HTTP, so it lives with the kit beside runService rather than in @msg/http.

/** A refusal a CLI prints as is (no stack): bad arguments, or the service's error answer. */
export class CliError extends Error {}

/**
 * The calls of an operator CLI to a service's internal API (`pnpm replypath`, `pnpm rcs`):
 * Bearer token, JSON both ways, 15 s timeout; a non-2xx answer is a CliError with the status and
 * the body; an empty answer is `{ok: true}`.
 */
export function operatorApi(baseUrl: string, token: string) {
  return async (method: string, path = '', body?: unknown): Promise<unknown> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    if (!res.ok) throw new CliError(`${res.status} ${text}`);
    return text ? JSON.parse(text) : { ok: true };
  };
}

/** Runs a CLI's main: prints its result (text as is, else JSON) or `<name>: <error>` and exit 1. */
export async function runCli(name: string, main: () => Promise<unknown>): Promise<void> {
  try {
    const result = await main();
    process.stdout.write(
      typeof result === 'string' ? `${result}\n` : `${JSON.stringify(result, null, 2)}\n`,
    );
  } catch (error) {
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
