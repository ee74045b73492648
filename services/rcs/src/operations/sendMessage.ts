import type { RequestHandler } from 'express';
import type { AgentStore } from '../agents/agent-store.js';
import { agentForClient } from '../agents/client-agent.js';
import type { MessageStore } from '../messages/message-store.js';
import { checkSendRules, type SendMessageRequest } from '../messages/send-rules.js';

/**
 * POST /rcs/v1/messages (spec 2.5, 4.5): validated (the document, then checkSendRules), the
 * agent checked (unknown: 400 naming agent_id; not allowed for this account: 403;
 * conversational: 501), stored and queued, 202 with the message id and the echoed
 * client_message_id.
 */
export function sendMessage(
  agents: AgentStore,
  messages: MessageStore,
): RequestHandler<object, unknown, SendMessageRequest> {
  return async (req, res) => {
    const body = req.body;
    checkSendRules(body);
    // The access chain ran: the account is set.
    const account = req.account as NonNullable<typeof req.account>;
    const agent = await agentForClient(agents, body.agent_id, account.id, ['body', 'agent_id']);
    const clientMessageId = body.client_message_id ?? null;
    const messageId = await messages.accept({
      accountId: account.id,
      agentId: agent.id,
      recipient: body.recipient,
      clientMessageId,
      trafficType: body.message_traffic_type ?? agent.useCase,
      content: body.message as Record<string, unknown>,
      dryRun: body.dry_run,
      ...(req.requestId && { traceId: req.requestId }),
    });
    res.status(202).json({ message_id: messageId, client_message_id: clientMessageId });
  };
}
