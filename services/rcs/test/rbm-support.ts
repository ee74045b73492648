import { generateKeyPairSync } from 'node:crypto';
import type { AccountState, EventEnvelope, RcsDomainEvent } from '@msg/contracts';
import { Topics } from '@msg/contracts';
import { type RbmSimulator, startRbmSimulator } from '@msg/rbm-simulator';
import { eventually, type LocalServer, listenLocal } from '@msg/testing';
import request from 'supertest';
import { startTestRcs, type TestRcs } from './support.js';

export const CLIENT_TOKEN = 'rbm-client-token-for-tests';
export const PUSH_PATH = '/rcs/v1/rbm/events';

/** A service-account key file as the RBM console hands it out. */
export function serviceAccountKey() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    type: 'service_account',
    client_email: 'agent@rbm-sim.iam.gserviceaccount.com',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/**
 * The RCS service (listening on 127.0.0.1, RCS_RBM_* pointing at the simulator) and
 * infra/rbm-simulator pushing to the service's push endpoint with the client token, as the
 * suite wires them; an account and agents that hold the simulator's service account.
 */
export async function startRcsWithRbm() {
  const key = serviceAccountKey();
  const sim: RbmSimulator = await startRbmSimulator({
    serviceAccount: { clientEmail: key.client_email, key: key.private_key },
    deliverDelayMs: 50,
    readDelayMs: 50,
    pushAttempts: 3,
    pushRetryBaseMs: 50,
  });
  const rcs: TestRcs = await startTestRcs({
    perMinute: 100_000,
    env: {
      RCS_RBM_BASE_URL: sim.url,
      RCS_RBM_TOKEN_URL: sim.tokenUrl,
      RCS_RBM_CLIENT_TOKEN: CLIENT_TOKEN,
    },
  });
  const server: LocalServer = await listenLocal(rcs.app);
  sim.setWebhook({ url: `${server.url}${PUSH_PATH}`, clientToken: CLIENT_TOKEN });
  const acct = await rcs.publishAccount(rcs.account());

  /** The simulator's control API (JSON). */
  async function control<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const response = await fetch(`${sim.url}/control${path}`, {
      method,
      ...(body !== undefined && {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as T };
  }

  /** RCS events published on rcs.events.v1 matching `where`. */
  const eventsWhere = (where: (event: RcsDomainEvent) => boolean) =>
    rcs.published
      .filter((p) => p.topic === Topics.rcsEvents)
      .map((p) => p.value as EventEnvelope<RcsDomainEvent>)
      .filter((envelope) => where(envelope.payload));

  return {
    rcs,
    sim,
    acct,
    key,
    server,
    control,
    eventsWhere,

    /** An agent with the simulator's credentials that `accounts` (default: acct) may use. */
    agent(agentId: string, accounts: AccountState[] = [acct]) {
      return rcs.agent(agentId, accounts, { credentials: key });
    },

    /** Waits for `count` events of `type` from `phone` to agent `agentId`. */
    async awaitEvents(agentId: string, type: string, phone: string, count = 1) {
      return eventually(async () => {
        const found = eventsWhere(
          (e) =>
            e.agentId === agentId &&
            e.event.event_type === type &&
            e.event.sender_phone_number === phone,
        );
        return found.length >= count ? found.map((f) => f.payload) : undefined;
      }, `${count} ${type} event(s) from ${phone}`);
    },

    /** The value of a counter sample on the service's /metrics. */
    async counter(name: string, labels: string): Promise<number> {
      const res = await request(rcs.app).get('/metrics');
      const line = res.text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
      return line ? Number(line.split(' ').at(-1)) : 0;
    },

    async stop() {
      await server.close();
      await rcs.stop();
      await sim.close();
    },
  };
}

export type RcsWithRbm = Awaited<ReturnType<typeof startRcsWithRbm>>;
