import type { ProtectedSenderDirectory } from '@msg/auth';
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
  createAgent,
  deleteAgent,
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

/** The operator's per-account settings (/internal/v1/account-settings; SMS fallback enablement). */
export function accountSettingsRoutes(app: Express, settings: AccountSettingsStore): void {
  app.get('/internal/v1/account-settings', listAccountSettings(settings));
  app.get('/internal/v1/account-settings/:account_id', getAccountSettings(settings));
  app.patch('/internal/v1/account-settings/:account_id', updateAccountSettings(settings));
}

/** The operator's agent API (/internal/v1/agents; not routed by the gateway). */
export function agentRoutes(app: Express, agents: AgentStore): void {
  app.get('/internal/v1/agents', listAgents(agents));
  app.post('/internal/v1/agents', createAgent(agents));
  app.get('/internal/v1/agents/:agent_id', getAgent(agents));
  app.patch('/internal/v1/agents/:agent_id', updateAgent(agents));
  app.delete('/internal/v1/agents/:agent_id', deleteAgent(agents));
}
