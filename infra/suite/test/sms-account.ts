import { eventually } from '@msg/testing';
import { createGatewayAccount, type GatewayAccount, type Platform } from './platform.js';

/**
 * An account with the sms permission (and `settings`, e.g. `billingMode`), once the sms service
 * knows it: it arrives over the bus, and a status query for an unknown message answers 404 (not
 * 401) only after it has.
 */
export async function smsAccount(
  platform: Platform,
  prefix: string,
  settings: Record<string, unknown> = {},
): Promise<GatewayAccount> {
  const account = await createGatewayAccount(platform, prefix, ['sms'], settings);
  await eventually(
    async () => {
      const res = await account.gateway.get('v1/sms/00000000-0000-4000-8000-000000000000');
      return res.statusCode === 404 ? true : undefined;
    },
    'the account at the sms service',
    30_000,
    100,
  );
  return account;
}
