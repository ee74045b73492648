import type { CallbackRequest, SmsStatus } from '@msg/contracts';
import { ANY_TARGET, isClientUrl } from '@msg/http';

/** The final states a delivery report tells about, as the report names them. */
const REPORT_STATUS = {
  delivered: 'DELIVERED',
  failed: 'FAILED',
  expired: 'EXPIRED',
} as const;

export type ReportStatus = (typeof REPORT_STATUS)[keyof typeof REPORT_STATUS];

/**
 * The delivery report POSTed to the account's delivery-report URL for a message sent with
 * DLR = 1 (spec 6.2 rule 3 leaves the format open; documented in the OpenAPI document's
 * `callbacks` and the service README). Field names follow the interface's PascalCase.
 */
export interface DeliveryReport {
  TransactionId: string;
  DestinationAddress: string;
  OriginatorAddress: string;
  Status: ReportStatus;
  /** When the SMSC said the message reached its final state (ISO 8601). */
  StatusTime: string;
  /** Why it failed or expired, when known. */
  Error?: string;
}

/** What the report is built from: the message as stored and its final status. */
export interface ReportedMessage {
  transactionId: string;
  accountId: string;
  recipient: string;
  originator: string;
}

export function reportStatus(state: SmsStatus['state']): ReportStatus | undefined {
  return state === 'submitted' ? undefined : REPORT_STATUS[state];
}

/**
 * The callbacks.v1 request carrying a final status to `url`; null when `url` is not a usable
 * client URL or the state is not final. Retried up to the notifier's horizon (a report is not
 * tied to the reservation: it may arrive after the reply that ended a OneShot one).
 */
export function deliveryReportRequest(
  url: string | null | undefined,
  message: ReportedMessage,
  status: SmsStatus,
  eventId: string,
): CallbackRequest | null {
  const Status = reportStatus(status.state);
  if (!Status || !url || !isClientUrl(url, ANY_TARGET)) return null;
  const body: DeliveryReport = {
    TransactionId: message.transactionId,
    DestinationAddress: message.recipient,
    OriginatorAddress: message.originator,
    Status,
    StatusTime: new Date(status.at).toISOString(),
    ...(status.error && { Error: status.error.description }),
  };
  return {
    // One report per status event: a redelivered event is claimed once anyway.
    callbackId: `replypath-report-${eventId}`,
    accountId: message.accountId,
    url,
    method: 'POST',
    body,
    origin: { service: 'replypath', kind: 'delivery-report' },
  };
}
