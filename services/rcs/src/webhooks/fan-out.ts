import { type Bus, subscribeToEvents } from '@msg/bus';
import {
  type CallbackRequest,
  callbackRequestMessage,
  type RcsDomainEvent,
  Topics,
} from '@msg/contracts';
import type { Logger } from '@msg/logger';
import { matchesEvent } from './event-vocabulary.js';
import { signWebhookBody, WEBHOOK_SIGNATURE_HEADER } from './signing.js';
import type { WebhookStore } from './store.js';

export interface FanOutOptions {
  bus: Bus;
  store: WebhookStore;
  logger: Logger;
  groupId: string;
  /** How long the notifier keeps retrying one delivery (giveUpAt = now + this). */
  retryHorizonMs: number;
}

/**
 * The callbacks.v1 requests of one event: one per enabled webhook of the agent whose
 * enabled_events match, the body serialised once here and signed here, so that the secret never
 * leaves the service (only its signature travels on Kafka) and the notifier sends exactly the
 * signed bytes (bodyText). callbackId = event_id + webhook id: a redelivered event is stored once.
 * The request's account is the webhook's creator: the notifier signs it (Standard Webhooks) with
 * that account's secret, the one its receiver can fetch, whichever account's message it concerns.
 */
export function webhookCallbacks(
  event: RcsDomainEvent,
  webhooks: {
    id: string;
    account_id: string | null;
    webhook_url: string;
    enabled_events: string[];
    secret: string;
  }[],
  giveUpAt: Date,
): CallbackRequest[] {
  const bodyText = JSON.stringify(event.event);
  return webhooks
    .filter((webhook) => matchesEvent(webhook.enabled_events, event.event.event_type))
    .map((webhook) => ({
      callbackId: `rcs:${event.event.event_id}:${webhook.id}`,
      accountId: webhook.account_id ?? event.accountId ?? `agent:${event.agentId}`,
      url: webhook.webhook_url,
      method: 'POST',
      bodyText,
      retryEveryFailure: true,
      headers: { [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(webhook.secret, bodyText) },
      giveUpAt: giveUpAt.toISOString(),
      origin: { service: 'rcs', kind: event.event.event_type },
    }));
}

/**
 * Reads rcs.events.v1 and asks the notifier (callbacks.v1) for each matching webhook. The
 * handler returns once the requests are published, so an event is fanned out at least once.
 */
export function subscribeWebhookFanOut({
  bus,
  store,
  logger,
  groupId,
  retryHorizonMs,
}: FanOutOptions) {
  const log = logger.child({ component: 'webhook-fan-out' });
  return subscribeToEvents(bus, {
    topic: Topics.rcsEvents,
    groupId,
    fromBeginning: true,
    handler: async (envelope) => {
      const event = envelope.payload;
      const webhooks = await store.enabledWithSecrets(event.agentId);
      const requests = webhookCallbacks(event, webhooks, new Date(Date.now() + retryHorizonMs));
      if (requests.length === 0) return;
      await bus.publish(
        Topics.callbacks,
        requests.map((request) => callbackRequestMessage(request, envelope.traceId)),
      );
      log.debug('event fanned out', {
        eventId: event.event.event_id,
        agentId: event.agentId,
        webhooks: requests.length,
      });
    },
  });
}
