import type { AccountLookup, ProtectedSenderDirectory } from '@msg/auth';
import type { Express } from 'express';
import type { AgentStore } from './agents/agent-store.js';
import { type CapabilityChecker, getCapabilities } from './capability/index.js';
import type { AccountSettingsStore } from './fallback/account-settings.js';
import type { MessageStore } from './messages/message-store.js';
import {
  getAccountSettings,
  listAccountSettings,
  updateAccountSettings,
} from './operations/accountSettings.js';
import {
  allowAgentAccount,
  createAgent,
  deleteAgent,
  denyAgentAccount,
  getAgent,
  listAgents,
  updateAgent,
} from './operations/agents.js';
import { sendMessage } from './operations/sendMessage.js';
import type { SubscriptionStore } from './subscriptions/subscription-store.js';

/** The public sending operations (/rcs/v1). */
export function messageRoutes(
  app: Express,
  deps: {
    agents: AgentStore;
    messages: MessageStore;
    settings: AccountSettingsStore;
    /** The operator's protected sender names, for `sms_fallback.sender`. */
    protectedSenders: Pick<ProtectedSenderDirectory, 'names'>;
    subscriptions?: SubscriptionStore;
    capability: CapabilityChecker;
  },
): void {
  app.post(
    '/rcs/v1/messages',
    sendMessage(
      deps.agents,
      deps.messages,
      deps.settings,
      deps.protectedSenders,
      deps.subscriptions,
    ),
  );
  app.get('/rcs/v1/capabilities', getCapabilities(deps.agents, deps.capability));
}

/**
 * The operator's per-account settings (/internal/v1/account-settings; SMS fallback enablement).
 * `accounts` turns the id or name an operator gives into the account's id.
 */
export function accountSettingsRoutes(
  app: Express,
  settings: AccountSettingsStore,
  accounts: AccountLookup,
): void {
  app.get('/internal/v1/account-settings', listAccountSettings(settings));
  app.get('/internal/v1/account-settings/:account', getAccountSettings(settings, accounts));
  app.patch('/internal/v1/account-settings/:account', updateAccountSettings(settings, accounts));
}

/** The operator's agent API (/internal/v1/agents; not routed by the gateway). */
export function agentRoutes(app: Express, agents: AgentStore, accounts: AccountLookup): void {
  app.get('/internal/v1/agents', listAgents(agents));
  app.post('/internal/v1/agents', createAgent(agents, accounts));
  app.get('/internal/v1/agents/:agent_id', getAgent(agents));
  app.patch('/internal/v1/agents/:agent_id', updateAgent(agents, accounts));
  app.delete('/internal/v1/agents/:agent_id', deleteAgent(agents));
  app.put('/internal/v1/agents/:agent_id/accounts/:account', allowAgentAccount(agents, accounts));
  app.delete('/internal/v1/agents/:agent_id/accounts/:account', denyAgentAccount(agents, accounts));
}
