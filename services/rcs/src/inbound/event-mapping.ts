import { createHash } from 'node:crypto';
import type { RcsWebhookEvent } from '@msg/contracts';
import type { FileInfo, RbmPushEvent, RbmUserEvent } from '@msg/rbm';

/**
 * `evt_` + the first 32 hex of sha256(push id): a push RBM delivers again gives the same event id
 * (shared RCS decision). A second event of the same push (a stop word's rcs.sub.unsubscribed)
 * hashes its type too, so each occurrence keeps its own id.
 */
export function pushEventId(pushId: string, secondOf?: string): string {
  const input = secondOf === undefined ? pushId : `${pushId}#${secondOf}`;
  return `evt_${createHash('sha256').update(input).digest('hex').slice(0, 32)}`;
}

/** What identifies a push for deduplication: the envelope's message id, else RBM's event id. */
export function pushIdOf(event: RbmPushEvent): string | undefined {
  if (event.pushMessageId) return event.pushMessageId;
  return event.eventId ? `event:${event.eventId}` : undefined;
}

/**
 * When the event happened, as RFC 3339 with milliseconds: RBM's sendTime (nanoseconds are cut),
 * else the push's publish time, else now.
 */
export function sendTimeOf(event: RbmPushEvent, now: Date): string {
  for (const candidate of [event.sendTime, event.publishTime]) {
    if (candidate === undefined) continue;
    const at = new Date(candidate);
    if (!Number.isNaN(at.getTime())) return at.toISOString();
  }
  return now.toISOString();
}

/** The members of an event beyond type, agent, time and id (2.5's webhook event payload). */
export type EventBody = Omit<RcsWebhookEvent, 'event_type' | 'agent_id' | 'send_time' | 'event_id'>;

/** An event to publish: its type and members (the store adds agent, time and id). */
export interface PlannedEvent {
  type: string;
  body: EventBody;
}

function payloadFile(file: FileInfo) {
  return {
    ...(file.mimeType !== undefined && { mime_type: file.mimeType }),
    ...(file.fileSizeBytes !== undefined && { file_size_bytes: file.fileSizeBytes }),
    ...(file.fileName !== undefined && { file_name: file.fileName }),
    ...(file.fileUri !== undefined && { file_uri: file.fileUri }),
  };
}

/** 2.5 lists no file name for the thumbnail. */
function thumbnailFile(file: FileInfo) {
  const { file_name: _name, ...rest } = payloadFile(file);
  return rest;
}

/**
 * The event a user message becomes (6.3): rcs.in.text, rcs.in.file, rcs.in.suggested.reply or
 * .action; undefined for kinds 6.3 has no event for (a shared location, a suggestion of unknown
 * type, kinds RBM adds later). `message_id` is RBM's id of the user's message.
 */
export function userMessageEvent(event: RbmUserEvent): PlannedEvent | undefined {
  const base: EventBody = {
    sender_phone_number: event.senderPhoneNumber,
    ...(event.messageId !== undefined && { message_id: event.messageId }),
  };
  switch (event.kind) {
    case 'text':
      return { type: 'rcs.in.text', body: { ...base, text: event.text } };
    case 'file':
      return {
        type: 'rcs.in.file',
        body: {
          ...base,
          user_file: {
            payload: payloadFile(event.file),
            ...(event.thumbnail && { thumbnail: thumbnailFile(event.thumbnail) }),
          },
        },
      };
    case 'suggestion': {
      if (event.suggestionType === 'UNKNOWN') return undefined;
      return {
        type:
          event.suggestionType === 'REPLY' ? 'rcs.in.suggested.reply' : 'rcs.in.suggested.action',
        body: {
          ...base,
          content_message: {
            suggestion_response: {
              postback_data: event.postbackData,
              text: event.text,
              type: event.suggestionType,
            },
          },
        },
      };
    }
    default:
      return undefined;
  }
}
