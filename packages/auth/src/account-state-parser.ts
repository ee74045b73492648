import { type AccountState, accountStateSchema } from '@msg/contracts';

/**
 * A well-formed AccountState built from an untrusted payload, or null when it is not one. The
 * rules (unknown permissions dropped, missing limits read as none) are accounts.v1's schema in
 * @msg/contracts; the directory checks again because it also reads sources that are not a Bus.
 */
export function parseAccountState(value: unknown): AccountState | null {
  const parsed = accountStateSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
