import { NUMBER_SCOPES, PERMISSIONS } from '@msg/contracts';
import got, { HTTPError } from 'got';

/**
 * The demo account's registered SMS sender id: the README's examples send `from: ACME` and batch
 * `sender_id: ACME`. Being registered, it is the only alphanumeric sender the demo may use
 * (issue 23: an account's registered sender ids bind every SMS path).
 */
export const DEMO_SENDER_ID = 'ACME';

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
 * every stored account, and the protected sender names, again refills the directories of a
 * restarted suite.
 */
export async function republishAdminTopics(adminUrl: string, adminToken: string): Promise<void> {
  await adminApi(adminUrl, adminToken).post('republish');
  await got.post(`${adminUrl}/internal/v1/protected-senders/republish`, {
    headers: { authorization: `Bearer ${adminToken}` },
    timeout: { request: 30_000 },
  });
}

/**
 * Makes sure the demo account exists with every permission and scope, the given password and API
 * key, its SMS sender id (DEMO_SENDER_ID) and a registered voice caller ID — through the admin API,
 * exactly as an operator would. Safe to run on every start.
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
    senderIds: [DEMO_SENDER_ID],
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
