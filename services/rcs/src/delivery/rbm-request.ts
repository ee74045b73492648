import type { AgentMessageRequest, ContentMessage, MessageTrafficType } from '@msg/rbm';

const camel = (key: string) =>
  key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** Every member name in camelCase, values unchanged (enums are the same on both sides). */
function camelKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, member]) => [camel(key), camelKeys(member)]),
  );
}

/**
 * Our validated `message` (snake_case, OpenAPI `Message`) as RBM's `contentMessage`. Each of our
 * members is RBM's own field in snake_case (file_url/fileUrl, postback_data/postbackData,
 * lat_long/latLong, webview_view_mode/webviewViewMode, ...), so the mapping is the case alone;
 * the send rules already enforced RBM's structure and limits.
 */
export function toContentMessage(content: Record<string, unknown>): ContentMessage {
  return camelKeys(content) as ContentMessage;
}

/**
 * The whole `agentMessages.create` body. MESSAGE_TRAFFIC_TYPE_UNSPECIFIED is RBM's "not set":
 * it is left out (RBM then applies the agent's default). `ttlSeconds` becomes a Duration.
 */
export function toAgentMessageRequest(message: {
  content: Record<string, unknown>;
  messageTrafficType: string;
  ttlSeconds?: number | null | undefined;
}): AgentMessageRequest {
  return {
    contentMessage: toContentMessage(message.content),
    ...(message.messageTrafficType !== 'MESSAGE_TRAFFIC_TYPE_UNSPECIFIED' && {
      messageTrafficType: message.messageTrafficType as MessageTrafficType,
    }),
    ...(message.ttlSeconds && { ttl: `${message.ttlSeconds}s` }),
  };
}
