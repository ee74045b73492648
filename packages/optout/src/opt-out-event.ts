import { createHash } from 'node:crypto';
import type { BusMessage } from '@msg/bus';
import {
  type EventEnvelope,
  makeEvent,
  OPT_OUT_EVENT,
  type OptOutChange,
  optOutKey,
  type SmsInbound,
} from '@msg/contracts';
import { classifyInbound } from './keywords.js';

/**
 * A UUID (version 5 layout) made from `parts`: the same inbound SMS always yields the same event
 * id, so a redelivered inbound event lands on the outbox row already there (ON CONFLICT DO NOTHING)
 * instead of publishing a second change.
 */
function derivedEventId(...parts: string[]): string {
  const hash = createHash('sha1').update(parts.join('\u0000')).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An optouts.v1 message, its change typed (enqueue it as any BusMessage). */
export interface OptOutMessage extends BusMessage {
  value: EventEnvelope<OptOutChange>;
}

/**
 * The optouts.v1 message of a change, keyed `<accountId>:<msisdn>`. `eventId` fixes the event's id
 * (a derived one, for dedupe); otherwise it is random.
 */
export function optOutMessage(
  change: OptOutChange,
  options: { eventId?: string; traceId?: string } = {},
): OptOutMessage {
  const event = makeEvent(OPT_OUT_EVENT, change, {
    accountId: change.accountId,
    ...(options.traceId && { traceId: options.traceId }),
  });
  return {
    key: optOutKey(change.accountId, change.msisdn),
    value: options.eventId ? { ...event, id: options.eventId } : event,
  };
}

/**
 * What the owner of a platform number publishes for an inbound SMS, once it knows which account
 * the number was serving for its sender: an optouts.v1 message when the text is a stop word (the
 * platform's or one of `accountWords`, the account's `optOutKeywords`) or a start word, else null.
 * Enqueue it through the service's outbox. `sourceEventId` (the sms.inbound.v1 event's id) makes
 * the event id deterministic, so handling the same inbound SMS twice publishes one change.
 *
 * The change takes effect at `inbound.receivedAt`: against an operator's edit of the same
 * recipient, the later of the two wins, whichever event arrives first.
 */
export function optOutEventFor(
  inbound: SmsInbound,
  accountId: string,
  accountWords: readonly string[] = [],
  { sourceEventId }: { sourceEventId?: string } = {},
): OptOutMessage | null {
  const match = classifyInbound(inbound.text, accountWords);
  if (!match) return null;
  return optOutMessage(
    {
      accountId,
      msisdn: inbound.from,
      optedOut: match.kind === 'stop',
      keyword: match.keyword,
      source: 'inbound',
      at: inbound.receivedAt,
    },
    sourceEventId ? { eventId: derivedEventId('optout', sourceEventId, accountId) } : {},
  );
}
