import { type AccountState, Topics } from '@msg/contracts';
import { eventually } from '@msg/testing';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { about, startTestSms, type TestSms } from './support.js';

let sms: TestSms;
let acct: AccountState;

beforeAll(async () => {
  sms = await startTestSms();
  // Numeric senders must be registered to the account; alphanumerics are free (none registered).
  acct = await sms.publishAccount(
    sms.account({ senderIds: ['+46701234567', '123', '12345678901'] }),
  );
}, 60_000);

afterAll(async () => {
  await sms?.stop();
});

const valid = { to: '+46701234567', message: 'Hej på dig', from: 'Acme' };

describe('sendSms', () => {
  it('when the request is valid, then 202 with a messageId, a stored row and an SmsOutbound on the bus', async () => {
    const res = await sms.send(acct, { ...valid, to: '070-123 45 67' });
    expect(res.status).toBe(202);
    const { messageId } = res.body;
    expect(messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.location).toBe(`/v1/sms/${messageId}`);

    const { rows } = await sms.pool.query(
      'SELECT account_id, recipient, sender, text, encoding, parts, status FROM sms.message WHERE id = $1',
      [messageId],
    );
    expect(rows).toEqual([
      {
        account_id: acct.id,
        recipient: '+46701234567',
        sender: 'Acme',
        text: 'Hej på dig',
        encoding: 'GSM-7',
        parts: 1,
        status: 'accepted',
      },
    ]);

    const [event] = await eventually(() => {
      const found = sms.published(Topics.smsOutbound, about(messageId));
      return found.length > 0 ? found : undefined;
    }, 'the outbound event');
    expect(event?.key).toBe(acct.id);
    expect(event?.value).toMatchObject({ type: 'sms.outbound', accountId: acct.id });
    expect(event?.value.payload).toEqual({
      messageId,
      accountId: acct.id,
      source: 'sms',
      from: 'Acme',
      to: '+46701234567',
      text: 'Hej på dig',
      encoding: 'GSM-7',
      parts: 1,
      deliveryReport: true,
      throughputPerSecond: 25,
    });
  });

  it('when the text has a character outside GSM-7 and is long, then the event says UCS-2 and its parts', async () => {
    const res = await sms.send(acct, { ...valid, message: '日'.repeat(71) });
    expect(res.status).toBe(202);
    const [event] = await eventually(() => {
      const found = sms.published(Topics.smsOutbound, about(res.body.messageId));
      return found.length > 0 ? found : undefined;
    }, 'the outbound event');
    expect(event?.value.payload).toMatchObject({ encoding: 'UCS-2', parts: 2 });
  });

  it.each([
    ['+46701234567', '+46701234567'],
    ['0701234567', '+46701234567'],
    ['0046701234567', '+46701234567'],
    ['+46 70-123 45 67', '+46701234567'],
    ['+44 7911 123456', '+447911123456'],
  ])('when to is %j, then it is accepted as %s', async (to, e164) => {
    const res = await sms.send(acct, { ...valid, to });
    expect(res.status).toBe(202);
    const { rows } = await sms.pool.query('SELECT recipient FROM sms.message WHERE id = $1', [
      res.body.messageId,
    ]);
    expect(rows[0]?.recipient).toBe(e164);
  });

  it.each([
    ['+46701234567', 'international'],
    ['Acme Bank', 'alphanumeric with a space inside'],
    ['Åsa&Ørjan', 'alphanumeric with å ä ö æ ø'],
    ['Shop_1.a-b', 'alphanumeric with dot, underscore and hyphen'],
    ['ABCDEFGHIJK', 'alphanumeric of 11'],
    ['123', 'shortcode of 3'],
    ['12345678901', 'shortcode of 11'],
  ])('when from is %j (%s), then it is accepted', async (from) => {
    expect((await sms.send(acct, { ...valid, from })).status).toBe(202);
  });

  it.each([
    ['a'.repeat(1530), 'GSM-7 1530 characters'],
    ['日'.repeat(670), 'UCS-2 670 characters'],
  ])('when the message is %#: %s, then it is accepted in 10 parts', async (message) => {
    const res = await sms.send(acct, { ...valid, message });
    expect(res.status).toBe(202);
    const { rows } = await sms.pool.query('SELECT parts FROM sms.message WHERE id = $1', [
      res.body.messageId,
    ]);
    expect(rows[0]?.parts).toBe(10);
  });

  type Case = [string, Record<string, unknown>, string, string | RegExp];
  const bad: Case[] = [
    ['to missing', { message: 'x', from: 'Acme' }, 'to', 'missing'],
    ['to empty', { ...valid, to: '' }, 'to', 'minLength'],
    ['to letters', { ...valid, to: '+46 70 ABC' }, 'to', 'characters'],
    ['to too short', { ...valid, to: '+4670' }, 'to', 'too_short'],
    ['to too long', { ...valid, to: '+4670123456789012' }, 'to', 'too_long'],
    ['to a number, not a string', { ...valid, to: 46701234567 }, 'to', 'type'],
    ['from missing', { to: valid.to, message: 'x' }, 'from', 'missing'],
    ['from of 12 characters', { ...valid, from: 'ABCDEFGHIJKL' }, 'from', 'alphanumeric_too_long'],
    [
      'from with a leading space',
      { ...valid, from: ' Acme' },
      'from',
      'alphanumeric_space_at_edge',
    ],
    [
      'from with a trailing space',
      { ...valid, from: 'Acme ' },
      'from',
      'alphanumeric_space_at_edge',
    ],
    ['from with !', { ...valid, from: 'Acme!' }, 'from', 'alphanumeric_characters'],
    ['from a shortcode of 2', { ...valid, from: '12' }, 'from', 'shortcode_too_short'],
    ['from a shortcode of 12', { ...valid, from: '123456789012' }, 'from', 'shortcode_too_long'],
    ['from + and not E.164', { ...valid, from: '+0123' }, 'from', 'international_not_e164'],
    ['message empty', { ...valid, message: '' }, 'message', 'minLength'],
    ['message GSM-7 of 1531', { ...valid, message: 'a'.repeat(1531) }, 'message', 'too_many_parts'],
    ['message UCS-2 of 671', { ...valid, message: '日'.repeat(671) }, 'message', 'too_many_parts'],
    ['an unknown field', { ...valid, priority: 'high' }, 'priority', 'additionalProperties'],
    // Input rules of every JSON body (@msg/http): these were 500s (issue 10).
    ['message with a lone surrogate', { ...valid, message: 'a\ud800' }, 'message', 'text'],
    ['message with a NUL', { ...valid, message: 'a\u0000b' }, 'message', 'text'],
    ['from with a NUL', { ...valid, from: 'Ac\u0000me' }, 'from', 'text'],
    [
      'callback_url with a NUL',
      { ...valid, callback_url: 'https://x.example/cb\u0000' },
      'callback_url',
      'text',
    ],
    [
      'callback_url not http(s)',
      { ...valid, callback_url: 'ftp://x.example' },
      'callback_url',
      'format',
    ],
    ['callback_url no URL', { ...valid, callback_url: 'https://[nope/' }, 'callback_url', 'format'],
    [
      'callback_url with CR LF and a header',
      { ...valid, callback_url: 'https://x.example/cb\r\nX-Evil: 1' },
      'callback_url',
      'format',
    ],
    [
      'callback_url with credentials',
      { ...valid, callback_url: 'https://user:pw@x.example/cb' },
      'callback_url',
      'format',
    ],
    // Not a URI of RFC 3986 (issue 23): what an account would be shown differently from what is called.
    ...(
      [
        ['a C1 control', 'https://x.example/\u0085'],
        ['a right-to-left override', 'https://x.example/\u202egpj.exe'],
        ['a zero-width space', 'https://x.exa\u200bmple/cb'],
        ['U+FFFF', 'https://x.example/\uffff'],
        ['an IDN not in punycode', 'https://bücher.example/cb'],
        ['a percent sign without two hex digits', 'https://exa%zzmple.com/'],
      ] as const
    ).map(
      ([what, url]): Case => [
        `callback_url with ${what}`,
        { ...valid, callback_url: url },
        'callback_url',
        'format',
      ],
    ),
    // CALLBACK_ALLOW_PRIVATE_TARGETS is unset here, as in every deployed start.
    ...(
      [
        ['loopback', 'http://127.0.0.1:9/cb'],
        ['short loopback', 'http://127.1/cb'],
        ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
        ['the metadata address in decimal', 'http://2852039166/'],
        ['the metadata address in hex', 'http://0xa9fea9fe/'],
        ['the metadata address in octal', 'http://0251.0376.0251.0376/'],
        ['the metadata address IPv6-mapped', 'http://[::ffff:169.254.169.254]/'],
        ['the metadata address IPv6-mapped in hex', 'http://[::ffff:a9fe:a9fe]/'],
        ['a private address', 'https://192.168.1.10/cb'],
        ['localhost', 'http://localhost:3000/cb'],
        ['a subdomain of localhost', 'http://cb.localhost/'],
        ['0.0.0.0', 'http://0.0.0.0/'],
        ['[::]', 'http://[::]/'],
        ['[::1]', 'http://[::1]/'],
      ] as const
    ).map(
      ([what, url]): Case => [
        `callback_url to ${what}`,
        { ...valid, callback_url: url },
        'callback_url',
        'format',
      ],
    ),
    [
      'callback_url over 2083',
      { ...valid, callback_url: `https://x.example/${'a'.repeat(2070)}` },
      'callback_url',
      'maxLength',
    ],
  ];

  it.each(bad)(
    'when %s, then 400 naming the field and the rule',
    async (_case, body, field, rule) => {
      const res = await sms.send(acct, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details).toEqual(
        expect.arrayContaining([expect.objectContaining({ loc: ['body', field], type: rule })]),
      );
      expect(res.body.message).toContain(field);
    },
  );

  it('when callback_url is a punycode IDN, percent-encoded or a public address, then 202 and it is stored as sent', async () => {
    for (const url of [
      'https://xn--bcher-kva.example/cb?x=%C3%A4',
      'http://8.8.8.8:8080/cb',
      'https://[2001:4860:4860::8888]/cb',
    ]) {
      const res = await sms.send(acct, { ...valid, callback_url: url });
      expect(res.status, url).toBe(202);
      const { rows } = await sms.pool.query('SELECT callback_url FROM sms.message WHERE id = $1', [
        res.body.messageId,
      ]);
      expect(rows[0]?.callback_url).toBe(url);
    }
  });

  it('when the message needs 11 parts, then the answer says at most 10 parts', async () => {
    const res = await sms.send(acct, { ...valid, message: 'a'.repeat(1531) });
    expect(res.body.message).toMatch(/body\.message: at most 10 parts/);
  });

  it('when several fields break rules, then all are named at once', async () => {
    const res = await sms.send(acct, { to: '+4670', from: 'Acme!', message: 'a'.repeat(1531) });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { loc: string[] }) => d.loc[1])).toEqual([
      'to',
      'from',
      'message',
    ]);
  });

  it('when the body is malformed JSON, empty, the wrong media type or too large, then 400, 400, 415, 413', async () => {
    const post = () =>
      request(sms.app).post('/v1/sms/send').auth(acct.name, 'correct horse battery staple');
    const malformed = await post().set('content-type', 'application/json').send('{"to":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('MALFORMED_REQUEST');
    const empty = await post().set('content-type', 'application/json').send('');
    expect(empty.status).toBe(400);
    const text = await post().set('content-type', 'text/plain').send('to=+46701234567');
    expect(text.status).toBe(415);
    const huge = await post().send({ ...valid, message: 'a'.repeat(20_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('when a request is refused, then nothing is stored', async () => {
    const before = await sms.pool.query('SELECT count(*)::int AS n FROM sms.message');
    await sms.send(acct, { ...valid, to: 'nope' });
    const after = await sms.pool.query('SELECT count(*)::int AS n FROM sms.message');
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
  });
});

describe('sendSms: whose sender ids (issue 23)', () => {
  const refusedFrom = async (res: request.Response, type: string) => {
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details).toEqual([expect.objectContaining({ loc: ['body', 'from'], type })]);
  };
  const stored = async () =>
    (await sms.pool.query('SELECT count(*)::int AS n FROM sms.message')).rows[0]?.n as number;

  it('when an account with registered sender id ACME sends from BANKID, then 400 not_registered naming from, and nothing is stored or sent', async () => {
    const acme = await sms.publishAccount(sms.account({ senderIds: ['ACME'] }));
    const before = await stored();
    await refusedFrom(await sms.send(acme, { ...valid, from: 'BANKID' }), 'not_registered');
    await refusedFrom(await sms.send(acme, { ...valid, from: 'ACME Bank' }), 'not_registered');
    expect(await stored()).toBe(before);
  });

  it('when it sends from ACME, in any case, then 202 with the sender as given', async () => {
    const acme = await sms.publishAccount(sms.account({ senderIds: ['ACME'] }));
    expect((await sms.send(acme, { ...valid, from: 'ACME' })).status).toBe(202);
    const res = await sms.send(acme, { ...valid, from: 'Acme' });
    expect(res.status).toBe(202);
    const { rows } = await sms.pool.query('SELECT sender FROM sms.message WHERE id = $1', [
      res.body.messageId,
    ]);
    expect(rows[0]?.sender).toBe('Acme');
  });

  it('when a number or shortcode is not registered to the account, then 400 not_registered', async () => {
    const acme = await sms.publishAccount(sms.account({ senderIds: ['ACME'] }));
    await refusedFrom(await sms.send(acme, { ...valid, from: '+46701234567' }), 'not_registered');
    await refusedFrom(await sms.send(acme, { ...valid, from: '72000' }), 'not_registered');
  });

  it('when the operator protects BankID, then an account that did not register it is refused it and its look-alikes; one it is registered to sends', async () => {
    await sms.publishProtectedSenders(['BankID', 'Swedbank']);
    const open = await sms.publishAccount(sms.account());
    for (const from of ['BankID', 'BANKID', 'Bank ID', 'B4NK-1D', 'SWEDBANK']) {
      await refusedFrom(await sms.send(open, { ...valid, from }), 'protected');
    }
    expect((await sms.send(open, { ...valid, from: 'Acme' })).status).toBe(202);
    const bank = await sms.publishAccount(sms.account({ senderIds: ['BankID'] }));
    expect((await sms.send(bank, { ...valid, from: 'BankID' })).status).toBe(202);
  });

  it('when the operator takes a name off the list, then it is free again', async () => {
    await sms.publishProtectedSenders(['Polisen']);
    const open = await sms.publishAccount(sms.account());
    await refusedFrom(await sms.send(open, { ...valid, from: 'Polisen' }), 'protected');
    await sms.publishProtectedSenders(['Swedbank']);
    await eventually(async () => {
      const res = await sms.send(open, { ...valid, from: 'Polisen' });
      return res.status === 202 ? true : undefined;
    }, 'Polisen to be free');
  });
});

describe('sendSms together', () => {
  it('when 60 sends arrive at once (written in shared statements), then each is stored with its own event, in order per account', async () => {
    const together = await sms.publishAccount(sms.account());
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, n) =>
        sms.send(together, {
          ...valid,
          message: `together ${n}`,
          callback_url: `https://h.example.com/${n}`,
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 202));
    const ids = answers.map((a) => a.body.messageId);
    expect(new Set(ids).size).toBe(60);

    const { rows } = await sms.pool.query<{ id: string; text: string; callback_url: string }>(
      'SELECT id, text, callback_url FROM sms.message WHERE account_id = $1',
      [together.id],
    );
    expect(rows).toHaveLength(60);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const [n, id] of ids.entries()) {
      expect(byId.get(id)).toMatchObject({
        text: `together ${n}`,
        callback_url: `https://h.example.com/${n}`,
      });
    }
    const events = await eventually(() => {
      const found = sms.published(Topics.smsOutbound, (p) => ids.some((id) => about(id)(p)));
      return found.length >= 60 ? found : undefined;
    }, '60 outbound events');
    expect(events).toHaveLength(60);
    for (const event of events) expect(event.key).toBe(together.id);
    // The outbox publishes in the order the rows were written, which is the order of the sends'
    // rows in the database: an event never overtakes an earlier-stored message of its account.
    const { rows: stored } = await sms.pool.query<{ id: string }>(
      `SELECT value->'payload'->>'messageId' AS id FROM sms.outbox_event
       WHERE key = $1 ORDER BY seq`,
      [together.id],
    );
    const order = stored.map((r) => r.id);
    expect(events.map((e) => order.find((id) => about(id)(e.value.payload)))).toEqual(order);
  });
});

describe('sendSms access', () => {
  it.each([
    ['no credentials', undefined, undefined],
    ['a wrong password', 'self', 'wrong password'],
    ['an unknown user', 'NoSuchAccount', 'correct horse battery staple'],
    ['the password and a trailing NUL', 'self', 'correct horse battery staple\0'],
    ['the password and two trailing NULs', 'self', 'correct horse battery staple\0\0'],
  ])('when called with %s, then 401 with a Basic challenge', async (_case, user, password) => {
    let call = request(sms.app).post('/v1/sms/send');
    if (user && password) call = call.auth(user === 'self' ? acct.name : user, password);
    const res = await call.send(valid);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm="SMS"/);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  it('when the username differs only in letter case, then it is the same account', async () => {
    expect((await sms.send(acct, valid, acct.name.toUpperCase())).status).toBe(202);
    expect((await sms.send(acct, valid, acct.name.toLowerCase())).status).toBe(202);
  });

  it.each([
    ['the account is disabled', { status: 'disabled' as const }, /disabled/],
    ['the account lacks the sms permission', { permissions: ['batch_sms' as const] }, /'sms'/],
    ['the caller is outside the IP allow-list', { ipAllowList: ['10.0.0.0/8'] }, /not allowed/],
  ])('when %s, then 403 even for a bad body', async (_case, overrides, message) => {
    const refused = await sms.publishAccount(sms.account(overrides));
    for (const body of [valid, { to: 'x' }]) {
      const res = await sms.send(refused, body);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringMatching(message),
      });
    }
  });

  it('when the caller is inside the allow-list, then it may send', async () => {
    const allowed = await sms.publishAccount(sms.account({ ipAllowList: ['127.0.0.0/8', '::1'] }));
    expect((await sms.send(allowed, valid)).status).toBe(202);
  });

  it('when the account rate is exceeded, then 429 with Retry-After', async () => {
    const slow = await sms.publishAccount(sms.account({ rateLimit: { perSecond: 1, burst: 2 } }));
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push(await sms.send(slow, valid));
    expect(statuses.map((r) => r.status)).toEqual([202, 202, 429]);
    expect(Number(statuses[2]?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(statuses[2]?.body.code).toBe('RATE_LIMITED');
  });
});

describe('probes', () => {
  it('when the service has started, then it is live and ready', async () => {
    expect((await request(sms.app).get('/healthz')).status).toBe(200);
    const ready = await request(sms.app).get('/readyz');
    expect(ready.body).toMatchObject({
      status: 'ok',
      // The bus is not a readiness check: sends go into the outbox while Kafka is away.
      checks: { database: 'ok', 'account-directory': 'ok' },
    });
  });
});
