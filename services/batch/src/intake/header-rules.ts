import {
  clientUrlRule,
  type ErrorDetail,
  isClientUrl,
  type TargetPolicy,
  ValidationError,
} from '@msg/http';
import { checkSenderPermission, type SenderRules } from '@msg/sms-text';
import { parseScheduleAt, SCHEDULE_HORIZON_MS } from './schedule-at.js';

/** The members of `batch` besides `recipients` (BatchRequest in the batch OpenAPI document). */
export const HEADER_MEMBERS = [
  'sms_config',
  'external_batch_id',
  'schedule_at',
  'notification_settings',
  'dry_run',
] as const;
export type HeaderMember = (typeof HEADER_MEMBERS)[number];

/** What the batch row is made of, once every header rule holds. */
export interface BatchHeader {
  senderId: string;
  messageTemplate: string;
  validityMinutes: number | null;
  deliveryReport: boolean;
  externalBatchId: string | null;
  /** As given (past or future); null when absent. */
  scheduledAt: Date | null;
  callbackUrl: string | null;
  callbackToken: string | null;
  dryRun: boolean;
}

type Loc = string[];

/** Collects every broken rule of one member, so one answer names them all. */
class Problems {
  readonly details: ErrorDetail[] = [];
  add(loc: Loc, type: string, msg: string): void {
    this.details.push({ loc, msg, type });
  }
  throwIfAny(): void {
    if (this.details.length === 0) return;
    throw new ValidationError(
      this.details.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '),
      this.details,
    );
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function checkString(
  p: Problems,
  loc: Loc,
  value: unknown,
  { min = 0, max }: { min?: number; max: number },
): value is string {
  if (typeof value !== 'string') {
    p.add(loc, 'type', 'must be a string');
    return false;
  }
  if (value.length < min) {
    p.add(loc, 'minLength', `must be at least ${min} character${min === 1 ? '' : 's'}`);
    return false;
  }
  if (value.length > max) {
    p.add(loc, 'maxLength', `must be at most ${max} characters`);
    return false;
  }
  return true;
}

function checkMembers(p: Problems, loc: Loc, value: Record<string, unknown>, known: string[]) {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) p.add([...loc, key], 'additionalProperties', 'is not a known field');
  }
}

const base = (member: string): Loc => ['body', 'batch', member];

function smsConfig(value: unknown, senders: SenderRules): Partial<BatchHeader> {
  const p = new Problems();
  const loc = base('sms_config');
  if (!isObject(value)) {
    p.add(loc, 'type', 'must be an object');
    p.throwIfAny();
    return {};
  }
  checkMembers(p, loc, value, [
    'sender_id',
    'message_template',
    'validity_period_minutes',
    'delivery_report',
  ]);
  const { sender_id, message_template, validity_period_minutes, delivery_report } = value;
  if (sender_id === undefined) p.add([...loc, 'sender_id'], 'missing', 'is required');
  else if (checkString(p, [...loc, 'sender_id'], sender_id, { min: 1, max: 16 })) {
    // Its form, and whether the account may send as it (registered ids, protected names).
    const check = checkSenderPermission({ sender: sender_id, ...senders });
    if (!check.ok) p.add([...loc, 'sender_id'], check.reason, check.message);
  }
  if (message_template === undefined) {
    p.add([...loc, 'message_template'], 'missing', 'is required');
  } else checkString(p, [...loc, 'message_template'], message_template, { min: 1, max: 10_000 });
  if (validity_period_minutes !== undefined) {
    const at = [...loc, 'validity_period_minutes'];
    if (typeof validity_period_minutes !== 'number' || !Number.isInteger(validity_period_minutes)) {
      p.add(at, 'type', 'must be an integer');
    } else if (validity_period_minutes < 1) p.add(at, 'minimum', 'must be at least 1');
    else if (validity_period_minutes > 10_080) {
      p.add(at, 'maximum', 'must be at most 10080 (7 days)');
    }
  }
  if (delivery_report !== undefined && typeof delivery_report !== 'boolean') {
    p.add([...loc, 'delivery_report'], 'type', 'must be a boolean');
  }
  p.throwIfAny();
  return {
    senderId: sender_id as string,
    messageTemplate: message_template as string,
    validityMinutes: (validity_period_minutes as number | undefined) ?? null,
    deliveryReport: (delivery_report as boolean | undefined) ?? false,
  };
}

function notificationSettings(value: unknown, clientUrls: TargetPolicy): Partial<BatchHeader> {
  if (value === null) return { callbackUrl: null, callbackToken: null };
  const p = new Problems();
  const loc = base('notification_settings');
  if (!isObject(value)) {
    p.add(loc, 'type', 'must be an object or null');
    p.throwIfAny();
    return {};
  }
  checkMembers(p, loc, value, ['batch_event_callback_url', 'batch_event_callback_token']);
  const { batch_event_callback_url: url, batch_event_callback_token: token } = value;
  const urlLoc = [...loc, 'batch_event_callback_url'];
  if (url === undefined) p.add(urlLoc, 'missing', 'is required');
  else if (checkString(p, urlLoc, url, { min: 1, max: 2048 }) && !isClientUrl(url, clientUrls)) {
    p.add(urlLoc, 'format', clientUrlRule(clientUrls));
  }
  if (token !== undefined) {
    checkString(p, [...loc, 'batch_event_callback_token'], token, { max: 64 });
  }
  p.throwIfAny();
  return { callbackUrl: url as string, callbackToken: (token as string | undefined) ?? null };
}

function externalBatchId(value: unknown): Partial<BatchHeader> {
  if (value === null) return { externalBatchId: null };
  const p = new Problems();
  if (typeof value !== 'string')
    p.add(base('external_batch_id'), 'type', 'must be a string or null');
  else checkString(p, base('external_batch_id'), value, { max: 128 });
  p.throwIfAny();
  return { externalBatchId: value as string };
}

function scheduleAt(value: unknown, now: Date): Partial<BatchHeader> {
  if (value === null) return { scheduledAt: null };
  const p = new Problems();
  const loc = base('schedule_at');
  if (typeof value !== 'string') {
    p.add(loc, 'type', 'must be an ISO 8601 date-time string or null');
    p.throwIfAny();
  }
  const at = parseScheduleAt(value as string);
  if (!at) {
    p.add(
      loc,
      'format',
      'must be an ISO 8601 date-time such as 2026-12-01T09:00:00 or 2026-12-01T10:00:00+01:00 (no zone = UTC)',
    );
  } else if (at.getTime() - now.getTime() > SCHEDULE_HORIZON_MS) {
    p.add(loc, 'maximum', 'must be at most 7 days ahead');
  }
  p.throwIfAny();
  return { scheduledAt: at };
}

function dryRun(value: unknown): Partial<BatchHeader> {
  if (typeof value !== 'boolean') {
    throw ValidationError.field(base('dry_run'), 'type', 'must be a boolean');
  }
  return { dryRun: value };
}

/** What the header rules need besides the body: the time, and who may send as what. */
export interface HeaderContext {
  now: Date;
  /** The account's registered sender ids and the operator's protected names. */
  senders: SenderRules;
  /** Whether `batch_event_callback_url` may name a private host (CALLBACK_ALLOW_PRIVATE_TARGETS). */
  clientUrls: TargetPolicy;
}

/**
 * Checks one member of `batch` (not recipients) as soon as it has been read and returns its part
 * of the header; throws a ValidationError naming every broken rule of that member.
 */
export function checkHeaderMember(
  member: HeaderMember,
  value: unknown,
  { now, senders, clientUrls }: HeaderContext,
): Partial<BatchHeader> {
  switch (member) {
    case 'sms_config':
      return smsConfig(value, senders);
    case 'notification_settings':
      return notificationSettings(value, clientUrls);
    case 'external_batch_id':
      return externalBatchId(value);
    case 'schedule_at':
      return scheduleAt(value, now);
    case 'dry_run':
      return dryRun(value);
  }
}

/** The whole header once the body has ended: required members present, defaults filled in. */
export function completeHeader(
  parts: Partial<BatchHeader>,
  seen: { smsConfig: boolean },
): BatchHeader {
  if (!seen.smsConfig || parts.senderId === undefined || parts.messageTemplate === undefined) {
    throw ValidationError.field(base('sms_config'), 'missing', 'is required');
  }
  return {
    senderId: parts.senderId,
    messageTemplate: parts.messageTemplate,
    validityMinutes: parts.validityMinutes ?? null,
    deliveryReport: parts.deliveryReport ?? false,
    externalBatchId: parts.externalBatchId ?? null,
    scheduledAt: parts.scheduledAt ?? null,
    callbackUrl: parts.callbackUrl ?? null,
    callbackToken: parts.callbackToken ?? null,
    dryRun: parts.dryRun ?? false,
  };
}
