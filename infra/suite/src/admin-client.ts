import { NUMBER_SCOPES, PERMISSIONS } from '@msg/contracts';
import got, { HTTPError } from 'got';

export interface DemoAccount {
  username: string;
  password: string;
  apiKey: string;
  /** Its registered voice caller ID and default sender (admin voiceCallerIds). */
  voiceCallerId: string;
}

function adminApi(adminUrl: string, adminToken: string) {
  return got.extend({
    prefixUrl: `${adminUrl}/internal/v1/accounts`,
    headers: { authorization: `Bearer ${adminToken}` },
    responseType: 'json',
    timeout: { request: 30_000 },
  });
}

/**
 * The in-process bus keeps nothing across restarts, while the embedded database may: publishing
 * every stored account again refills the account directories of a restarted suite.
 */
export async function republishAccounts(adminUrl: string, adminToken: string): Promise<void> {
  await adminApi(adminUrl, adminToken).post('republish');
}

/**
 * Makes sure the demo account exists with every permission and scope, the given password and API
 * key, and a registered voice caller ID — through the admin API, exactly as an operator would. Safe to run on every start.
 */
export async function seedDemoAccount(
  adminUrl: string,
  adminToken: string,
  demo: DemoAccount,
): Promise<{ id: string }> {
  const api = adminApi(adminUrl, adminToken);
  const name = encodeURIComponent(demo.username);
  const settings = {
    permissions: [...PERMISSIONS],
    numberScopes: [...NUMBER_SCOPES],
    voiceCallerIds: [demo.voiceCallerId],
    voiceDefaultSender: demo.voiceCallerId,
  };
  try {
    await api.get(name);
    await api.patch(name, { json: { ...settings, callbacks: {} } });
    await api.post(`${name}/enable`);
  } catch (error) {
    if (!(error instanceof HTTPError && error.response.statusCode === 404)) throw error;
    await api.post('', { json: { name: demo.username, ...settings } });
  }
  await api.put(`${name}/password`, { json: { password: demo.password } });
  const account = await api
    .get(name)
    .json<{ id: string; apiKeys: { id: string; prefix: string }[] }>();
  // Replace an earlier demo key of the same prefix rather than piling keys up across restarts.
  for (const key of account.apiKeys.filter((k) => demo.apiKey.startsWith(k.prefix))) {
    await api.delete(`${name}/api-keys/${key.id}`);
  }
  await api.post(`${name}/api-keys`, { json: { apiKey: demo.apiKey } });
  return { id: account.id };
}
