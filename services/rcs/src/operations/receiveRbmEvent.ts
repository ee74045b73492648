import { ForbiddenError, ValidationError } from '@msg/http';
import {
  answerSetupHandshake,
  decodePush,
  PushFormatError,
  parseSetupHandshake,
  SIGNATURE_HEADER,
  verifyPushSignature,
} from '@msg/rbm';
import express, { type RequestHandler } from 'express';
import type { PushMetrics, PushRefusal } from '../inbound/push-metrics.js';
import type { PushProcessor } from '../inbound/push-processor.js';

/** The push path: RBM calls it, so it has no client authentication (the signature is its proof). */
export const RBM_PUSH_PATH = '/rcs/v1/rbm/events';

/** RBM's events are small JSON envelopes; a larger body is refused before it is read whole. */
const PUSH_BODY_LIMIT = '64kb';

export interface ReceiveRbmEventDeps {
  /** RCS_RBM_CLIENT_TOKEN; unset: every push and handshake is refused (403). */
  clientToken: string | undefined;
  process: PushProcessor;
  metrics: PushMetrics;
}

/**
 * POST /rcs/v1/rbm/events (receiveRbmEvent). The body is read raw (the path is one of the app's
 * rawBodyPaths) so X-Goog-Signature is checked over exactly the bytes RBM signed. A set-up
 * handshake `{clientToken, secret}` is answered 200 with the secret when the token is ours. A push
 * is verified, decoded and processed in one transaction, and only then answered 200: RBM retries
 * anything else, so nothing it delivered is lost. Refusals are 403 in the 7.4 format, counted in
 * rcs_inbound_push_refused_total.
 */
export function receiveRbmEvent(deps: ReceiveRbmEventDeps): RequestHandler[] {
  const readRaw = express.raw({ type: () => true, limit: PUSH_BODY_LIMIT });
  const handle: RequestHandler = async (req, res) => {
    const refuse = (reason: PushRefusal, message: string) => {
      deps.metrics.refused(reason);
      req.log.warn('rbm push refused', { reason });
      return new ForbiddenError(message);
    };
    const raw: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const token = deps.clientToken;
    if (!token) throw refuse('no_client_token', 'push refused: no RBM client token is configured');
    const handshake = parseSetupHandshake(raw);
    if (handshake) {
      const answer = answerSetupHandshake(handshake, token);
      if (answer.status !== 200)
        throw refuse('handshake', 'handshake refused: unknown client token');
      req.log.info('rbm webhook handshake answered');
      res.status(200).type('text/plain').send(answer.body);
      return;
    }
    if (!verifyPushSignature(raw, req.headers[SIGNATURE_HEADER], token)) {
      throw refuse('signature', 'push refused: invalid or missing X-Goog-Signature');
    }
    let event: ReturnType<typeof decodePush>;
    try {
      event = decodePush(raw);
    } catch (err) {
      if (!(err instanceof PushFormatError)) throw err;
      throw ValidationError.field(['body', 'message', 'data'], 'format', err.message);
    }
    const outcome = await deps.process(event, req.requestId);
    deps.metrics.handled(outcome);
    const log = outcome === 'unknown_agent' || outcome === 'unknown_message' ? 'warn' : 'info';
    req.log[log]('rbm push handled', {
      outcome,
      agentId: event.agentId,
      pushId: event.pushMessageId,
    });
    res.status(200).end();
  };
  return [readRaw, handle];
}
