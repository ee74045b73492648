import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestAdmin } from './support.js';

let admin: Awaited<ReturnType<typeof startTestAdmin>>;
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
const base = '/internal/v1/accounts';
let counter = 0;

beforeAll(async () => {
  admin = await startTestAdmin();
}, 60_000);
afterAll(async () => {
  await admin?.stop();
});

const api = () => request(admin.app);
const create = (body: Record<string, unknown> = {}) => {
  counter += 1;
  return api()
    .post(base)
    .set(auth)
    .send({ name: `voice${Date.now().toString(36)}${counter}`, ...body });
};

describe('voice caller IDs (spec 2.6)', () => {
  it('when registered with a default, then shown and published on accounts.v1; null clears the default', async () => {
    const res = await create({
      permissions: ['text_to_voice'],
      voiceCallerIds: ['+46812345678', '+4420700000001'],
      voiceDefaultSender: '+46812345678',
      callbacks: { voiceReportUrl: 'https://example.com/voice-dlr' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      voiceCallerIds: ['+46812345678', '+4420700000001'],
      voiceDefaultSender: '+46812345678',
    });
    expect(await admin.publishedState(res.body.id, 1)).toMatchObject({
      voiceCallerIds: ['+46812345678', '+4420700000001'],
      voiceDefaultSender: '+46812345678',
      callbacks: { voiceReportUrl: 'https://example.com/voice-dlr' },
    });
    const cleared = await api()
      .patch(`${base}/${res.body.id}`)
      .set(auth)
      .send({ voiceDefaultSender: null });
    expect(cleared.body.voiceDefaultSender).toBeNull();
    expect((await admin.publishedState(res.body.id, 2)).voiceDefaultSender).toBeNull();
  });

  it('when none are given, then none are registered', async () => {
    const res = await create();
    expect(res.body).toMatchObject({ voiceCallerIds: [], voiceDefaultSender: null });
  });

  it.each([
    [{ voiceCallerIds: ['ACME'] }, 'voiceCallerIds'],
    [{ voiceCallerIds: ['46812345678'] }, 'voiceCallerIds'],
    [{ voiceDefaultSender: 'ACME' }, 'voiceDefaultSender'],
    [
      { voiceCallerIds: ['+46812345678'], voiceDefaultSender: '+46899999999' },
      'voiceDefaultSender',
    ],
  ])('when %j, then 400 naming %s', async (body, field) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
  });
});
