import got, { HTTPError } from 'got';

/**
 * Makes sure the demo RCS agent exists and the demo account may send as it, through the rcs
 * service's operator API, exactly as an operator would (`pnpm rcs agents ...`). Accounts already
 * allowed stay allowed, so it is safe on every start.
 */
export async function seedRcsAgent(
  rcsUrl: string,
  adminToken: string,
  agentId: string,
  accountId: string,
): Promise<void> {
  const api = got.extend({
    prefixUrl: `${rcsUrl}/internal/v1/agents`,
    headers: { authorization: `Bearer ${adminToken}` },
    responseType: 'json',
    timeout: { request: 30_000 },
  });
  const id = encodeURIComponent(agentId);
  try {
    const agent = await api.get(id).json<{ accounts: string[] }>();
    if (agent.accounts.includes(accountId)) return;
    await api.patch(id, { json: { accounts: [...agent.accounts, accountId] } });
  } catch (error) {
    if (!(error instanceof HTTPError && error.response.statusCode === 404)) throw error;
    await api.post('', {
      json: {
        agent_id: agentId,
        display_name: 'Demo agent',
        use_case: 'TRANSACTION',
        accounts: [accountId],
      },
    });
  }
}
