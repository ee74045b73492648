import got, { HTTPError } from 'got';

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
    prefixUrl: `${rcsUrl}/internal/v1/agents`,
    headers: { authorization: `Bearer ${adminToken}` },
    responseType: 'json',
    timeout: { request: 30_000 },
  });
  const id = encodeURIComponent(agentId);
  const stored = credentials && { credentials };
  try {
    const agent = await api.get(id).json<{ accounts: string[] }>();
    if (agent.accounts.includes(accountId) && !stored) return;
    const accounts = agent.accounts.includes(accountId)
      ? agent.accounts
      : [...agent.accounts, accountId];
    await api.patch(id, { json: { accounts, ...stored } });
  } catch (error) {
    if (!(error instanceof HTTPError && error.response.statusCode === 404)) throw error;
    await api.post('', {
      json: {
        agent_id: agentId,
        display_name: 'Demo agent',
        use_case: 'TRANSACTION',
        accounts: [accountId],
        ...stored,
      },
    });
  }
}
