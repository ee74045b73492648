// Number intelligence base-view lookups through the gateway, on real Postgres (the suite process
// runs every service with the HLR simulator and imports the sample registry snapshot):
//  - a bare express endpoint behind the same gateway process (the floor);
//  - the same Swedish number again and again (200, registry answer);
//  - the same number with If-None-Match (304: no body, still a counted lookup);
//  - a different Swedish number each request (registry block lookup, never seen before);
//  - a different German number each request (range metadata + carrier data, no registry).
import { load } from './load.mjs';
import { basic, numbered, startPlatform } from './platform.mjs';
import { withDatabase } from './processes.mjs';

const COUNT = 3000;
const CONCURRENCY = 32;
const MAX_SECONDS = 30;

export async function run() {
  return withDatabase(async (databaseUrl) => {
    // Real Postgres, in-process bus: the account directory needs no Kafka here. The bare floor
    // is the sms upstream.
    const platform = await startPlatform({ databaseUrl, upstreams: ['numbers'], floor: 'sms' });
    const { gatewayUrl } = platform;
    try {
      await platform.account('bench-numbers', {
        permissions: ['numbers'],
        numberScopes: ['numbers:read'],
      });
      const authorization = basic('bench-numbers');
      // Until the account has reached the numbers service's directory.
      const deadline = Date.now() + 20_000;
      let first;
      while (Date.now() < deadline) {
        first = await fetch(`${gatewayUrl}/v1/numbers/46701234567`, { headers: { authorization } });
        if (first.status === 200) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      if (first?.status !== 200) throw new Error(`numbers not usable: ${first?.status}`);
      const etag = first.headers.get('etag');
      const common = { count: COUNT, concurrency: CONCURRENCY, maxSeconds: MAX_SECONDS };
      const rows = [];
      rows.push({
        name: 'bare express behind the gateway (floor)',
        ...(await load({ url: platform.floorUrl, ...common })),
      });
      rows.push({
        name: 'same number (200, registry)',
        ...(await load({
          url: `${gatewayUrl}/v1/numbers/46701234567`,
          headers: { authorization },
          ...common,
        })),
      });
      rows.push({
        name: 'same number, If-None-Match (304)',
        ...(await load({
          url: `${gatewayUrl}/v1/numbers/46701234567`,
          headers: { authorization, 'if-none-match': etag },
          ...common,
        })),
      });
      const swedish = numbered('4670', 7);
      rows.push({
        name: 'new Swedish number each time (200, registry block)',
        ...(await load({
          url: () => `${gatewayUrl}/v1/numbers/${swedish()}`,
          headers: { authorization },
          ...common,
        })),
      });
      const german = numbered('49151', 8);
      rows.push({
        name: 'new German number each time (200, number range + carrier)',
        ...(await load({
          url: () => `${gatewayUrl}/v1/numbers/${german()}`,
          headers: { authorization },
          ...common,
        })),
      });
      return {
        title: `Number intelligence base view through one gateway process (${COUNT} requests or ${MAX_SECONDS} s, ${CONCURRENCY} concurrent; ms)`,
        rows,
      };
    } finally {
      await platform.stop();
    }
  });
}
