import type { AccountState } from '@msg/contracts';
import { VOICE_LANGUAGES } from '@msg/speech';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PROVISIONED,
  REGISTERED,
  SERVICE_CALLER_ID,
  startTestVoice,
  type TestVoice,
} from './support.js';

let voice: TestVoice;
let acct: AccountState;
const to = '+4420799990001';

beforeAll(async () => {
  voice = await startTestVoice();
  acct = await voice.publishAccount(voice.account());
});
afterAll(() => voice?.stop());

async function stored(transactionId: string) {
  const { rows } = await voice.pool.query(
    'SELECT * FROM voice.messages WHERE transaction_id = $1',
    [transactionId],
  );
  return rows[0];
}

/** A 422 whose detail names `field` with rule `type`. */
async function refused(body: object | string, field: string[], type: string) {
  const res = await voice.send(acct, body);
  expect(res.status, res.text).toBe(422);
  expect(res.body.detail).toEqual(
    expect.arrayContaining([expect.objectContaining({ loc: field, type })]),
  );
  return res;
}

describe('POST /txt2voice/v1/messages', () => {
  it('when to and text are given, then 202 with a transaction id and the 2.6 defaults are stored', async () => {
    const res = await voice.send(acct, { to, text: 'Hello' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ transaction_id: expect.any(String), status: 'accepted' });
    const row = await stored(res.body.transaction_id);
    expect(row).toMatchObject({
      language: 'en-GB',
      gender: 'male',
      play_count: 3,
      machine_detection: false,
      caller_id: SERVICE_CALLER_ID,
      instructions: null,
      client_reference: null,
    });
  });

  describe('to (strict E.164)', () => {
    it.each(['+6907290', '+123456789012345'])('when %s, then accepted', async (number) => {
      expect((await voice.send(acct, { to: number, text: 'x' })).status).toBe(202);
    });
    // '+1', '+46', '+999', '+46701': shorter than any number (issue 23; @msg/phone's E.164 rule).
    it.each([
      '46701234567',
      '+0701234567',
      '+1234567890123456',
      '+46 70 123',
      '0701234567',
      '+1',
      '+46',
      '+999',
      '+46701',
    ])('when %s, then 422 naming to', async (number) => {
      await refused({ to: number, text: 'x' }, ['body', 'to'], 'pattern');
    });
    it('when missing, then 422 missing', async () => {
      await refused({ text: 'x' }, ['body', 'to'], 'missing');
    });
  });

  describe('text (1 to 5000, SSML read as text)', () => {
    it('when 1 and 5000 characters, then accepted', async () => {
      expect((await voice.send(acct, { to, text: 'a' })).status).toBe(202);
      expect((await voice.send(acct, { to, text: 'a'.repeat(5000) })).status).toBe(202);
    });
    it('when empty, then 422 minLength', async () => {
      await refused({ to, text: '' }, ['body', 'text'], 'minLength');
    });
    it('when 5001 characters, then 422 maxLength', async () => {
      await refused({ to, text: 'a'.repeat(5001) }, ['body', 'text'], 'maxLength');
    });
    it('when it holds SSML, then it is stored as text with no markup to obey', async () => {
      const text = '<speak><break time="3s"/>Hi</speak>';
      const res = await voice.send(acct, { to, text });
      expect(res.status).toBe(202);
      expect(await stored(res.body.transaction_id)).toMatchObject({ text, markup: null });
    });
  });

  describe('language (45 tags, case-insensitive)', () => {
    it('when each of the 45 tags in lower case, then accepted in canonical case', async () => {
      expect(VOICE_LANGUAGES).toHaveLength(45);
      for (const tag of VOICE_LANGUAGES) {
        const res = await voice.send(acct, { to, text: 'x', language: tag.toLowerCase() });
        expect(res.status, tag).toBe(202);
        expect((await stored(res.body.transaction_id)).language).toBe(tag);
      }
    });
    it.each(['en', 'pt', 'xx', 'sv-SE'])('when %s, then 422 unsupported_language', async (tag) => {
      await refused({ to, text: 'x', language: tag }, ['body', 'language'], 'unsupported_language');
    });
  });

  describe('instructions (at most 500, stored only)', () => {
    it('when 500 characters, then stored', async () => {
      const res = await voice.send(acct, { to, text: 'x', instructions: 'i'.repeat(500) });
      expect(res.status).toBe(202);
      expect((await stored(res.body.transaction_id)).instructions).toHaveLength(500);
    });
    it('when null, then accepted', async () => {
      expect((await voice.send(acct, { to, text: 'x', instructions: null })).status).toBe(202);
    });
    it('when 501 characters, then 422 maxLength', async () => {
      await refused(
        { to, text: 'x', instructions: 'i'.repeat(501) },
        ['body', 'instructions'],
        'maxLength',
      );
    });
  });

  describe('gender', () => {
    it.each([
      ['female', 'female'],
      ['male', 'male'],
      [null, 'male'],
    ])('when %s, then the %s voice', async (gender, voiceGender) => {
      const res = await voice.send(acct, { to, text: 'x', gender });
      expect(res.status).toBe(202);
      expect((await stored(res.body.transaction_id)).gender).toBe(voiceGender);
    });
    it('when another value, then 422 enum', async () => {
      await refused({ to, text: 'x', gender: 'robot' }, ['body', 'gender'], 'enum');
    });
  });

  describe('machine_detection', () => {
    it('when true, then stored', async () => {
      const res = await voice.send(acct, { to, text: 'x', machine_detection: true });
      expect((await stored(res.body.transaction_id)).machine_detection).toBe(true);
    });
    it('when a string, then 422 type', async () => {
      await refused(
        { to, text: 'x', machine_detection: 'yes' },
        ['body', 'machine_detection'],
        'type',
      );
    });
  });

  describe('play_count (1 to 10, default 3)', () => {
    it.each([1, 10])('when %s, then stored', async (count) => {
      const res = await voice.send(acct, { to, text: 'x', play_count: count });
      expect((await stored(res.body.transaction_id)).play_count).toBe(count);
    });
    it('when 0, then 422 minimum', async () => {
      await refused({ to, text: 'x', play_count: 0 }, ['body', 'play_count'], 'minimum');
    });
    it('when 11, then 422 maximum', async () => {
      await refused({ to, text: 'x', play_count: 11 }, ['body', 'play_count'], 'maximum');
    });
  });

  describe('client_reference (at most 100)', () => {
    it('when 100 characters, then stored', async () => {
      const res = await voice.send(acct, { to, text: 'x', client_reference: 'r'.repeat(100) });
      expect((await stored(res.body.transaction_id)).client_reference).toHaveLength(100);
    });
    it('when 101 characters, then 422 maxLength', async () => {
      await refused(
        { to, text: 'x', client_reference: 'r'.repeat(101) },
        ['body', 'client_reference'],
        'maxLength',
      );
    });
  });

  describe('the request as a whole', () => {
    it('when the JSON is malformed, then 422 json_invalid in the detail shape', async () => {
      const res = await voice.send(acct, '{"to": ');
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
    });
    it('when an unknown member is sent, then 422 naming it', async () => {
      const res = await voice.send(acct, { to, text: 'x', voice: 'Alice' });
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body.detail)).toContain('voice');
    });
    it('when the body is over 64 kB, then 413 in the detail shape', async () => {
      const res = await voice.send(acct, { to, text: 'x', client_reference: 'r'.repeat(70_000) });
      expect(res.status).toBe(413);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body'], type: 'payload_too_large' });
    });
    it('when several rules are broken, then one entry per problem', async () => {
      const res = await voice.send(acct, { to: 'x', text: '', play_count: 0 });
      expect(res.status).toBe(422);
      expect(res.body.detail.length).toBeGreaterThanOrEqual(3);
    });
  });

  describe('caller ID (2.6, 7.5 rule 1)', () => {
    it('when the sender is registered, then it is the caller ID', async () => {
      const res = await voice.send(acct, { to, text: 'x', sender: REGISTERED });
      expect((await stored(res.body.transaction_id)).caller_id).toBe(REGISTERED);
    });
    it('when no sender but an account default, then the account default', async () => {
      const other = await voice.publishAccount(voice.account({ voiceDefaultSender: REGISTERED }));
      const res = await voice.send(other, { to, text: 'x' });
      expect((await stored(res.body.transaction_id)).caller_id).toBe(REGISTERED);
    });
    it('when the sender is not registered, then 422 at once with instructions and nothing stored', async () => {
      const before = (await voice.pool.query('SELECT count(*)::int AS n FROM voice.messages'))
        .rows[0].n;
      const res = await refused(
        { to, text: 'x', sender: '+4420700000999' },
        ['body', 'sender'],
        'caller_id_unregistered',
      );
      expect(res.body.detail[0].msg).toMatch(/register/);
      const after = (await voice.pool.query('SELECT count(*)::int AS n FROM voice.messages'))
        .rows[0].n;
      expect(after).toBe(before);
    });
    it('when the account default is not registered, then 422 caller_id_unregistered', async () => {
      const other = await voice.publishAccount(
        voice.account({ voiceDefaultSender: '+4420700000998' }),
      );
      const res = await voice.send(other, { to, text: 'x' });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].type).toBe('caller_id_unregistered');
    });
    it.each(['ACME', '+46701'])(
      'when the sender is %s, then 422 (strict E.164)',
      async (sender) => {
        await refused({ to, text: 'x', sender }, ['body', 'sender'], 'pattern');
      },
    );
    it('when the account default is alphanumeric, then 422 caller_id_alphanumeric', async () => {
      const other = await voice.publishAccount(voice.account({ voiceDefaultSender: 'ACME' }));
      const res = await voice.send(other, { to, text: 'x' });
      expect(res.body.detail[0]).toMatchObject({ type: 'caller_id_alphanumeric' });
    });
    it('when a Swedish destination and a registered but unprovisioned caller ID, then 422 caller_id_not_provisioned', async () => {
      await refused(
        { to: '+46701234567', text: 'x', sender: REGISTERED },
        ['body', 'sender'],
        'caller_id_not_provisioned',
      );
    });
    it('when a Swedish destination and a provisioned caller ID, then accepted', async () => {
      expect(
        (await voice.send(acct, { to: '+46701234567', text: 'x', sender: PROVISIONED })).status,
      ).toBe(202);
    });
    it('when a Swedish destination and no sender, then the service default (provisioned)', async () => {
      const res = await voice.send(acct, { to: '+46701234567', text: 'x' });
      expect((await stored(res.body.transaction_id)).caller_id).toBe(SERVICE_CALLER_ID);
    });
  });
});
