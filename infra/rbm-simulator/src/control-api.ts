import { randomBytes } from 'node:crypto';
import express, { type Response } from 'express';
import { parseProfile } from './devices.js';
import { markAndPush, type PlatformOptions } from './platform-api.js';

const E164 = /^\+[1-9]\d{6,14}$/;
type Json = Record<string, unknown>;

function bad(res: Response, message: string): void {
  res.status(400).json({ error: 'bad_request', message });
}

const str = (body: Json, field: string) =>
  typeof body[field] === 'string' && body[field] !== '' ? (body[field] as string) : undefined;

/**
 * The simulator's control API under /control (no authentication: listen on loopback): device
 * profiles, the webhook, injected user traffic, what was received, counters.
 */
export function controlRouter(options: PlatformOptions): express.Router {
  const { state, pusher } = options;
  const router = express.Router();
  router.use(express.json({ limit: '64kb' }));
  router.param('phone', (_req, res, next, phone: string) => {
    if (!E164.test(phone)) {
      bad(res, `phone: expected E.164 such as +447700900123, got "${phone}"`);
      return;
    }
    next();
  });

  router.put('/devices/:phone', (req, res) => {
    const profile = parseProfile(req.body);
    if (typeof profile === 'string') return bad(res, profile);
    state.setProfile(req.params.phone, profile);
    res.json({ phone: req.params.phone, ...profile });
  });
  router.get('/devices/:phone', (req, res) => {
    res.json({ phone: req.params.phone, ...state.profile(req.params.phone) });
  });
  router.delete('/devices/:phone', (req, res) => {
    state.clearProfile(req.params.phone);
    res.status(204).end();
  });

  router.put('/webhook', (req, res) => {
    const body = (req.body ?? {}) as Json;
    const url = str(body, 'url');
    const clientToken = str(body, 'clientToken');
    if (!url || !/^https?:\/\//.test(url)) return bad(res, 'url: required http(s) URL');
    if (!clientToken) return bad(res, 'clientToken: required string');
    pusher.setTarget({ url, clientToken });
    res.json({ url });
  });
  router.delete('/webhook', (_req, res) => {
    pusher.setTarget(undefined);
    res.status(204).end();
  });

  /** Builds and pushes one user event; answers with what was pushed and whether it arrived. */
  async function inject(res: Response, phone: string, body: Json, fields: Json) {
    const agentId = str(body, 'agentId');
    if (!agentId) return bad(res, 'agentId: required string');
    const event = {
      senderPhoneNumber: phone,
      messageId: `MsUser${randomBytes(8).toString('hex')}`,
      eventId: `ev_${randomBytes(8).toString('hex')}`,
      sendTime: new Date(options.now()).toISOString(),
      agentId,
      ...fields,
    };
    const outcome = await pusher.push(event);
    res.json({ event, ...outcome });
  }

  router.post('/users/:phone/text', async (req, res) => {
    const body = (req.body ?? {}) as Json;
    const text = str(body, 'text');
    if (!text) return bad(res, 'text: required string');
    await inject(res, req.params.phone, body, { text });
  });

  router.post('/users/:phone/suggestion', async (req, res) => {
    const body = (req.body ?? {}) as Json;
    const type = body.type ?? 'REPLY';
    if (type !== 'REPLY' && type !== 'ACTION') return bad(res, 'type: REPLY or ACTION');
    const text = str(body, 'text');
    const postbackData = str(body, 'postbackData');
    if (!text) return bad(res, 'text: required string');
    if (!postbackData) return bad(res, 'postbackData: required string');
    await inject(res, req.params.phone, body, { suggestionResponse: { postbackData, text, type } });
  });

  router.post('/users/:phone/file', async (req, res) => {
    const body = (req.body ?? {}) as Json;
    const fileUri = str(body, 'fileUri');
    if (!fileUri) return bad(res, 'fileUri: required string');
    const payload = {
      mimeType: str(body, 'mimeType') ?? 'image/jpeg',
      fileSizeBytes: typeof body.fileSizeBytes === 'number' ? body.fileSizeBytes : 1024,
      fileUri,
      fileName: str(body, 'fileName') ?? 'file.jpg',
    };
    const thumbnailUri = str(body, 'thumbnailUri');
    const thumbnail = thumbnailUri && {
      mimeType: 'image/jpeg',
      fileSizeBytes: 128,
      fileUri: thumbnailUri,
      fileName: 'thumbnail.jpg',
    };
    await inject(res, req.params.phone, body, {
      userFile: { payload, ...(thumbnail && { thumbnail }) },
    });
  });

  router.post('/users/:phone/events', async (req, res) => {
    const body = (req.body ?? {}) as Json;
    const eventType = body.eventType;
    if (eventType !== 'SUBSCRIBE' && eventType !== 'UNSUBSCRIBE' && eventType !== 'IS_TYPING') {
      return bad(res, 'eventType: SUBSCRIBE, UNSUBSCRIBE or IS_TYPING');
    }
    await inject(res, req.params.phone, body, { eventType });
  });

  /** Steps a message by hand (profiles with deliver or read false, or tests that skip delays). */
  for (const eventType of ['DELIVERED', 'READ'] as const) {
    const path = eventType === 'DELIVERED' ? 'deliver' : 'read';
    router.post(`/messages/:messageId/${path}`, async (req, res) => {
      const message = state.findMessage(req.params.messageId);
      if (!message)
        return void res.status(404).json({ error: 'not_found', message: 'no such message' });
      for (const t of message.timers) clearTimeout(t);
      if (!(await markAndPush(message, eventType, options))) {
        return void res
          .status(409)
          .json({ error: 'conflict', message: `message is ${message.status}` });
      }
      res.json({ messageId: message.messageId, status: message.status });
    });
  }

  router.get('/messages', (req, res) => {
    const phone = typeof req.query.phone === 'string' ? req.query.phone : undefined;
    res.json({
      messages: state.listMessages(phone).map(({ timers: _timers, ...m }) => m),
    });
  });
  router.get('/testers', (_req, res) => {
    res.json({ testers: state.listTesters() });
  });
  router.put('/testers/:phone', (req, res) => {
    const body = (req.body ?? {}) as Json;
    const agentId = str(body, 'agentId');
    const status = body.inviteStatus;
    if (!agentId) return bad(res, 'agentId: required string');
    if (status !== 'ACCEPTED' && status !== 'DECLINED' && status !== 'PENDING') {
      return bad(res, 'inviteStatus: PENDING, ACCEPTED or DECLINED');
    }
    const tester = state.tester(agentId, req.params.phone);
    if (!tester) return void res.status(404).json({ error: 'not_found', message: 'not invited' });
    tester.inviteStatus = status;
    res.json(tester);
  });

  router.get('/stats', (_req, res) => {
    res.json({ ...state.counters, ...pusher.stats() });
  });
  router.post('/reset', (_req, res) => {
    state.reset();
    pusher.reset();
    res.status(204).end();
  });
  return router;
}
