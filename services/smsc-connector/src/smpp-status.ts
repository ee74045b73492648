/** SMPP 3.4 command_status values the connector acts on (§5.1.3). */
export const SmppStatus = {
  ok: 0x00,
  messageQueueFull: 0x14,
  throttled: 0x58,
  /** What the connector answers a deliver_sm it could not store: the SMSC sends it again. */
  systemError: 0x08,
} as const;

/** The SMSC asks us to slow down; the same part is retried later, not failed. */
export function isRetryableSubmitStatus(status: number): boolean {
  return status === SmppStatus.throttled || status === SmppStatus.messageQueueFull;
}

/** `0x0000000b`-style label for metrics and error descriptions. */
export function statusLabel(status: number): string {
  return `0x${status.toString(16).padStart(8, '0')}`;
}
