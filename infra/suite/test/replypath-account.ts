import { eventually } from '@msg/testing';
import { createGatewayAccount, type GatewayAccount, type Platform } from './platform.js';

/**
 * An account with the replypath permission (and `settings`, e.g. callbacks), once the replypath
 * service knows it: it arrives over the bus, and a dry run (instantiate=false) answers 200 only
 * after it has.
 */
export async function replypathAccount(
  platform: Platform,
  prefix: string,
  settings: Record<string, unknown> = {},
): Promise<GatewayAccount> {
  const account = await createGatewayAccount(platform, prefix, ['replypath'], settings);
  await eventually(
    async () => {
      const res = await account.gateway.post('replypath/v1/sendsms?instantiate=false', {
        json: { To: '0701234599', Msg: 'x' },
      });
      return res.statusCode === 200 ? true : undefined;
    },
    'the account at the replypath service',
    30_000,
  );
  return account;
}
