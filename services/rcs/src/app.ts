import type { AccountLookup, ProtectedSenderDirectory } from '@msg/auth';
import { internalDocumentPath, openapiDocumentPath } from '@msg/contracts';
import {
  createService,
  type IdempotencyStore,
  type KitHttpOptions,
  type ReadinessCheck,
  type TargetPolicy,
} from '@msg/http';
import type { RequestHandler } from 'express';
import type { AgentStore } from './agents/agent-store.js';
import type { CapabilityChecker } from './capability/index.js';
import type { AccountSettingsStore } from './fallback/account-settings.js';
import { rcsErrorFormat } from './http/error-format.js';
import type { MessageStore } from './messages/message-store.js';
import { addTester } from './operations/addTester.js';
import { allowAgentAccount } from './operations/allowAgentAccount.js';
import { createAgent } from './operations/createAgent.js';
import { createWebhook } from './operations/createWebhook.js';
import { deleteAgent } from './operations/deleteAgent.js';
import { deleteWebhook } from './operations/deleteWebhook.js';
import { denyAgentAccount } from './operations/denyAgentAccount.js';
import { disableWebhook } from './operations/disableWebhook.js';
import { enableWebhook } from './operations/enableWebhook.js';
import { getAccountSettings } from './operations/getAccountSettings.js';
import { getAgent } from './operations/getAgent.js';
import { getCapabilities } from './operations/getCapabilities.js';
import { getLiveness } from './operations/getLiveness.js';
import { getReadiness } from './operations/getReadiness.js';
import { getTester } from './operations/getTester.js';
import { getWebhook } from './operations/getWebhook.js';
import { listAccountSettings } from './operations/listAccountSettings.js';
import { listAgents } from './operations/listAgents.js';
import { listTesters } from './operations/listTesters.js';
import { listWebhooks } from './operations/listWebhooks.js';
import {
  RBM_PUSH_PATH,
  type ReceiveRbmEventDeps,
  receiveRbmEvent,
} from './operations/receiveRbmEvent.js';
import { regenerateWebhookSecret } from './operations/regenerateWebhookSecret.js';
import { removeTester } from './operations/removeTester.js';
import { sendMessage } from './operations/sendMessage.js';
import { testWebhook } from './operations/testWebhook.js';
import { updateAccountSettings } from './operations/updateAccountSettings.js';
import { updateAgent } from './operations/updateAgent.js';
import { updateTester } from './operations/updateTester.js';
import { updateWebhook } from './operations/updateWebhook.js';
import type { SubscriptionStore } from './subscriptions/subscription-store.js';
import type { TesterDeps } from './testers/tester-access.js';
import { type WebhookDeps, webhookAccess } from './webhooks/webhook-access.js';

/** What the operations beyond health use, by area of the documents. */
export interface RcsOperations {
  /** sendMessage and getCapabilities (/rcs/v1). */
  sending: {
    agents: AgentStore;
    messages: MessageStore;
    settings: AccountSettingsStore;
    /** The operator's protected sender names, for `sms_fallback.sender`. */
    protectedSenders: Pick<ProtectedSenderDirectory, 'names'>;
    subscriptions?: SubscriptionStore;
    capability: CapabilityChecker;
  };
  /**
   * The operator's agents and per-account settings (/internal/v1; not routed by the gateway).
   * `accounts` turns the id or name an operator gives into the account's id.
   */
  operator: { agents: AgentStore; settings: AccountSettingsStore; accounts: AccountLookup };
  /** receiveRbmEvent: RBM's pushes. */
  push: ReceiveRbmEventDeps;
  /** /rcs/v1/testers. */
  testers: TesterDeps;
  /** /v1/webhooks (startWebhooks). */
  webhooks: WebhookDeps;
}

export interface RcsAppDeps {
  /** The document's apiKeyAuth + clientIdAuth: rcsAccess (401, 403, 429). */
  access: RequestHandler;
  /** The document's adminBearer: RCS_ADMIN_TOKEN (requireServiceToken). */
  adminBearer: RequestHandler;
  /**
   * Idempotency-Key records of POST /rcs/v1/messages (createPostgresIdempotencyStore), scoped to
   * the authenticated account. Absent (an app built for one route in a test): keys are ignored.
   */
  idempotencyStore?: IdempotencyStore;
  /**
   * The operations beyond health, each area mounted when given (service.ts gives them all; a
   * test may build an app of one area). An area not given is not served.
   */
  operations: Partial<RcsOperations>;
  /** The kit's part of createService (ServiceContext.http of @msg/service-kit). */
  http: KitHttpOptions;
  /**
   * Outside platforms (RBM) the public readiness (/rcs/v1/health/ready, spec 4.5) reports too.
   * Not in the kit's /readyz: an orchestrator must not take replicas out (sends are still
   * accepted and queued) nor hold start-up for an outage no restart can fix.
   */
  platformReadiness?: ReadinessCheck[];
  /** Whether webhook_url may name a private host (RCS_WEBHOOK_ALLOW_PRIVATE_TARGETS); refused by default. */
  clientUrls?: TargetPolicy;
}

/**
 * A message is at most 11 suggestions and 10 cards of bounded text: far below 64 kB even with
 * every character escaped, so a larger body is refused before it is parsed.
 */
export const RCS_BODY_LIMIT = '64kb';

/** The RCS HTTP app. Never listens: main.ts (or a test) does. */
export function createApp(deps: RcsAppDeps) {
  return createService({
    ...deps.http,
    name: 'rcs',
    openapiPath: openapiDocumentPath('rcs'),
    internalOpenapiPath: internalDocumentPath('rcs'),
    errorFormat: rcsErrorFormat,
    bodyLimit: RCS_BODY_LIMIT,
    // RBM signs the exact bytes it pushes: the push route reads its body itself.
    rawBodyPaths: [RBM_PUSH_PATH],
    // Spec 2.5: unknown fields in any request are dropped silently and logged.
    unknownBodyMembers: 'drop',
    ...(deps.clientUrls && { clientUrls: deps.clientUrls }),
    // Both headers are one credential: the access chain reads them together.
    authenticators: {
      apiKeyAuth: deps.access,
      clientIdAuth: (_req, _res, next) => next(),
      adminBearer: deps.adminBearer,
    },
    // The access chain (apiKeyAuth) set req.account: a key is the account's, never another's.
    ...(deps.idempotencyStore && {
      idempotency: { store: deps.idempotencyStore, scope: (req) => req.account?.id },
    }),
    routes: (app) => {
      app.get('/rcs/v1/health/live', getLiveness());
      app.get(
        '/rcs/v1/health/ready',
        getReadiness([...deps.http.readiness, ...(deps.platformReadiness ?? [])]),
      );
      const { sending, operator, push, testers, webhooks } = deps.operations;
      if (sending) {
        const { agents, messages, settings, protectedSenders, subscriptions } = sending;
        app.post(
          '/rcs/v1/messages',
          sendMessage(agents, messages, settings, protectedSenders, subscriptions),
        );
        app.get('/rcs/v1/capabilities', getCapabilities(agents, sending.capability));
      }
      if (operator) {
        const { agents, settings, accounts } = operator;
        const agent = '/internal/v1/agents/:agent_id';
        app.get('/internal/v1/agents', listAgents(agents));
        app.post('/internal/v1/agents', createAgent(agents, accounts));
        app.get(agent, getAgent(agents));
        app.patch(agent, updateAgent(agents, accounts));
        app.delete(agent, deleteAgent(agents));
        app.put(`${agent}/accounts/:account`, allowAgentAccount(agents, accounts));
        app.delete(`${agent}/accounts/:account`, denyAgentAccount(agents, accounts));
        const account = '/internal/v1/account-settings/:account';
        app.get('/internal/v1/account-settings', listAccountSettings(settings));
        app.get(account, getAccountSettings(settings, accounts));
        app.patch(account, updateAccountSettings(settings, accounts));
      }
      if (webhooks) {
        const access = webhookAccess(webhooks);
        const webhook = '/v1/webhooks/:webhook_id';
        app.get('/v1/webhooks', listWebhooks(access));
        app.post('/v1/webhooks', createWebhook(access));
        app.get(webhook, getWebhook(access));
        app.delete(webhook, deleteWebhook(access));
        app.post(`${webhook}/disable`, disableWebhook(access));
        app.post(`${webhook}/enable`, enableWebhook(access));
        app.patch(webhook, updateWebhook(access));
        app.post(`${webhook}/regenerate-secret`, regenerateWebhookSecret(access));
        app.post(`${webhook}/test`, testWebhook(access));
      }
      if (push) app.post(RBM_PUSH_PATH, ...receiveRbmEvent(push));
      if (testers) {
        const tester = '/rcs/v1/testers/:phone_number';
        app.get('/rcs/v1/testers', listTesters(testers));
        app.post('/rcs/v1/testers', addTester(testers));
        app.get(tester, getTester(testers));
        app.patch(tester, updateTester(testers));
        app.delete(tester, removeTester(testers));
      }
    },
  });
}
