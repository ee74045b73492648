import { isIpRule } from '@msg/auth';
import type { components } from '@msg/contracts/internal/admin';
import { type ErrorDetail, ValidationError } from '@msg/http';
import { accountKeywordProblem } from '@msg/optout';
import { validateSenderId } from '@msg/sms-text';

/** The operator-settable members of an account (the OpenAPI `Settings` schema). */
export type AccountSettings = components['schemas']['Settings'];

/**
 * Rules the OpenAPI document cannot express: IP rules must parse, sender ids must follow the
 * specification's sender-id table, and URLs must be absolute http(s) URLs.
 */
export function checkSettings(settings: AccountSettings): void {
  const details: ErrorDetail[] = [];
  settings.ipAllowList?.forEach((rule, i) => {
    if (!isIpRule(rule)) {
      details.push({
        loc: ['body', 'ipAllowList', String(i)],
        msg: `"${rule}" is not an IPv4/IPv6 address or CIDR block`,
        type: 'ip_rule',
      });
    }
  });
  settings.senderIds?.forEach((id, i) => {
    const result = validateSenderId(id);
    if (!result.ok) {
      details.push({
        loc: ['body', 'senderIds', String(i)],
        msg: result.message,
        type: result.reason,
      });
    }
  });
  settings.optOutKeywords?.forEach((word, i) => {
    const problem = accountKeywordProblem(word);
    if (problem) details.push({ loc: ['body', 'optOutKeywords', String(i)], ...problem });
  });
  // A default outside the registered caller IDs would be refused on every send (spec 2.6).
  const callerIds = settings.voiceCallerIds;
  const defaultSender = settings.voiceDefaultSender;
  if (callerIds && defaultSender && !callerIds.includes(defaultSender)) {
    details.push({
      loc: ['body', 'voiceDefaultSender'],
      msg: 'must be one of voiceCallerIds',
      type: 'registered',
    });
  }
  for (const key of ['replyPathUrl', 'deliveryReportUrl', 'voiceReportUrl'] as const) {
    const url = settings.callbacks?.[key];
    if (url && !URL.canParse(url)) {
      details.push({
        loc: ['body', 'callbacks', key],
        msg: 'must be an absolute URL',
        type: 'url',
      });
    }
  }
  if (settings.rateLimit && settings.rateLimit.burst < settings.rateLimit.perSecond) {
    details.push({
      loc: ['body', 'rateLimit', 'burst'],
      msg: 'must be at least perSecond',
      type: 'minimum',
    });
  }
  const first = details[0];
  if (first) throw new ValidationError(`${first.loc.join('.')}: ${first.msg}`, details);
}

/** Column values for the given settings; members not given are left out (unchanged). */
export function settingsColumns(settings: AccountSettings) {
  const callbacks = settings.callbacks ?? {};
  return {
    ...(settings.permissions && { permissions: settings.permissions }),
    ...(settings.numberScopes && { numberScopes: settings.numberScopes }),
    ...(callbacks.replyPathUrl !== undefined && { replyPathUrl: callbacks.replyPathUrl }),
    ...(callbacks.replyPathMethod && { replyPathMethod: callbacks.replyPathMethod }),
    ...(callbacks.deliveryReportUrl !== undefined && {
      deliveryReportUrl: callbacks.deliveryReportUrl,
    }),
    ...(callbacks.voiceReportUrl !== undefined && { voiceReportUrl: callbacks.voiceReportUrl }),
    ...(settings.rateLimit && {
      rateLimitPerSecond: settings.rateLimit.perSecond,
      rateLimitBurst: settings.rateLimit.burst,
    }),
    ...(settings.billingMode && { billingMode: settings.billingMode }),
    ...(settings.smsThroughputPerSecond && {
      smsThroughputPerSecond: settings.smsThroughputPerSecond,
    }),
    // null lifts the limit, so only a missing member means "unchanged".
    ...(settings.batchMaxRecipients !== undefined && {
      batchMaxRecipients: settings.batchMaxRecipients,
    }),
    ...(settings.numbersMonthlyQuota !== undefined && {
      numbersMonthlyQuota: settings.numbersMonthlyQuota,
    }),
    ...(settings.ipAllowList && { ipAllowList: settings.ipAllowList }),
    ...(settings.senderIds && { senderIds: settings.senderIds }),
    ...(settings.optOutKeywords && { optOutKeywords: settings.optOutKeywords }),
    ...(settings.voiceCallerIds && { voiceCallerIds: settings.voiceCallerIds }),
    // null returns the account to the service's default caller ID.
    ...(settings.voiceDefaultSender !== undefined && {
      voiceDefaultSender: settings.voiceDefaultSender,
    }),
  };
}
