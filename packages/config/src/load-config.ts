import type { z } from 'zod';
import { ConfigError } from './config-error.js';
import { deepFreeze } from './deep-freeze.js';
import { type ConfigShape, defaultOf, isSecret } from './introspect.js';

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Names that hold credentials even when the schema author forgot secret(): their values are
 * never echoed in a problem message, which ends up in logs.
 */
const SENSITIVE_NAME = /SECRET|PASSWORD|PASSWD|TOKEN|API_?KEY|PRIVATE|CREDENTIAL/i;
const ECHO_LIMIT = 60;

/**
 * Parses the variables named by the schema's keys. An empty variable counts as unset, because
 * `FOO=` in a compose or env file usually means "not configured" rather than "the empty string".
 * Every problem is reported at once; the result is deep-frozen.
 */
export function loadConfig<S extends z.ZodObject>(
  schema: S,
  env: Env = process.env,
): Readonly<z.output<S>> {
  const shape: ConfigShape = schema.shape;
  assertSchemaIsSound(shape);

  const input: Record<string, string> = {};
  for (const name of Object.keys(shape)) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') input[name] = raw;
  }

  const result = schema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => describeIssue(issue, shape, env));
    throw new ConfigError([...new Set(problems)]);
  }
  return deepFreeze(result.data);
}

export interface ExitIo {
  stderr: { write(text: string): unknown };
  exit(code: number): never;
}

/**
 * For main.ts: a configuration problem is an operator error, not a crash, so it is printed
 * plainly (no stack) and the process exits 1. Anything else is rethrown untouched.
 */
export function exitOnConfigError<T>(load: () => T, io: ExitIo = process): T {
  try {
    return load();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`${error.message}\n`);
    return io.exit(1);
  }
}

/** Mistakes in the schema itself are programming errors, reported before any value is read. */
function assertSchemaIsSound(shape: ConfigShape): void {
  for (const [name, field] of Object.entries(shape)) {
    // Spreading a fragment instead of its .shape copies zod's internals in as "fields".
    if (typeof field !== 'object' || field === null || !('_zod' in field)) {
      throw new TypeError(
        `${name} is not a zod schema; spread a fragment's .shape, not the fragment`,
      );
    }
    if (isSecret(field) && defaultOf(field) !== undefined) {
      throw new TypeError(`${name} is a secret and must not have a default`);
    }
  }
}

function describeIssue(issue: z.core.$ZodIssue, shape: ConfigShape, env: Env): string {
  const name = issue.path.map(String).join('.') || '(config)';
  const key = String(issue.path[0] ?? '');
  const raw = env[key];
  if (raw === undefined && issue.code === 'invalid_type') return `${name}: required, not set`;
  if (raw === '' && issue.code === 'invalid_type') return `${name}: required, is empty`;
  if (raw === undefined || raw === '') return `${name}: ${issue.message}`;
  const field = shape[key];
  const hidden = SENSITIVE_NAME.test(key) || (field !== undefined && isSecret(field));
  return `${name}: ${issue.message}, got ${hidden ? 'a value (hidden)' : echo(raw)}`;
}

function echo(raw: string): string {
  // A URL that fails to parse may still carry user:password; keep that part out of logs.
  const redacted = raw.replace(/\/\/[^@/\s]*@/, '//***@');
  const shown = JSON.stringify(redacted.slice(0, ECHO_LIMIT));
  return redacted.length > ECHO_LIMIT ? `${shown}… (${redacted.length} characters)` : shown;
}
