import type { AccountCallbacks, CallbackRequest } from '@msg/contracts';
import { ANY_TARGET, isClientUrl } from '@msg/http';

/** A stored reply as the account's reply-path callback reports it (spec 2.3, 6.2). */
export interface ForwardedReply {
  replyId: string;
  accountId: string;
  /** The recipient who answered (the reply's sender), E.164. */
  from: string;
  /** TransactionId of the message answered. */
  inResponseTo: string;
  text: string;
}

/**
 * The callbacks.v1 request that forwards a reply: GET with query `Msg` and `InResponseTo`, or
 * POST with JSON `{From, InResponseTo, Msg}`, as the account is configured (spec 6.2). The
 * notifier retries it until `giveUpAt`, the end of the reservation, and not after (3.2: "retried
 * until delivered or the record is deleted"). The callback id is the reply's id, so a request
 * enqueued twice is delivered once. Null when the account has no usable reply-path URL.
 */
export function replyCallbackRequest(
  callbacks: Pick<AccountCallbacks, 'replyPathUrl' | 'replyPathMethod'> | undefined,
  reply: ForwardedReply,
  giveUpAt: Date,
): CallbackRequest | null {
  const url = callbacks?.replyPathUrl;
  if (!url || !isClientUrl(url, ANY_TARGET)) return null;
  const common = {
    callbackId: `replypath-reply-${reply.replyId}`,
    accountId: reply.accountId,
    url,
    giveUpAt: giveUpAt.toISOString(),
    origin: { service: 'replypath', kind: 'reply' },
  };
  if (callbacks.replyPathMethod === 'GET') {
    return {
      ...common,
      method: 'GET',
      query: { Msg: reply.text, InResponseTo: reply.inResponseTo },
    };
  }
  return {
    ...common,
    method: 'POST',
    body: { From: reply.from, InResponseTo: reply.inResponseTo, Msg: reply.text },
  };
}
