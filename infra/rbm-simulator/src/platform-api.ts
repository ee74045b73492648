import { randomBytes } from 'node:crypto';
import type { Logger } from '@msg/logger';
import express, { type NextFunction, type Request, type Response } from 'express';
import { sendGoogleError } from './google-error.js';
import { assertionProblem, GOOGLE_TOKEN_URL, type ServiceAccount } from './jwt-assertion.js';
import type { RbmState, ReceivedMessage } from './rbm-state.js';
import { validateAgentMessage } from './validate-agent-message.js';
import type { WebhookPusher } from './webhook-pusher.js';

export interface PlatformOptions {
  state: RbmState;
  pusher: WebhookPusher;
  serviceAccount: ServiceAccount;
  /** This simulator's own token URL, accepted as `aud` beside Google's. */
  ownTokenUrl: () => string;
  deliverDelayMs: number;
  readDelayMs: number;
  tokenLifetimeS: number;
  logger: Logger;
  now: () => number;
}

const E164 = /^\+[1-9]\d{6,14}$/;
const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Schedules DELIVERED then READ pushes for an accepted message, as its device profile allows. */
export function scheduleLifecycle(message: ReceivedMessage, options: PlatformOptions): void {
  const profile = options.state.profile(message.phone);
  if (!profile.deliver) return;
  const deliver = setTimeout(() => {
    void markAndPush(message, 'DELIVERED', options).then(() => {
      if (!profile.read || message.status !== 'DELIVERED') return;
      message.timers.push(
        setTimeout(() => void markAndPush(message, 'READ', options), options.readDelayMs),
      );
    });
  }, options.deliverDelayMs);
  message.timers.push(deliver);
}

/** Milliseconds until the message's ttl / expireTime runs out, or undefined without one. */
function expiresInMs(body: Record<string, unknown>, nowMs: number): number | undefined {
  if (typeof body.ttl === 'string') return Math.round(Number.parseFloat(body.ttl) * 1000);
  if (typeof body.expireTime === 'string') return Math.max(0, Date.parse(body.expireTime) - nowMs);
  return undefined;
}

/**
 * RBM revokes a message still undelivered when its TTL runs out and tells the agent with the
 * server event TTL_EXPIRATION_REVOKED (`phoneNumber`, not `senderPhoneNumber`).
 */
function scheduleExpiry(message: ReceivedMessage, options: PlatformOptions): void {
  const inMs = expiresInMs(message.body, options.now());
  if (inMs === undefined) return;
  const timer = setTimeout(() => {
    if (message.status !== 'PENDING') return;
    for (const t of message.timers) clearTimeout(t);
    message.status = 'EXPIRED';
    void options.pusher.push({
      phoneNumber: message.phone,
      messageId: message.messageId,
      agentId: message.agentId,
      eventType: 'TTL_EXPIRATION_REVOKED',
      eventId: `ev_${randomBytes(8).toString('hex')}`,
      sendTime: new Date(options.now()).toISOString(),
    });
  }, inMs);
  message.timers.push(timer);
}

/** Moves a message to DELIVERED or READ (never backwards, never after revoke) and pushes it. */
export async function markAndPush(
  message: ReceivedMessage,
  eventType: 'DELIVERED' | 'READ',
  options: Pick<PlatformOptions, 'pusher' | 'now'>,
): Promise<boolean> {
  const allowed =
    eventType === 'DELIVERED' ? message.status === 'PENDING' : message.status === 'DELIVERED';
  if (!allowed) return false;
  message.status = eventType;
  await options.pusher.push({
    senderPhoneNumber: message.phone,
    eventType,
    eventId: `ev_${randomBytes(8).toString('hex')}`,
    messageId: message.messageId,
    sendTime: new Date(options.now()).toISOString(),
    agentId: message.agentId,
  });
  return true;
}

/** The RBM platform's REST surface: token endpoint and `/v1/phones/...`. */
export function platformRouter(options: PlatformOptions): express.Router {
  const { state, logger } = options;
  const router = express.Router();

  router.post('/token', express.urlencoded({ extended: false, limit: '16kb' }), (req, res) => {
    const form = (req.body ?? {}) as Record<string, unknown>;
    const assertion = typeof form.assertion === 'string' ? form.assertion : '';
    const problem =
      form.grant_type !== GRANT_TYPE
        ? `grant_type must be ${GRANT_TYPE}`
        : assertionProblem(
            assertion,
            options.serviceAccount,
            [GOOGLE_TOKEN_URL, options.ownTokenUrl()],
            Math.floor(options.now() / 1000),
          );
    if (problem) {
      state.counters.tokensRefused += 1;
      // Google's token endpoint answers OAuth-style errors, not the API error shape.
      res.status(400).json({ error: 'invalid_grant', error_description: problem });
      return;
    }
    const token = `sim.${randomBytes(24).toString('base64url')}`;
    state.issueToken(token, options.now() + options.tokenLifetimeS * 1000);
    state.counters.tokensIssued += 1;
    res.json({ access_token: token, expires_in: options.tokenLifetimeS, token_type: 'Bearer' });
  });

  const v1 = express.Router();
  v1.use((req: Request, res: Response, next: NextFunction) => {
    const match = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
    if (!match?.[1] || !state.tokenValid(match[1], options.now())) {
      state.counters.unauthenticated += 1;
      sendGoogleError(
        res,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token.',
      );
      return;
    }
    next();
  });
  v1.use(express.json({ limit: '256kb' }));
  v1.param('phone', (req, res, next, phone: string) => {
    if (!E164.test(phone)) {
      sendGoogleError(res, 'INVALID_ARGUMENT', `phone number "${phone}" is not E.164`);
      return;
    }
    const agentId = req.query.agentId;
    if (typeof agentId !== 'string' || agentId === '') {
      sendGoogleError(res, 'INVALID_ARGUMENT', 'agentId: required query parameter');
      return;
    }
    res.locals.agentId = agentId;
    next();
  });

  v1.get('/phones/:phone/capabilities', (req, res) => {
    if (typeof req.query.requestId !== 'string' || req.query.requestId === '') {
      sendGoogleError(res, 'INVALID_ARGUMENT', 'requestId: required query parameter');
      return;
    }
    state.counters.capabilityChecks += 1;
    const profile = state.profile(req.params.phone);
    if (!profile.capable) {
      sendGoogleError(res, 'NOT_FOUND', 'Requested entity was not found.');
      return;
    }
    res.json({ features: profile.features });
  });

  v1.post('/phones/:phone/agentMessages', (req, res) => {
    const phone = req.params.phone;
    const agentId = res.locals.agentId as string;
    const messageId = req.query.messageId;
    const problem =
      typeof messageId !== 'string' || messageId === ''
        ? 'messageId: required query parameter'
        : validateAgentMessage(req.body);
    if (problem || typeof messageId !== 'string') {
      state.counters.messagesRefused += 1;
      sendGoogleError(res, 'INVALID_ARGUMENT', problem ?? 'messageId: required query parameter');
      return;
    }
    if (!state.profile(phone).capable) {
      state.counters.messagesRefused += 1;
      sendGoogleError(res, 'NOT_FOUND', 'Requested entity was not found.');
      return;
    }
    if (state.message(agentId, phone, messageId)) {
      sendGoogleError(res, 'ALREADY_EXISTS', `message ${messageId} already exists`);
      return;
    }
    const sendTime = new Date(options.now()).toISOString();
    const message: ReceivedMessage = {
      agentId,
      phone,
      messageId,
      body: req.body as Record<string, unknown>,
      status: 'PENDING',
      receivedAt: sendTime,
      timers: [],
    };
    state.addMessage(message);
    state.counters.messagesAccepted += 1;
    logger.debug('rbm message accepted', { messageId });
    scheduleLifecycle(message, options);
    scheduleExpiry(message, options);
    res.json({
      name: `phones/${phone}/agentMessages/${messageId}`,
      sendTime,
      contentMessage: message.body.contentMessage,
    });
  });

  v1.delete('/phones/:phone/agentMessages/:messageId', (req, res) => {
    const message = state.message(
      res.locals.agentId as string,
      req.params.phone,
      req.params.messageId,
    );
    // RBM can only revoke what the device has not received yet.
    if (message?.status !== 'PENDING') {
      sendGoogleError(res, 'NOT_FOUND', 'Requested entity was not found.');
      return;
    }
    for (const t of message.timers) clearTimeout(t);
    message.status = 'REVOKED';
    state.counters.revoked += 1;
    res.json({});
  });

  v1.post('/phones/:phone/testers', (req, res) => {
    const agentId = res.locals.agentId as string;
    const phone = req.params.phone;
    const existing = state.tester(agentId, phone);
    const record = existing ?? { agentId, phone, inviteStatus: 'PENDING' as const };
    if (!existing) {
      state.addTester(record);
      state.counters.testersInvited += 1;
    }
    res.json({ name: `phones/${phone}/testers`, inviteStatus: record.inviteStatus });
  });

  v1.use((_req, res) => sendGoogleError(res, 'NOT_FOUND', 'Method not found.'));
  router.use('/v1', v1);
  return router;
}
