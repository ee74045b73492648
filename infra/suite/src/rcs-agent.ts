import got, { HTTPError } from 'got';

/** How long the rcs service may take to receive a new account over accounts.v1. */
const ACCOUNT_ARRIVAL_MS = 30_000;

/**
 * Makes sure the demo RCS agent exists, the demo account may send as it, and (when given) its RBM
 * credentials are `credentials` — through the rcs service's operator API, exactly as an operator
 * would (`pnpm rcs agents ...`). Accounts already allowed stay allowed, so it is safe on every
 * start; the credentials are stored again each time (the simulator's key is new at every start).
 */
export async function seedRcsAgent(
  rcsUrl: string,
  adminToken: string,
  agentId: string,
  accountId: string,
  credentials?: object,
): Promise<void> {
  const api = got.extend({
    prefixUrl: `${rcsUrl}/internal/v1`,
    headers: { authorization: `Bearer ${adminToken}` },
    responseType: 'json',
    timeout: { request: 30_000 },
  });
  const agent = `agents/${encodeURIComponent(agentId)}`;
  const stored = credentials && { credentials };
  await accountArrived(api, accountId);
  try {
    await api.get(agent);
    if (stored) await api.patch(agent, { json: stored });
  } catch (error) {
    if (!(error instanceof HTTPError && error.response.statusCode === 404)) throw error;
    await api.post('agents', {
      json: { agent_id: agentId, display_name: 'Demo agent', use_case: 'TRANSACTION', ...stored },
    });
  }
  await api.put(`${agent}/accounts/${encodeURIComponent(accountId)}`);
}

/**
 * The rcs service refuses accounts it does not know; one created a moment ago reaches it over
 * accounts.v1 within moments. Its settings answer 404 until then.
 */
async function accountArrived(api: typeof got, accountId: string): Promise<void> {
  const deadline = Date.now() + ACCOUNT_ARRIVAL_MS;
  for (;;) {
    const res = await api(`account-settings/${encodeURIComponent(accountId)}`, {
      throwHttpErrors: false,
    });
    if (res.statusCode === 200) return;
    if (res.statusCode !== 404 || Date.now() > deadline) {
      throw new Error(
        `the rcs service did not learn of account ${accountId}: ${res.statusCode} ${JSON.stringify(res.body)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
