import type { ProtectedSenderDirectory } from '@msg/auth';
import type { RequestHandler } from 'express';
import type { AgentStore } from '../agents/agent-store.js';
import { agentForClient } from '../agents/client-agent.js';
import type { AccountSettingsStore } from '../fallback/account-settings.js';
import type { MessageStore } from '../messages/message-store.js';
import { checkSendRules, type SendMessageRequest } from '../messages/send-rules.js';
import type { SubscriptionStore } from '../subscriptions/subscription-store.js';
import { RecipientUnsubscribedError } from '../subscriptions/unsubscribed-error.js';

/**
 * POST /rcs/v1/messages (spec 2.5, 4.5): validated (the document, then checkSendRules: the
 * account's SMS fallback enablement is read only for a send that carries one), the agent
 * checked (unknown: 400 naming agent_id; not allowed for this account: 403; conversational:
 * 501), a recipient who unsubscribed from the agent refused (400 RECIPIENT_UNSUBSCRIBED),
 * stored and queued, 202 with the message id and the echoed client_message_id.
 */
export function sendMessage(
  agents: AgentStore,
  messages: MessageStore,
  settings: Pick<AccountSettingsStore, 'smsFallbackEnabled'>,
  protectedSenders: Pick<ProtectedSenderDirectory, 'names'>,
  subscriptions?: Pick<SubscriptionStore, 'isUnsubscribed'>,
): RequestHandler<object, unknown, SendMessageRequest> {
  return async (req, res) => {
    const body = req.body;
    // The access chain ran: the account is set.
    const account = req.account as NonNullable<typeof req.account>;
    const fallback = body.sms_fallback ?? null;
    // Asked only when the send carries a fallback: the common send reads no settings.
    checkSendRules(body, {
      smsFallbackEnabled: fallback !== null && (await settings.smsFallbackEnabled(account.id)),
      // The fallback's sender: one the account may use, as on the SMS interface (issue 23).
      senders: { registered: account.senderIds, protectedNames: protectedSenders.names() },
    });
    const agent = await agentForClient(agents, body.agent_id, account.id, ['body', 'agent_id']);
    // Spec 6.3: an unsubscribe is honoured at once (400 RECIPIENT_UNSUBSCRIBED).
    if (await subscriptions?.isUnsubscribed(agent.id, body.recipient)) {
      throw new RecipientUnsubscribedError();
    }
    const clientMessageId = body.client_message_id ?? null;
    const messageId = await messages.accept({
      accountId: account.id,
      agentId: agent.id,
      recipient: body.recipient,
      clientMessageId,
      trafficType: body.message_traffic_type ?? agent.useCase,
      content: body.message as Record<string, unknown>,
      dryRun: body.dry_run,
      smsFallback: fallback && { sender: fallback.sender, text: fallback.text },
      ttlSeconds: body.ttl ?? null,
      ...(req.requestId && { traceId: req.requestId }),
    });
    res.status(202).json({ message_id: messageId, client_message_id: clientMessageId });
  };
}
