/**
 * Spec 4.5 rule 5 lists two vocabularies for `enabled_events`: the event types of 6.3 (on
 * create) and a second one (on update). Both are accepted everywhere; the second is mapped onto
 * the first when stored, so that one set is matched against event types and returned.
 */
export const EVENT_TYPES = [
  '*',
  'rcs.in.text',
  'rcs.in.file',
  'rcs.in.suggested.reply',
  'rcs.in.suggested.action',
  'rcs.out.delivered',
  'rcs.out.read',
  'rcs.out.failed',
  'sms.out.sent',
  'rcs.sub.subscribed',
  'rcs.sub.unsubscribed',
] as const;

/**
 * The second vocabulary onto the first. `message.sent` and `user.typing` have no counterpart
 * among the events of 6.3 (nothing is reported when RBM accepts a message; typing is not an
 * event): they are kept as given and match an event of exactly that type, none today.
 */
export const SECOND_VOCABULARY: Record<string, string> = {
  'message.sent': 'message.sent',
  'message.delivered': 'rcs.out.delivered',
  'message.read': 'rcs.out.read',
  'message.failed': 'rcs.out.failed',
  'user.typing': 'user.typing',
  'user.subscribed': 'rcs.sub.subscribed',
  'user.unsubscribed': 'rcs.sub.unsubscribed',
  'user.opted_in': 'rcs.sub.subscribed',
  'user.opted_out': 'rcs.sub.unsubscribed',
};

export const ALL_EVENTS = [...EVENT_TYPES, ...Object.keys(SECOND_VOCABULARY)];

/** What is stored: first vocabulary, each once, in the order given; `*` alone when present. */
export function normalizeEvents(events: readonly string[]): string[] {
  const mapped = events.map((event) => SECOND_VOCABULARY[event] ?? event);
  return mapped.includes('*') ? ['*'] : [...new Set(mapped)];
}

const SIMULATED_PREFIX = 'test.rcs.out.';

/**
 * Whether a webhook subscribed to `enabled` receives an event of `eventType`. A simulated event
 * (`test.rcs.out.delivered` of a dry run) goes where its real counterpart would.
 */
export function matchesEvent(enabled: readonly string[], eventType: string): boolean {
  if (enabled.includes('*') || enabled.includes(eventType)) return true;
  return (
    eventType.startsWith(SIMULATED_PREFIX) &&
    enabled.includes(`rcs.out.${eventType.slice(SIMULATED_PREFIX.length)}`)
  );
}
