import { randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from '@msg/logger';
import sip, { type NameAddr, type ServerTransaction, type SipMessage } from 'sip';
import { isVoiced, summarise } from './audio-analysis.js';
import type { Behaviour } from './behaviours.js';
import type { CalleeState, CallOutcome, CallRecord } from './callee-state.js';
import { type DigestCredentials, digestChallenge, isAuthorised } from './digest-auth.js';
import { HUMAN_SCRIPT, MACHINE_SCRIPT, type PromptScript, promptMulaw } from './prompts.js';
import { writeWav } from './recording.js';
import { openRtpSession, type RtpSession } from './rtp-session.js';
import { type MediaTarget, pcmuAnswer, pcmuTarget } from './sdp-offer-answer.js';
import type { SipTransport } from './sip-transport.js';

export interface CalleeTimings {
  /** How long human and machine ring (180) before they answer. */
  ringMs: number;
  /** An answered call hangs up this long after the caller's audio stopped. */
  silenceHangupMs: number;
  /** An answered call hangs up this long after answering when the caller never made a sound. */
  idleHangupMs: number;
  /** `ring` gives up with 480 after this long without a CANCEL. */
  maxRingMs: number;
}

export const DEFAULT_TIMINGS: CalleeTimings = {
  ringMs: 1000,
  silenceHangupMs: 5000,
  idleHangupMs: 30_000,
  maxRingMs: 180_000,
};

/** RFC 3261 timers for retransmitting our 2xx until its ACK (13.3.1.4). */
const T1_MS = 500;
const T2_MS = 4000;
const ALLOW = 'INVITE, ACK, CANCEL, BYE, OPTIONS';
const SERVER = 'msg-sip-callee';

interface ActiveCall {
  record: CallRecord;
  invite: SipMessage;
  transaction: ServerTransaction;
  localTag: string;
  answerSdp?: string;
  finalSent: boolean;
  acked: boolean;
  ended: boolean;
  rtp?: RtpSession;
  timers: Set<NodeJS.Timeout>;
}

export interface UasOptions {
  host: string;
  state: CalleeState;
  recordDir: string;
  timings: CalleeTimings;
  credentials?: DigestCredentials;
  logger: Logger;
}

export interface Uas {
  attach(transport: SipTransport): void;
  onRequest(request: SipMessage, transaction: ServerTransaction): void;
  onAck(ack: SipMessage): void;
  /** Ends every call in progress (BYE or 480) and releases its media. */
  close(): Promise<void>;
}

const userOf = (uri: string | undefined | object) =>
  (uri !== undefined && sip.parseUri(uri as string)?.user) || '';

/** The user agent server: answers INVITEs by the dialled number's behaviour. */
export function createUas(options: UasOptions): Uas {
  const { host, state, timings, logger } = options;
  let transport: SipTransport | undefined;
  /** By Call-ID: one dialog per call, as an INVITE without a to-tag creates it. */
  const calls = new Map<string, ActiveCall>();

  const contactOf = () => [{ uri: `sip:callee@${host}:${transport?.port ?? 5060}`, params: {} }];

  const later = (call: ActiveCall, ms: number, action: () => void) => {
    const timer = setTimeout(() => {
      call.timers.delete(timer);
      action();
    }, ms);
    call.timers.add(timer);
  };

  const taggedTo = (call: ActiveCall): NameAddr => ({
    ...call.invite.headers.to,
    params: { ...call.invite.headers.to.params, tag: call.localTag },
  });

  const respond = (
    call: ActiveCall,
    status: number,
    reason: string,
    extra: { headers?: Record<string, unknown>; content?: string } = {},
  ) => {
    const response = sip.makeResponse(call.invite, status, reason, {
      headers: { to: taggedTo(call), server: SERVER, ...extra.headers },
      ...(extra.content !== undefined && { content: extra.content }),
    });
    call.transaction.send(response);
    return response;
  };

  const finish = async (call: ActiveCall, outcome: CallOutcome, endedBy?: 'caller' | 'callee') => {
    if (call.ended) return;
    call.ended = true;
    for (const timer of call.timers) clearTimeout(timer);
    call.timers.clear();
    const { record } = call;
    record.outcome = outcome;
    record.endedAt = new Date().toISOString();
    if (endedBy) record.endedBy = endedBy;
    const rtp = call.rtp;
    if (rtp) {
      record.rtpPacketsSent = rtp.sent;
      const samples = rtp.samples();
      record.rtpPackets = rtp.packets;
      record.audioMs = Math.round(samples.length / 8);
      record.heard = summarise(samples);
      if (rtp.packets > 0) record.wavFile = writeWav(options.recordDir, record.id, samples);
      await rtp.close();
    }
    logger.info('call ended', { callId: record.id, outcome, endedBy });
    // Kept a while for late requests of the dialog, then forgotten (the record stays).
    setTimeout(() => {
      if (calls.get(call.invite.headers['call-id']) === call) {
        calls.delete(call.invite.headers['call-id']);
      }
    }, 32_000).unref();
  };

  const refuse = (call: ActiveCall, status: number, reason: string, outcome: CallOutcome) => {
    call.finalSent = true;
    call.record.finalStatus = status;
    respond(call, status, reason);
    void finish(call, outcome);
  };

  const sendBye = (call: ActiveCall) => {
    if (!transport) return;
    const { invite } = call;
    const contact = invite.headers.contact?.[0]?.uri ?? invite.headers.from.uri;
    const routes = invite.headers['record-route'] ?? [];
    const nextHop = sip.parseUri(routes[0]?.uri ?? contact);
    if (!nextHop) return;
    const bye: SipMessage = {
      method: 'BYE',
      uri: contact,
      version: '2.0',
      headers: {
        via: [],
        to: invite.headers.from,
        from: taggedTo(call),
        'call-id': invite.headers['call-id'],
        cseq: { seq: 1, method: 'BYE' },
        'max-forwards': '70',
        ...(routes.length > 0 && { route: routes }),
        'user-agent': SERVER,
      },
    };
    transport.request(bye, { address: nextHop.host, port: nextHop.port || 5060 }, (response) => {
      logger.debug('bye answered', { callId: call.record.id, status: response.status });
    });
  };

  const hangUp = (call: ActiveCall, outcome: CallOutcome = 'completed') => {
    if (call.ended) return;
    sendBye(call);
    void finish(call, outcome, 'callee');
  };

  /**
   * Hangs up once the caller has been silent for silenceHangupMs after both its own audio and
   * our prompt ended, or after idleHangupMs when the caller never made a sound.
   */
  const listen = (call: ActiveCall, rtp: RtpSession, script: PromptScript) => {
    const answeredAt = Date.now();
    const promptEndsAt = answeredAt + script.endMs;
    let lastVoiceAt: number | undefined;
    rtp.onFrame((frame) => {
      call.record.rtpPackets = rtp.packets;
      call.record.audioMs += Math.round(frame.length / 8);
      if (isVoiced(frame)) lastVoiceAt = Date.now();
    });
    const check = () => {
      const now = Date.now();
      const due =
        lastVoiceAt === undefined
          ? now - answeredAt >= timings.idleHangupMs
          : now - Math.max(lastVoiceAt, promptEndsAt) >= timings.silenceHangupMs;
      if (due) {
        logger.info('callee hangs up', { callId: call.record.id });
        hangUp(call);
      } else {
        later(call, 100, check);
      }
    };
    later(call, 100, check);
  };

  const answer = (call: ActiveCall, rtp: RtpSession, media: MediaTarget, script: PromptScript) => {
    if (call.ended || call.finalSent) return;
    call.finalSent = true;
    call.answerSdp = pcmuAnswer(host, rtp.port);
    const headers = {
      contact: contactOf(),
      'content-type': 'application/sdp',
      allow: ALLOW,
    };
    const ok = respond(call, 200, 'OK', { headers, content: call.answerSdp });
    call.record.outcome = 'answered';
    call.record.finalStatus = 200;
    call.record.answeredAt = new Date().toISOString();
    logger.info('call answered', { callId: call.record.id, behaviour: call.record.behaviour });
    // The 2xx is ours to retransmit until the ACK (T1 doubling up to T2); after 64*T1 without
    // one the session is ended with a BYE (RFC 3261 13.3.1.4).
    const started = Date.now();
    const retransmit = (interval: number) => {
      if (call.acked || call.ended) return;
      if (Date.now() - started >= 64 * T1_MS) {
        logger.warn('no ACK for 200', { callId: call.record.id });
        hangUp(call, 'failed');
        return;
      }
      call.transaction.send(ok);
      later(call, Math.min(interval * 2, T2_MS), () => retransmit(Math.min(interval * 2, T2_MS)));
    };
    later(call, T1_MS, () => retransmit(T1_MS));
    rtp.play(promptMulaw(script), media);
    listen(call, rtp, script);
  };

  const onInvite = async (invite: SipMessage, transaction: ServerTransaction) => {
    const callId = invite.headers['call-id'];
    const call: ActiveCall = {
      invite,
      transaction,
      localTag: randomBytes(6).toString('hex'),
      finalSent: false,
      acked: false,
      ended: false,
      timers: new Set(),
      record: {
        id: randomUUID(),
        to: userOf(invite.uri) || userOf(invite.headers.to.uri),
        from: userOf(invite.headers.from.uri),
        behaviour: state.defaultBehaviour,
        outcome: 'ringing',
        startedAt: new Date().toISOString(),
        rtpPackets: 0,
        audioMs: 0,
        rtpPacketsSent: 0,
      },
    };
    transaction.send(sip.makeResponse(invite, 100, 'Trying'));
    if (options.credentials && !isAuthorised(invite, options.credentials)) {
      // Not a call yet: the caller retries with credentials under the same Call-ID.
      respond(call, 401, 'Unauthorized', { headers: { 'www-authenticate': [digestChallenge()] } });
      return;
    }
    const dialled = call.record.to;
    const rule = state.behaviourFor(dialled);
    const before = state.countCall(dialled);
    const behaviour: Exclude<Behaviour, 'busy-then-human'> =
      rule === 'busy-then-human' ? (before === 0 ? 'busy' : 'human') : rule;
    call.record.behaviour = rule;
    calls.get(callId)?.timers.forEach(clearTimeout);
    calls.set(callId, call);
    state.add(call.record);
    logger.info('call offered', { callId: call.record.id, behaviour: rule });

    switch (behaviour) {
      case 'busy':
        return refuse(call, 486, 'Busy Here', 'busy');
      case 'reject':
        return refuse(call, 603, 'Decline', 'rejected');
      case 'unavailable':
        return refuse(call, 480, 'Temporarily Unavailable', 'unavailable');
      case 'ring':
        respond(call, 180, 'Ringing');
        later(call, timings.maxRingMs, () =>
          refuse(call, 480, 'Temporarily Unavailable', 'unavailable'),
        );
        return;
      case 'human':
      case 'machine': {
        const media = pcmuTarget(invite.content);
        if (!media) {
          return refuse(call, 488, 'Not Acceptable Here', 'failed');
        }
        respond(call, 180, 'Ringing');
        const rtp = await openRtpSession(host);
        call.rtp = rtp;
        if (call.ended) {
          await rtp.close();
          return;
        }
        const script = behaviour === 'human' ? HUMAN_SCRIPT : MACHINE_SCRIPT;
        later(call, timings.ringMs, () => answer(call, rtp, media, script));
      }
    }
  };

  const dialogOf = (request: SipMessage): ActiveCall | undefined => {
    const call = calls.get(request.headers['call-id']);
    return call && request.headers.to.params.tag === call.localTag ? call : undefined;
  };

  const plain = (request: SipMessage, status: number, reason: string, headers = {}) =>
    sip.makeResponse(request, status, reason, { headers: { server: SERVER, ...headers } });

  return {
    attach(attached) {
      transport = attached;
    },

    onRequest(request, transaction) {
      switch (request.method) {
        case 'INVITE': {
          if (request.headers.to.params.tag === undefined) {
            onInvite(request, transaction).catch((error: unknown) => {
              logger.error('invite handling failed', { error });
              transaction.send(plain(request, 500, 'Server Internal Error'));
            });
            return;
          }
          // A re-INVITE (session refresh): the same answer again; media stays as it is.
          const call = dialogOf(request);
          if (call?.answerSdp && !call.ended) {
            transaction.send(
              sip.makeResponse(request, 200, 'OK', {
                headers: {
                  server: SERVER,
                  contact: contactOf(),
                  'content-type': 'application/sdp',
                },
                content: call.answerSdp,
              }),
            );
            return;
          }
          transaction.send(plain(request, 481, 'Call/Transaction Does Not Exist'));
          return;
        }
        case 'CANCEL': {
          // CANCEL carries the INVITE's branch (RFC 3261 9.2).
          const call = calls.get(request.headers['call-id']);
          const sameInvite =
            call &&
            call.invite.headers.via[0]?.params.branch === request.headers.via[0]?.params.branch;
          if (!call || !sameInvite) {
            transaction.send(plain(request, 481, 'Call/Transaction Does Not Exist'));
            return;
          }
          transaction.send(plain(request, 200, 'OK', { to: taggedTo(call) }));
          if (!call.finalSent) {
            logger.info('call cancelled', { callId: call.record.id });
            refuse(call, 487, 'Request Terminated', 'cancelled');
          }
          return;
        }
        case 'BYE': {
          const call = dialogOf(request);
          if (!call) {
            transaction.send(plain(request, 481, 'Call/Transaction Does Not Exist'));
            return;
          }
          // The recording is written before the 200, so it is there when the caller is done.
          finish(
            call,
            call.record.finalStatus === 200 ? 'completed' : call.record.outcome,
            'caller',
          )
            .catch((error: unknown) => logger.error('call end failed', { error }))
            .finally(() => transaction.send(plain(request, 200, 'OK')));
          return;
        }
        case 'OPTIONS':
          transaction.send(plain(request, 200, 'OK', { allow: ALLOW, accept: 'application/sdp' }));
          return;
        default:
          transaction.send(plain(request, 405, 'Method Not Allowed', { allow: ALLOW }));
      }
    },

    onAck(ack) {
      const call = dialogOf(ack);
      if (call) call.acked = true;
    },

    async close() {
      for (const call of calls.values()) {
        if (call.ended) continue;
        if (call.finalSent) hangUp(call);
        else refuse(call, 480, 'Temporarily Unavailable', 'unavailable');
      }
      await Promise.all([...calls.values()].map((call) => call.rtp?.close()));
      // Client transactions send on the next tick: let the BYEs leave before the socket closes.
      await new Promise((resolve) => setTimeout(resolve, 20));
      calls.clear();
    },
  };
}
