import type { AccountState } from '@msg/contracts';
import { LEGACY_LANGUAGES } from '@msg/speech';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD,
  PROVISIONED,
  REGISTERED,
  SERVICE_CALLER_ID,
  startTestVoice,
  type TestVoice,
} from './support.js';

let voice: TestVoice;
let acct: AccountState;

beforeAll(async () => {
  voice = await startTestVoice();
  acct = await voice.publishAccount(voice.account());
});
afterAll(() => voice?.stop());

const query = (extra: Record<string, string> = {}) => ({
  User: acct.name,
  Pass: PASSWORD,
  To: '+447911123456',
  Msg: 'Hello',
  ...extra,
});

async function stored(transactionId: string) {
  const { rows } = await voice.pool.query(
    'SELECT * FROM voice.messages WHERE transaction_id = $1',
    [transactionId],
  );
  return rows[0];
}

function transactionIdOf(text: string): string {
  const params = new URLSearchParams(text);
  expect(params.get('request')).toBe('true');
  return params.get('TransactionId') ?? '';
}

describe('GET /txt2voice/v1/sendtts (legacy)', () => {
  it('when the query is complete, then 202 request=true&TransactionId=..., form-encoded and marked deprecated', async () => {
    const res = await voice.sendtts(query({ ExternalReferenceId: 'ext-9' }));
    expect(res.status, res.text).toBe(202);
    expect(res.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(res.text).toMatch(/^request=true&TransactionId=[0-9a-f-]{36}$/);
    expect(res.headers.deprecation).toMatch(/^@\d+$/);
    expect(res.headers.link).toBe('</txt2voice/v1/messages>; rel="successor-version"');
    const row = await stored(transactionIdOf(res.text));
    expect(row).toMatchObject({
      source: 'legacy',
      language: 'en-GB',
      client_reference: 'ext-9',
      caller_id: SERVICE_CALLER_ID,
      play_count: 3,
    });
  });

  it.each(Object.entries(LEGACY_LANGUAGES))(
    'when Lang=%s, then the message is in %s',
    async (code, tag) => {
      const res = await voice.sendtts(query({ Lang: code }));
      expect(res.status).toBe(202);
      expect((await stored(transactionIdOf(res.text))).language).toBe(tag);
    },
  );

  it('when Lang is not in the table, then 200 request=false&error=Unsupported language: <code> exactly', async () => {
    const res = await voice.sendtts(query({ Lang: 'XX' }));
    expect(res.status).toBe(200);
    expect(res.text).toBe('request=false&error=Unsupported language: XX');
    expect(res.headers.deprecation).toBeDefined();
  });

  it.each([
    ['+46701234567', '+46701234567'],
    ['0046701234567', '+46701234567'],
    ['0701234567', '+46701234567'],
  ])('when To=%s, then the recipient is %s', async (to, e164) => {
    const res = await voice.sendtts(query({ To: to }));
    expect(res.status).toBe(202);
    expect((await stored(transactionIdOf(res.text))).recipient).toBe(e164);
  });

  it.each([
    ['To', { To: 'abc' }],
    ['To', { To: '' }],
    ['Msg', { Msg: '' }],
    ['Msg', { Msg: 'x'.repeat(5001) }],
    ['ExternalReferenceId', { ExternalReferenceId: 'r'.repeat(101) }],
  ])('when %s is malformed (case %#), then 400 request=false naming it', async (name, extra) => {
    const res = await voice.sendtts(query(extra));
    expect(res.status).toBe(400);
    expect(res.text).toMatch(new RegExp(`^request=false&error=.*${name}`));
  });

  it('when a parameter is unknown, then 400 request=false', async () => {
    const res = await voice.sendtts(query({ Voice: 'x' }));
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^request=false&error=/);
  });

  it('when Msg holds <break> and <prosody>, then accepted and the markup is kept for speech', async () => {
    const msg = 'Hej <break time="500ms"/><prosody rate="slow">a b c</prosody>';
    const res = await voice.sendtts(query({ Msg: msg }));
    expect(res.status).toBe(202);
    expect((await stored(transactionIdOf(res.text))).markup).toBe(msg);
  });

  it('when the query is encoded by hand (reserved characters unescaped, + for a space), then it is read as such', async () => {
    const raw = `User=${acct.name}&Pass=${PASSWORD}&To=%2B447911123456&Msg=Kod+<break time="1s"/>1+2+3`;
    const res = await voice.raw().get(`/txt2voice/v1/sendtts?${raw}`);
    expect(res.status, res.text).toBe(202);
    expect((await stored(transactionIdOf(res.text))).markup).toBe('Kod <break time="1s"/>1 2 3');
  });

  it.each(['<break time="1s">', 'a </prosody>', '<prosody rate="slow">x', 'a & b'])(
    'when Msg is malformed XML (%s), then 400',
    async (msg) => {
      const res = await voice.sendtts(query({ Msg: msg }));
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/^request=false&error=Msg: malformed XML/);
    },
  );

  it('when the password is wrong, then 200 request=false', async () => {
    const res = await voice.sendtts(query({ Pass: 'wrong' }));
    expect(res.status).toBe(200);
    expect(res.text).toBe('request=false&error=wrong user or password');
  });

  it('when the account lacks text_to_voice, then 200 request=false', async () => {
    const other = await voice.publishAccount(voice.account({ permissions: ['sms'] }));
    const res = await voice.sendtts(query({ User: other.name }));
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^request=false&error=.*permission/);
  });

  it('when From is registered, then it is the caller ID', async () => {
    const res = await voice.sendtts(query({ From: REGISTERED }));
    expect((await stored(transactionIdOf(res.text))).caller_id).toBe(REGISTERED);
  });

  it.each([
    ['+4420700000999', /not registered/],
    ['ACME', /alphanumeric/],
  ])('when From is %s, then 200 request=false', async (from, why) => {
    const res = await voice.sendtts(query({ From: from }));
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^request=false&error=/);
    expect(new URLSearchParams(res.text).get('error')).toMatch(why);
  });

  it('when a Swedish To and a registered but unprovisioned From, then 200 request=false; provisioned is accepted', async () => {
    expect((await voice.sendtts(query({ To: '0701234567', From: REGISTERED }))).text).toMatch(
      /^request=false/,
    );
    expect((await voice.sendtts(query({ To: '0701234567', From: PROVISIONED }))).status).toBe(202);
  });

  it('when the call is placed, then the speech engine gets the parsed markup to obey', async () => {
    const msg = 'Kod <break time="1s"/>1 2 <prosody rate="slow">3</prosody>';
    const res = await voice.sendtts(query({ Msg: msg, Lang: 'SE' }));
    const id = transactionIdOf(res.text);
    await voice.finished(acct, id);
    const request = voice.speech.requests.find((r) => r.text === msg);
    expect(request).toMatchObject({
      language: 'sv',
      markup: {
        parts: [
          { kind: 'text', text: 'Kod ' },
          { kind: 'break', ms: 1000 },
          { kind: 'text', text: '1 2 ' },
          { kind: 'text', text: '3', prosody: { rate: 75 } },
        ],
      },
    });
  });

  it('when Msg has no marks, then it is spoken as plain text (entities decoded), without markup', async () => {
    const res = await voice.sendtts(query({ Msg: 'Kod 1 2 3 &amp; klart', Lang: 'SE' }));
    await voice.finished(acct, transactionIdOf(res.text));
    const request = voice.speech.requests.find((r) => r.text === 'Kod 1 2 3 & klart');
    expect(request).toEqual({ text: 'Kod 1 2 3 & klart', language: 'sv', gender: 'male' });
  });
});
