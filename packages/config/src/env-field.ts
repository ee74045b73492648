import { z } from 'zod';

/**
 * Building block of every field helper: an environment value is a string that either parses
 * into a typed value or fails with one message naming the rule. The message is the rule only;
 * loadConfig adds the variable name and the offending value, so all messages read alike.
 */
export function envField<T>(rule: string, parse: (raw: string) => T | undefined) {
  return z.string({ error: rule }).transform((raw, ctx): T => {
    const value = parse(raw);
    if (value === undefined) {
      ctx.issues.push({ code: 'custom', message: rule, input: raw });
      return z.NEVER;
    }
    return value;
  });
}

/**
 * A default is written in the same form as the variable itself (prefault), so it goes through
 * the same parser as a real value and describeConfig can print it as an operator would type it.
 * A default that its own rule rejects is a programming error, caught where the field is declared.
 */
export function checkedDefault<T>(
  rule: string,
  parse: (raw: string) => T | undefined,
  raw: string,
): string {
  if (parse(raw) === undefined)
    throw new TypeError(`default "${raw}" breaks its own rule: ${rule}`);
  return raw;
}

/** Comma-separated list: entries trimmed, empty entries ("a,,b", trailing comma) dropped. */
export function splitList(raw: string): string[] {
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}
