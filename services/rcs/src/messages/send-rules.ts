import type { components } from '@msg/contracts/rcs';
import { type ErrorDetail, ValidationError } from '@msg/http';
import { checkLength, checkSenderPermission, MAX_PARTS, type SenderRules } from '@msg/sms-text';

export type SendMessageRequest = components['schemas']['SendMessageRequest'];

// What the rules read of a message. The generated CardContent is `unknown` (openapi-typescript
// renders its anyOf of `required` lists so), hence these few members spelled out.
type Suggestion = components['schemas']['Suggestion'];
type CardContent = { suggestions?: Suggestion[] };
interface Message {
  suggestions?: Suggestion[];
  rich_card?: {
    standalone_card?: { card_content: CardContent };
    carousel_card?: { card_contents: CardContent[] };
  };
}

/** Every suggestion of the message with where it is: the message's chips and each card's. */
function suggestionsOf(message: Message): { at: string[]; suggestion: Suggestion }[] {
  const listed = (list: Suggestion[] | undefined, at: string[]) =>
    (list ?? []).map((suggestion, i) => ({ at: [...at, String(i)], suggestion }));
  const card = message.rich_card;
  const cards: { content: CardContent; at: string[] }[] = card?.standalone_card
    ? [
        {
          content: card.standalone_card.card_content,
          at: ['rich_card', 'standalone_card', 'card_content'],
        },
      ]
    : (card?.carousel_card?.card_contents ?? []).map((content: CardContent, i: number) => ({
        content,
        at: ['rich_card', 'carousel_card', 'card_contents', String(i)],
      }));
  return [
    ...listed(message.suggestions, ['body', 'message', 'suggestions']),
    ...cards.flatMap(({ content, at }) =>
      listed(content.suggestions, ['body', 'message', ...at, 'suggestions']),
    ),
  ];
}

/**
 * The fallback SMS's rules, the SMS interface's own (@msg/sms-text): a sender id the account may
 * use (its form, its registered ids, the operator's protected names), and a text within 10 parts
 * in its encoding.
 */
function smsFallbackProblems(
  fallback: { sender: string; text: string },
  senders: SenderRules,
): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const sender = checkSenderPermission({ sender: fallback.sender, ...senders });
  if (!sender.ok) {
    problems.push({
      loc: ['body', 'sms_fallback', 'sender'],
      msg: sender.message,
      type: sender.reason,
    });
  }
  const length = checkLength(fallback.text);
  if (!length.ok) {
    problems.push({
      loc: ['body', 'sms_fallback', 'text'],
      msg:
        length.reason === 'empty'
          ? 'must not be empty'
          : `at most ${MAX_PARTS} SMS parts: this text needs ${length.parts} (1530 GSM-7 or 670 UCS-2 characters fit)`,
      type: length.reason,
    });
  }
  return problems;
}

/**
 * The rules of a send the document cannot state (it has checked everything else):
 * - `sms_fallback` only for an account the operator enabled it for (spec 2.5 has it "not yet
 *   enabled": anything but null is refused otherwise), and then by the SMS rules;
 * - a calendar event ends after it starts.
 * Every problem is named at once, as the validator does.
 */
export function checkSendRules(
  body: SendMessageRequest,
  options: { smsFallbackEnabled: boolean; senders: SenderRules },
): void {
  const problems: ErrorDetail[] = [];
  if (body.sms_fallback !== undefined && body.sms_fallback !== null) {
    if (options.smsFallbackEnabled) {
      problems.push(...smsFallbackProblems(body.sms_fallback, options.senders));
    } else {
      problems.push({
        loc: ['body', 'sms_fallback'],
        msg: 'SMS fallback is not enabled for this account',
        type: 'not_enabled',
      });
    }
  }
  for (const { at, suggestion } of suggestionsOf(body.message as Message)) {
    const event = suggestion.action?.create_calendar_event_action;
    if (event && Date.parse(event.end_time) <= Date.parse(event.start_time)) {
      problems.push({
        loc: [...at, 'action', 'create_calendar_event_action', 'end_time'],
        msg: 'must be after start_time',
        type: 'after_start',
      });
    }
  }
  if (problems.length > 0) throw new ValidationError('Request validation failed', problems);
}
