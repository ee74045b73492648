import got from 'got';

/**
 * The embedded default's reply-path pool: the mobile range Post- och telestyrelsen (PTS) keeps
 * for fiction and drama (070-174 06 05 to 070-174 06 99), so no real subscriber is ever sent to
 * from the demo.
 */
export const FICTION_POOL = { from: '+46701740605', to: '+46701740699' } as const;

/**
 * Adds the fiction range to the reply-path pool through the service's pool API, exactly as an
 * operator would (`pnpm replypath add-range`); numbers already there are left as they are, so it
 * is safe on every start. Answers the pool as it is now.
 */
export async function seedReplypathPool(replypathUrl: string, adminToken: string) {
  const api = got.extend({
    prefixUrl: `${replypathUrl}/internal/v1/pool`,
    headers: { authorization: `Bearer ${adminToken}` },
    responseType: 'json',
    timeout: { request: 30_000 },
  });
  await api.post('numbers', { json: FICTION_POOL });
  const { numbers } = await api
    .get('numbers')
    .json<{ numbers: { number: string; enabled: boolean }[] }>();
  return numbers;
}

/** "+46701740605..+46701740699 (95 enabled)": consecutive numbers folded into ranges. */
export function describePool(numbers: { number: string; enabled: boolean }[]): string {
  const enabled = numbers.filter((n) => n.enabled).map((n) => n.number);
  if (enabled.length === 0) return '(empty: add numbers with pnpm replypath add-range)';
  const ranges: string[] = [];
  let start = enabled[0] as string;
  let previous = start;
  for (const number of [...enabled.slice(1), '']) {
    const consecutive =
      number.length === previous.length &&
      BigInt(number.slice(1)) === BigInt(previous.slice(1)) + 1n;
    if (!consecutive) {
      ranges.push(start === previous ? start : `${start}..${previous}`);
      start = number;
    }
    previous = number;
  }
  return `${ranges.join(', ')} (${enabled.length} enabled)`;
}
