// The INVITE client side of one call (RFC 3261 §13.2, §9 CANCEL, §22 digest): sends the offer,
// retries once with credentials on 401/407, cancels on ring timeout or abort, and settles with
// either the 2xx answer or the outcome of a refusal.
import type { SipRequest, SipResponse, SipStack } from 'sip';
import * as digest from 'sip/digest.js';
import type { CallOutcome, SipTrunk } from './types.js';

export type InviteResult =
  | { kind: 'answered'; response: SipResponse; invite: SipRequest }
  | { kind: 'ended'; outcome: CallOutcome };

/** Time we wait for the 487 after our CANCEL before calling the attempt unanswered anyway. */
const CANCEL_GRACE_MS = 8000;

export function outcomeOfFinal(status: number): CallOutcome {
  if (status === 486 || status === 600) return { kind: 'busy' };
  if (status === 408 || status === 480) return { kind: 'no_answer' };
  return { kind: 'rejected', status };
}

export interface InviteOptions {
  stack: SipStack;
  trunk: SipTrunk;
  invite: SipRequest;
  ringTimeoutMs: number;
  signal: AbortSignal;
  /** A 2xx that crossed our CANCEL or came after we gave up: it must be ACKed and hung up. */
  onLateAnswer: (response: SipResponse, invite: SipRequest) => void;
  /** A retransmission of the 2xx we took (our ACK was lost or is on its way): ACK it again. */
  onRepeatedAnswer: (response: SipResponse) => void;
}

export function sendInvite(options: InviteOptions): Promise<InviteResult> {
  const { stack, trunk, signal } = options;
  let current = options.invite;
  let provisional = false;
  let anyResponse = false;
  let cancelReason: 'timeout' | 'aborted' | undefined;
  let cancelSent = false;
  let authRetried = false;
  let settled = false;
  let answerTag: unknown;
  let ringTimer: NodeJS.Timeout | undefined;
  let graceTimer: NodeJS.Timeout | undefined;

  return new Promise<InviteResult>((resolve) => {
    const settle = (result: InviteResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(ringTimer);
      clearTimeout(graceTimer);
      signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const cancelledOutcome = (): CallOutcome =>
      cancelReason === 'aborted'
        ? { kind: 'error', message: 'call aborted' }
        : { kind: 'no_answer' };

    const sendCancel = () => {
      if (cancelSent) return;
      cancelSent = true;
      const via = current.headers.via?.[0];
      stack.send(
        {
          method: 'CANCEL',
          uri: current.uri,
          headers: {
            // Same branch as the INVITE: the CANCEL belongs to its transaction (RFC 3261 §9.1).
            via: via ? [{ ...via, params: { ...via.params } }] : [],
            to: current.headers.to,
            from: current.headers.from,
            'call-id': current.headers['call-id'],
            cseq: { seq: current.headers.cseq.seq, method: 'CANCEL' },
            'max-forwards': 70,
          },
        },
        () => {},
      );
      graceTimer = setTimeout(
        () => settle({ kind: 'ended', outcome: cancelledOutcome() }),
        CANCEL_GRACE_MS,
      );
    };

    const requestCancel = (reason: 'timeout' | 'aborted') => {
      if (settled || cancelReason) return;
      cancelReason = reason;
      // A CANCEL may only follow a provisional response (RFC 3261 §9.1). Without any response at
      // all the trunk is not there: give up now rather than wait 32 s for the transaction.
      if (provisional) sendCancel();
      else if (!anyResponse)
        settle({
          kind: 'ended',
          outcome:
            reason === 'aborted'
              ? { kind: 'error', message: 'call aborted' }
              : { kind: 'error', message: 'the trunk did not respond to the INVITE' },
        });
    };
    const onAbort = () => requestCancel('aborted');

    const onResponse = (response: SipResponse) => {
      if (settled) {
        if (response.status < 200 || response.status >= 300) return;
        if (answerTag !== undefined && response.headers.to.params.tag === answerTag)
          options.onRepeatedAnswer(response);
        else options.onLateAnswer(response, current);
        return;
      }
      anyResponse = true;
      const status = response.status;
      if (status < 200) {
        provisional = true; // 100 Trying included: any provisional response allows a CANCEL
        if (cancelReason) sendCancel();
        return;
      }
      if (status < 300) {
        if (cancelReason) {
          // The callee answered as we cancelled: take the call down, it was not delivered.
          options.onLateAnswer(response, current);
          settle({ kind: 'ended', outcome: cancelledOutcome() });
        } else {
          answerTag = response.headers.to.params.tag;
          settle({ kind: 'answered', response, invite: current });
        }
        return;
      }
      if ((status === 401 || status === 407) && !authRetried && trunk.username && !cancelReason) {
        authRetried = true;
        current = authenticated(current, response, trunk.username, trunk.password ?? '');
        stack.send(current, onResponse);
        return;
      }
      if (cancelSent && status === 487) settle({ kind: 'ended', outcome: cancelledOutcome() });
      else if (cancelReason === 'aborted') settle({ kind: 'ended', outcome: cancelledOutcome() });
      else settle({ kind: 'ended', outcome: outcomeOfFinal(status) });
    };

    if (signal.aborted) {
      settle({ kind: 'ended', outcome: { kind: 'error', message: 'call aborted' } });
      return;
    }
    signal.addEventListener('abort', onAbort);
    ringTimer = setTimeout(() => requestCancel('timeout'), options.ringTimeoutMs);
    stack.send(current, onResponse);
  });
}

/** The same INVITE with the next CSeq, a new branch and digest credentials for the challenge. */
export function authenticated(
  invite: SipRequest,
  challenge: SipResponse,
  user: string,
  password: string,
): SipRequest {
  const retry: SipRequest = {
    method: invite.method,
    uri: invite.uri,
    headers: {
      ...invite.headers,
      via: [], // sip.js adds our Via with a fresh branch
      cseq: { seq: invite.headers.cseq.seq + 1, method: 'INVITE' },
    },
    ...(invite.content !== undefined && { content: invite.content }),
  };
  digest.signRequest({}, retry, challenge, { user, password });
  return retry;
}
