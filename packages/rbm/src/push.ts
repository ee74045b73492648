import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Inbound pushes from RBM. Each push is a Pub/Sub-style envelope
 * `{message: {data: base64(JSON event), messageId, publishTime}, subscription}`; the header
 * X-Goog-Signature is base64(HMAC-SHA512(clientToken, DECODED data bytes)) — the decoded event,
 * not the envelope (as Google's samples verify it).
 */
export const SIGNATURE_HEADER = 'x-goog-signature';

export interface FileInfo {
  mimeType?: string;
  fileSizeBytes?: number;
  fileUri?: string;
  fileName?: string;
}

interface EventBase {
  senderPhoneNumber: string;
  agentId?: string;
  /** For status events, the agent message they are about; for user messages, the user's id. */
  messageId?: string;
  eventId?: string;
  sendTime?: string;
  /** The envelope's Pub/Sub message id and publish time. */
  pushMessageId?: string;
  publishTime?: string;
}

export type UserEventType = 'DELIVERED' | 'READ' | 'IS_TYPING' | 'SUBSCRIBE' | 'UNSUBSCRIBE';

export type RbmUserEvent = EventBase &
  (
    | { kind: 'status'; eventType: UserEventType }
    | { kind: 'text'; text: string }
    | { kind: 'file'; file: FileInfo; thumbnail?: FileInfo }
    | {
        kind: 'suggestion';
        suggestionType: 'REPLY' | 'ACTION' | 'UNKNOWN';
        text: string;
        postbackData: string;
      }
    | { kind: 'location'; latitude: number; longitude: number }
    /** A push we do not model (server events, new RBM kinds): kept whole for logging. */
    | { kind: 'other'; raw: Record<string, unknown> }
  );

/** RBM's own events: a message's TTL ran out and RBM revoked it (or could not). */
export type ServerEventType = 'TTL_EXPIRATION_REVOKED' | 'TTL_EXPIRATION_REVOKE_FAILED';

export interface RbmServerEvent {
  kind: 'server';
  eventType: ServerEventType;
  /** The recipient of the agent message (server events say phoneNumber, not senderPhoneNumber). */
  phoneNumber: string;
  messageId: string;
  agentId?: string;
  eventId?: string;
  sendTime?: string;
  pushMessageId?: string;
  publishTime?: string;
}

export type RbmPushEvent = RbmUserEvent | RbmServerEvent;

export class PushFormatError extends Error {
  override readonly name = 'PushFormatError';
}

const SERVER_EVENT_TYPES = new Set<string>([
  'TTL_EXPIRATION_REVOKED',
  'TTL_EXPIRATION_REVOKE_FAILED',
]);
const USER_EVENT_TYPES = new Set<string>([
  'DELIVERED',
  'READ',
  'IS_TYPING',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
]);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function parseBody(rawOrParsed: unknown): Json {
  let value = rawOrParsed;
  if (typeof value === 'string' || Buffer.isBuffer(value)) {
    try {
      value = JSON.parse(value.toString());
    } catch {
      throw new PushFormatError('body: not JSON');
    }
  }
  if (!isObject(value)) throw new PushFormatError('body: expected a JSON object');
  return value;
}

/** The decoded bytes of `message.data`; throws PushFormatError when the envelope is not RBM's. */
function envelopeData(body: Json): { data: Buffer; message: Json } {
  const message = body.message;
  if (!isObject(message)) throw new PushFormatError('message: expected an object');
  const data = str(message.data);
  if (data === undefined || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(data)) {
    throw new PushFormatError('message.data: expected base64');
  }
  return { data: Buffer.from(data, 'base64'), message };
}

export function signData(data: Buffer | string, clientToken: string): string {
  return createHmac('sha512', clientToken).update(data).digest('base64');
}

/**
 * True when `header` is the RBM signature of this push for `clientToken`. Compared in constant
 * time; any malformed body or header is simply not verified (false), never an exception.
 */
export function verifyPushSignature(
  rawBody: string | Buffer,
  header: string | string[] | undefined,
  clientToken: string,
): boolean {
  if (typeof header !== 'string' || header === '' || clientToken === '') return false;
  let data: Buffer;
  try {
    data = envelopeData(parseBody(rawBody)).data;
  } catch {
    return false;
  }
  const expected = Buffer.from(signData(data, clientToken));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function fileInfo(value: unknown): FileInfo | undefined {
  if (!isObject(value)) return undefined;
  const size = value.fileSizeBytes;
  return {
    ...(str(value.mimeType) !== undefined && { mimeType: str(value.mimeType) }),
    ...((typeof size === 'number' || typeof size === 'string') &&
      Number.isFinite(Number(size)) && { fileSizeBytes: Number(size) }),
    ...(str(value.fileUri) !== undefined && { fileUri: str(value.fileUri) }),
    ...(str(value.fileName) !== undefined && { fileName: str(value.fileName) }),
  };
}

function serverEvent(event: Json, envelope: Json): RbmServerEvent | undefined {
  const eventType = str(event.eventType);
  const phoneNumber = str(event.phoneNumber);
  const messageId = str(event.messageId);
  if (!eventType || !SERVER_EVENT_TYPES.has(eventType) || !phoneNumber || !messageId) {
    return undefined;
  }
  const result: RbmServerEvent = {
    kind: 'server',
    eventType: eventType as ServerEventType,
    phoneNumber,
    messageId,
  };
  for (const key of ['agentId', 'eventId', 'sendTime'] as const) {
    const value = str(event[key]);
    if (value !== undefined) result[key] = value;
  }
  const pushMessageId = str(envelope.messageId);
  const publishTime = str(envelope.publishTime);
  if (pushMessageId !== undefined) result.pushMessageId = pushMessageId;
  if (publishTime !== undefined) result.publishTime = publishTime;
  return result;
}

/** Turns the decoded event JSON into a typed user or server event. */
export function toPushEvent(event: Json, envelope: Json = {}): RbmPushEvent {
  const server = serverEvent(event, envelope);
  if (server) return server;
  const sender = str(event.senderPhoneNumber);
  if (sender === undefined) {
    throw new PushFormatError('senderPhoneNumber: missing (not a user event)');
  }
  const base: EventBase = { senderPhoneNumber: sender };
  for (const key of ['agentId', 'messageId', 'eventId', 'sendTime'] as const) {
    const value = str(event[key]);
    if (value !== undefined) base[key] = value;
  }
  const pushMessageId = str(envelope.messageId);
  const publishTime = str(envelope.publishTime);
  if (pushMessageId !== undefined) base.pushMessageId = pushMessageId;
  if (publishTime !== undefined) base.publishTime = publishTime;

  const eventType = str(event.eventType);
  if (eventType !== undefined && USER_EVENT_TYPES.has(eventType)) {
    return { ...base, kind: 'status', eventType: eventType as UserEventType };
  }
  const text = str(event.text);
  if (text !== undefined) return { ...base, kind: 'text', text };
  if (isObject(event.userFile)) {
    const file = fileInfo(event.userFile.payload) ?? {};
    const thumbnail = fileInfo(event.userFile.thumbnail);
    return { ...base, kind: 'file', file, ...(thumbnail && { thumbnail }) };
  }
  if (isObject(event.suggestionResponse)) {
    const response = event.suggestionResponse;
    const type = str(response.type);
    return {
      ...base,
      kind: 'suggestion',
      suggestionType: type === 'REPLY' || type === 'ACTION' ? type : 'UNKNOWN',
      text: str(response.text) ?? '',
      postbackData: str(response.postbackData) ?? '',
    };
  }
  if (isObject(event.location)) {
    const { latitude, longitude } = event.location;
    if (typeof latitude === 'number' && typeof longitude === 'number') {
      return { ...base, kind: 'location', latitude, longitude };
    }
  }
  return { ...base, kind: 'other', raw: event };
}

/** Decodes a push body (raw or already parsed JSON) into its typed user or server event. */
export function decodePush(body: unknown): RbmPushEvent {
  const { data, message } = envelopeData(parseBody(body));
  let event: unknown;
  try {
    event = JSON.parse(data.toString('utf8'));
  } catch {
    throw new PushFormatError('message.data: the decoded data is not JSON');
  }
  if (!isObject(event)) throw new PushFormatError('message.data: expected a JSON object');
  return toPushEvent(event, message);
}

export interface SetupHandshake {
  clientToken: string;
  secret: string;
}

/** The webhook set-up request RBM sends once: `{clientToken, secret}` (no message field). */
export function parseSetupHandshake(body: unknown): SetupHandshake | undefined {
  let value: Json;
  try {
    value = parseBody(body);
  } catch {
    return undefined;
  }
  const clientToken = str(value.clientToken);
  const secret = str(value.secret);
  return clientToken !== undefined && secret !== undefined ? { clientToken, secret } : undefined;
}

/**
 * The answer to a set-up handshake: 200 with the secret as the whole (text) body when the token
 * is ours, 403 otherwise. The token comparison is constant-time as well.
 */
export function answerSetupHandshake(
  handshake: SetupHandshake,
  clientToken: string,
): { status: 200 | 403; body: string } {
  const given = Buffer.from(handshake.clientToken);
  const ours = Buffer.from(clientToken);
  const matches = given.length === ours.length && timingSafeEqual(given, ours);
  return matches ? { status: 200, body: handshake.secret } : { status: 403, body: 'forbidden' };
}
