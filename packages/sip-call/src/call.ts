// One outbound call: INVITE with an SDP offer, then on answer ACK, optional answering-machine
// detection, the audio playCount times over RTP, and BYE (or the callee's BYE).
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { SipRequest, SipStack } from 'sip';
import { makeResponse } from 'sip';
import { type AmdParameters, AnsweringMachineDetector, DEFAULT_AMD_PARAMETERS } from './amd.js';
import { Dialog } from './dialog.js';
import { sendInvite } from './invite.js';
import { bindRtpSocket } from './rtp/ports.js';
import { FRAME_MS, RtpStream, toFrames } from './rtp/stream.js';
import { createOffer, readAnswer } from './sdp.js';
import type { CallOutcome, CallReport, CallRequest, SipTrunk } from './types.js';

export interface CallContext {
  stack: SipStack;
  trunk: SipTrunk;
  localAddress: string;
  sipPort: number;
  rtpPorts: [number, number];
  amd: Partial<AmdParameters>;
  /** In-dialog requests of the callee, by Call-ID. */
  dialogs: Map<string, (request: SipRequest) => void>;
}

type AnsweredBy = 'human' | 'machine' | 'unknown';

export function validateCallRequest(request: CallRequest): string | undefined {
  if (!/^\+?[0-9]{1,20}$/.test(request.to)) return 'to must be a phone number';
  if (!/^\+?[0-9A-Za-z]{1,20}$/.test(request.from)) return 'from must be a phone number';
  if (request.audio.length === 0) return 'audio must not be empty';
  if (!Number.isInteger(request.playCount) || request.playCount < 1 || request.playCount > 10)
    return 'playCount must be an integer from 1 to 10';
  if (!(request.ringTimeoutMs > 0)) return 'ringTimeoutMs must be positive';
  return undefined;
}

export async function placeCall(
  context: CallContext,
  request: CallRequest,
  signal: AbortSignal,
): Promise<CallReport> {
  const callId = `${randomUUID()}@${context.localAddress}`;
  const invalid = validateCallRequest(request);
  if (invalid) return { callId, outcome: { kind: 'error', message: invalid }, rtp: emptyStats() };
  let stream: RtpStream;
  try {
    stream = new RtpStream(await bindRtpSocket(context.localAddress, context.rtpPorts));
  } catch (error) {
    const message = `RTP socket: ${error instanceof Error ? error.message : String(error)}`;
    return { callId, outcome: { kind: 'error', message }, rtp: emptyStats() };
  }
  try {
    const outcome = await run(context, request, signal, callId, stream);
    return { callId, outcome, rtp: stream.stats };
  } finally {
    context.dialogs.delete(callId);
    await stream.close();
  }
}

async function run(
  context: CallContext,
  request: CallRequest,
  signal: AbortSignal,
  callId: string,
  stream: RtpStream,
): Promise<CallOutcome> {
  const { stack, trunk, localAddress, sipPort } = context;
  const host = trunk.host.includes(':') ? `[${trunk.host}]` : trunk.host;
  const uri = `sip:${request.to}@${host}:${trunk.port}`;
  const invite: SipRequest = {
    method: 'INVITE',
    uri,
    headers: {
      to: { uri, params: {} },
      from: {
        uri: `sip:${request.from}@${localAddress}`,
        params: { tag: randomBytes(6).toString('hex') },
      },
      'call-id': callId,
      cseq: { seq: 1, method: 'INVITE' },
      contact: [{ uri: `sip:${request.from}@${localAddress}:${sipPort}`, params: {} }],
      'max-forwards': 70,
      'content-type': 'application/sdp',
      allow: 'INVITE, ACK, CANCEL, BYE, OPTIONS',
    },
    content: createOffer(localAddress, stream.localPort),
  };

  let dialog: Dialog | undefined;
  let hungUp: () => void = () => {};
  const calleeHungUp = new Promise<void>((resolve) => {
    hungUp = resolve;
  });
  let calleeBye = false;
  context.dialogs.set(callId, (rq) => {
    // Before the 2xx there is no dialog to speak in (we ignore early dialogs).
    if (!dialog) {
      if (rq.method !== 'ACK') stack.send(makeResponse(rq, 481, 'Call/Transaction Does Not Exist'));
    } else if (dialog.answerRequest(rq)) {
      calleeBye = true;
      stream.stop();
      hungUp();
    }
  });

  const result = await sendInvite({
    stack,
    trunk,
    invite,
    ringTimeoutMs: request.ringTimeoutMs,
    signal,
    onLateAnswer: (response, sent) => {
      const late = new Dialog(stack, response, sent);
      late.ack(response);
      void late.bye();
    },
    onRepeatedAnswer: (response) => dialog?.ack(response),
  });
  if (result.kind === 'ended') return result.outcome;

  const answeredAt = performance.now();
  const answered = new Dialog(stack, result.response, result.invite);
  dialog = answered;
  answered.ack();
  const answer = readAnswer(result.response.content);
  const finish = async (): Promise<number> => {
    if (!calleeBye) await answered.bye();
    return Math.round(performance.now() - answeredAt) / 1000;
  };
  if (!answer.ok) {
    await finish();
    return { kind: 'error', message: answer.error };
  }
  stream.connect(answer.address, answer.port);

  const stop = () => stream.stop();
  signal.addEventListener('abort', stop);
  try {
    let answeredBy: AnsweredBy = 'unknown';
    if (request.machineDetection) {
      answeredBy = await detect(stream, context.amd, Promise.race([calleeHungUp, aborted(signal)]));
    }
    let framesSent = 0;
    if (!calleeBye && !signal.aborted)
      framesSent = await stream.play(toFrames(request.audio), request.playCount);
    const durationSeconds = await finish();
    return {
      kind: 'answered',
      answeredBy,
      durationSeconds,
      listenedSeconds: (framesSent * FRAME_MS) / 1000,
    };
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * Listens to the callee until the detector decides; for a machine, also until its greeting is
 * over. Without any audio from the callee the analysis ends as `unknown` after its total time.
 */
function detect(
  stream: RtpStream,
  parameters: Partial<AmdParameters>,
  interrupted: Promise<void>,
): Promise<AnsweredBy> {
  const p = { ...DEFAULT_AMD_PARAMETERS, ...parameters };
  const detector = new AnsweringMachineDetector(p);
  return new Promise<AnsweredBy>((resolve) => {
    let answeredBy: AnsweredBy = 'unknown';
    const done = () => {
      clearTimeout(silentCallee);
      clearTimeout(longGreeting);
      stream.onAudio(undefined);
      resolve(answeredBy);
    };
    // Time-based fallbacks for a callee that sends no RTP at all or stops sending mid-greeting.
    const silentCallee = setTimeout(() => {
      if (!detector.decision) done();
    }, p.totalAnalysisMs + 500);
    let longGreeting: NodeJS.Timeout | undefined;
    stream.onAudio((samples) => {
      for (const event of detector.push(samples)) {
        if (event.kind === 'decision') {
          answeredBy = event.answeredBy;
          if (answeredBy === 'machine') longGreeting = setTimeout(done, p.maxGreetingWaitMs + 1000);
        }
      }
      if (detector.finished) done();
    });
    void interrupted.then(done);
  });
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function emptyStats() {
  return { packetsSent: 0, packetsReceived: 0, latenessMs: [] };
}
