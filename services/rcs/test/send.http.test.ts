import type { AccountState } from '@msg/contracts';
import { Topics } from '@msg/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRcs, type TestRcs } from './support.js';

const AGENT = 'send-agent';
const url = 'https://cdn.example.com/a.png';
const reply = (text = 'Yes', postback_data = 'yes') => ({ reply: { text, postback_data } });
const action = (kind: object) => ({ action: { text: 'Go', postback_data: 'go', ...kind } });
const card = (extra: object = {}) => ({ title: 'T', description: 'D', ...extra });
const standalone = (extra: object = {}) => ({
  rich_card: {
    standalone_card: {
      card_orientation: 'VERTICAL',
      card_content: card(extra),
    },
  },
});
const carousel = (n: number) => ({
  rich_card: {
    carousel_card: { card_width: 'SMALL', card_contents: Array.from({ length: n }, () => card()) },
  },
});

describe('POST /rcs/v1/messages (spec 2.5, 4.5, 7.4)', () => {
  let rcs: TestRcs;
  let acct: AccountState;

  const valid = (overrides: object = {}) => ({
    recipient: '+46701740605',
    agent_id: AGENT,
    message: { text: 'Hello' },
    ...overrides,
  });
  const withMessage = (message: object, overrides: object = {}) => valid({ message, ...overrides });

  /** Sends `body`, expects 400 and answers the loc of every problem. */
  async function refusedAt(body: object): Promise<string[][]> {
    const res = await rcs.send(acct, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.message).toBe('Request validation failed');
    return res.body.details.errors.map((e: { loc: string[] }) => e.loc);
  }

  async function accepted(body: object) {
    const res = await rcs.send(acct, body);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    return res.body as { message_id: string; client_message_id: string | null };
  }

  beforeAll(async () => {
    rcs = await startTestRcs({ perMinute: 10_000 });
    acct = await rcs.publishAccount(rcs.account());
    await rcs.agent(AGENT, [acct], { use_case: 'PROMOTION' });
  });

  afterAll(async () => {
    await rcs?.stop();
  });

  describe('send request table', () => {
    it('when the request is valid, then 202 with a message id and the echoed client_message_id, queued for the agent', async () => {
      const answer = await accepted(valid({ client_message_id: 'order-1' }));
      expect(answer).toEqual({ message_id: expect.any(String), client_message_id: 'order-1' });
      const [queued] = await rcs.publishedAbout(Topics.rcsOutbound, answer.message_id);
      expect(queued?.key).toBe(AGENT);
      expect(queued?.value.payload).toMatchObject({
        agentId: AGENT,
        accountId: acct.id,
        recipient: '+46701740605',
        clientMessageId: 'order-1',
        // The agent's use case is the default traffic type.
        messageTrafficType: 'PROMOTION',
        content: { text: 'Hello' },
      });
    });

    it('when client_message_id is absent or null, then it is echoed as null', async () => {
      expect((await accepted(valid())).client_message_id).toBeNull();
      expect((await accepted(valid({ client_message_id: null }))).client_message_id).toBeNull();
    });

    it('when client_message_id has 256 characters it is accepted; 257 is a 400 naming it', async () => {
      await accepted(valid({ client_message_id: 'c'.repeat(256) }));
      expect(await refusedAt(valid({ client_message_id: 'c'.repeat(257) }))).toEqual([
        ['body', 'client_message_id'],
      ]);
    });

    it('when a required field is missing, then 400 naming each', async () => {
      const locs = await refusedAt({});
      expect(locs).toEqual(
        expect.arrayContaining([
          ['body', 'recipient'],
          ['body', 'agent_id'],
          ['body', 'message'],
        ]),
      );
    });

    // '+46', '+999' and '+46701' were accepted (202) and then dead-lettered by the RBM client
    // (issue 23): the document now says what the client does, 7 to 15 digits.
    it.each([
      '46701740605',
      '+046701740605',
      '+4670174060512345',
      '+46 701740605',
      '+',
      '+1',
      '+46',
      '+999',
      '+46701',
      '+123456',
    ])(
      'when the recipient is %j (not strict E.164), then 400 naming recipient',
      async (recipient) => {
        expect(await refusedAt(valid({ recipient }))).toEqual([['body', 'recipient']]);
      },
    );

    it('when the recipient has 15 digits, or 7 (a Tokelau mobile), then it is accepted', async () => {
      await accepted(valid({ recipient: '+123456789012345' }));
      await accepted(valid({ recipient: '+6907290' }));
    });

    it('when message_traffic_type is given it is used; an unknown value is a 400 naming it', async () => {
      const answer = await accepted(valid({ message_traffic_type: 'AUTHENTICATION' }));
      const [queued] = await rcs.publishedAbout(Topics.rcsOutbound, answer.message_id);
      expect(queued?.value.payload).toMatchObject({ messageTrafficType: 'AUTHENTICATION' });
      const locs = await refusedAt(valid({ message_traffic_type: 'MARKETING' }));
      expect(locs.every((loc) => loc[1] === 'message_traffic_type')).toBe(true);
    });

    it('when sms_fallback is present, then 400 naming it (not yet enabled); null is accepted', async () => {
      const res = await rcs.send(acct, valid({ sms_fallback: { sender: 'Acme', text: 'Hi' } }));
      expect(res.status).toBe(400);
      expect(res.body.details.errors).toEqual([
        { loc: ['body', 'sms_fallback'], msg: expect.any(String), type: 'not_enabled' },
      ]);
      await accepted(valid({ sms_fallback: null }));
    });

    it('when dry_run is not a boolean, then 400 naming it', async () => {
      expect(await refusedAt(valid({ dry_run: 'yes' }))).toEqual([['body', 'dry_run']]);
    });

    it('when unknown fields appear anywhere, then they are dropped, not refused', async () => {
      const answer = await accepted(
        withMessage(
          { text: 'Hi', colour: 'red', suggestions: [{ ...reply(), extra: 1 }] },
          { priority: 'high' },
        ),
      );
      const [queued] = await rcs.publishedAbout(Topics.rcsOutbound, answer.message_id);
      expect(queued?.value.payload).toMatchObject({
        content: { text: 'Hi', suggestions: [{ reply: { text: 'Yes', postback_data: 'yes' } }] },
      });
      const { content } = (queued as NonNullable<typeof queued>).value.payload as {
        content: Record<string, unknown>;
      };
      expect(content).not.toHaveProperty('colour');
      expect(content.suggestions).toEqual([reply()]);
    });

    it('when the body is not JSON, then 400 VALIDATION_ERROR', async () => {
      const res = await rcs.send(acct, '{"recipient":');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.errors[0].loc).toEqual(['body']);
    });
  });

  describe('dry run', () => {
    it('when dry_run is true, then nothing is queued and exactly one test.rcs.out.delivered event is produced', async () => {
      const answer = await accepted(valid({ dry_run: true, client_message_id: 'dry-1' }));
      const events = await rcs.publishedAbout(Topics.rcsEvents, answer.message_id);
      expect(events).toHaveLength(1);
      expect(events[0]?.key).toBe(AGENT);
      expect(events[0]?.value.payload).toMatchObject({
        agentId: AGENT,
        event: {
          event_type: 'test.rcs.out.delivered',
          agent_id: AGENT,
          send_time: expect.any(String),
          event_id: expect.stringMatching(/^evt_.+/),
          message_id: answer.message_id,
          client_message_id: 'dry-1',
        },
      });
      // A later real send is published after it: by then the dry run's outbound would be too.
      const later = await accepted(valid());
      await rcs.publishedAbout(Topics.rcsOutbound, later.message_id);
      const about = (topic: string) =>
        rcs.published.filter(
          (p) =>
            p.topic === topic &&
            (p.value.payload as { messageId?: string }).messageId === answer.message_id,
        );
      expect(about(Topics.rcsOutbound)).toHaveLength(0);
      expect(about(Topics.rcsEvents)).toHaveLength(1);
    });

    it('when a dry run has no client_message_id, then its event has none', async () => {
      const answer = await accepted(valid({ dry_run: true }));
      const [event] = await rcs.publishedAbout(Topics.rcsEvents, answer.message_id);
      expect(event?.value.payload).not.toHaveProperty('event.client_message_id');
    });
  });

  describe('message content table', () => {
    it('when the message has none of text, content_info and rich_card, or two of them, then 400 naming message', async () => {
      for (const message of [
        {},
        { suggestions: [reply()] },
        { text: 'a', content_info: { file_url: url } },
      ]) {
        const locs = await refusedAt(withMessage(message));
        expect(locs).toContainEqual(['body', 'message']);
      }
    });

    it('when text has 3,072 characters it is accepted; 3,073 or empty is a 400 naming message.text', async () => {
      await accepted(withMessage({ text: 'x'.repeat(3072) }));
      expect(await refusedAt(withMessage({ text: 'x'.repeat(3073) }))).toContainEqual([
        'body',
        'message',
        'text',
      ]);
      expect(await refusedAt(withMessage({ text: '' }))).toContainEqual([
        'body',
        'message',
        'text',
      ]);
    });

    it('when content_info has file_url and force_refresh, then accepted with force_refresh defaulting to false', async () => {
      const answer = await accepted(withMessage({ content_info: { file_url: url } }));
      const [queued] = await rcs.publishedAbout(Topics.rcsOutbound, answer.message_id);
      expect(queued?.value.payload).toMatchObject({
        content: { content_info: { file_url: url, force_refresh: false } },
      });
      await accepted(withMessage({ content_info: { file_url: url, force_refresh: true } }));
    });

    it('when content_info lacks file_url, has a non-http one, or force_refresh is not boolean, then 400 naming the member', async () => {
      expect(await refusedAt(withMessage({ content_info: {} }))).toContainEqual([
        'body',
        'message',
        'content_info',
        'file_url',
      ]);
      expect(
        await refusedAt(withMessage({ content_info: { file_url: 'ftp://x.example/a' } })),
      ).toContainEqual(['body', 'message', 'content_info', 'file_url']);
      expect(
        await refusedAt(withMessage({ content_info: { file_url: url, force_refresh: 'no' } })),
      ).toContainEqual(['body', 'message', 'content_info', 'force_refresh']);
    });

    it('when a standalone card is valid (HORIZONTAL, LEFT, media SHORT), then accepted', async () => {
      await accepted(
        withMessage({
          rich_card: {
            standalone_card: {
              card_orientation: 'HORIZONTAL',
              thumbnail_image_alignment: 'LEFT',
              card_content: card({ media: { height: 'SHORT', content_info: { file_url: url } } }),
            },
          },
        }),
      );
    });

    it('when a standalone card has an unknown orientation, alignment or media height, then 400 naming each', async () => {
      const locs = await refusedAt(
        withMessage({
          rich_card: {
            standalone_card: {
              card_orientation: 'DIAGONAL',
              thumbnail_image_alignment: 'CENTER',
              card_content: card({ media: { height: 'HUGE', content_info: { file_url: url } } }),
            },
          },
        }),
      );
      const at = ['body', 'message', 'rich_card', 'standalone_card'];
      expect(locs).toEqual(
        expect.arrayContaining([
          [...at, 'card_orientation'],
          [...at, 'thumbnail_image_alignment'],
          [...at, 'card_content', 'media', 'height'],
        ]),
      );
    });

    it('when a card has none of title, description and media, then 400 naming the card', async () => {
      const locs = await refusedAt(
        withMessage({
          rich_card: { standalone_card: { card_orientation: 'VERTICAL', card_content: {} } },
        }),
      );
      expect(locs).toContainEqual([
        'body',
        'message',
        'rich_card',
        'standalone_card',
        'card_content',
      ]);
    });

    it('when a rich card has both or neither of standalone_card and carousel_card, then 400 naming rich_card', async () => {
      const both = { ...standalone().rich_card, ...carousel(2).rich_card };
      expect(await refusedAt(withMessage({ rich_card: both }))).toContainEqual([
        'body',
        'message',
        'rich_card',
      ]);
      expect(await refusedAt(withMessage({ rich_card: {} }))).toContainEqual([
        'body',
        'message',
        'rich_card',
      ]);
    });

    it('when a carousel has 2 or 10 cards it is accepted; 1 or 11 is a 400 naming card_contents', async () => {
      await accepted(withMessage(carousel(2)));
      await accepted(withMessage(carousel(10)));
      const at = ['body', 'message', 'rich_card', 'carousel_card', 'card_contents'];
      expect(await refusedAt(withMessage(carousel(1)))).toContainEqual(at);
      expect(await refusedAt(withMessage(carousel(11)))).toContainEqual(at);
    });

    it('when card_width is unknown, then 400 naming it; MEDIUM is accepted', async () => {
      const message = carousel(2);
      message.rich_card.carousel_card.card_width = 'WIDE';
      expect(await refusedAt(withMessage(message))).toContainEqual([
        'body',
        'message',
        'rich_card',
        'carousel_card',
        'card_width',
      ]);
      message.rich_card.carousel_card.card_width = 'MEDIUM';
      await accepted(withMessage(message));
    });

    it('when a card has 4 suggestions it is accepted; 5 is a 400', async () => {
      await accepted(
        withMessage(standalone({ suggestions: Array.from({ length: 4 }, () => reply()) })),
      );
      expect(
        await refusedAt(
          withMessage(standalone({ suggestions: Array.from({ length: 5 }, () => reply()) })),
        ),
      ).toContainEqual([
        'body',
        'message',
        'rich_card',
        'standalone_card',
        'card_content',
        'suggestions',
      ]);
    });
  });

  describe('suggestions', () => {
    const chips = (n: number) => Array.from({ length: n }, (_, i) => reply(`R${i}`, `r${i}`));

    it('when a message has 11 suggestions it is accepted; 12 is a 400 naming suggestions', async () => {
      await accepted(withMessage({ text: 'Hi', suggestions: chips(11) }));
      expect(await refusedAt(withMessage({ text: 'Hi', suggestions: chips(12) }))).toContainEqual([
        'body',
        'message',
        'suggestions',
      ]);
    });

    it('when suggestion text has 25 characters and postback 2,048 it is accepted; 26 and 2,049 are 400s naming each', async () => {
      await accepted(
        withMessage({ text: 'Hi', suggestions: [reply('t'.repeat(25), 'p'.repeat(2048))] }),
      );
      const locs = await refusedAt(
        withMessage({ text: 'Hi', suggestions: [reply('t'.repeat(26), 'p'.repeat(2049))] }),
      );
      const at = ['body', 'message', 'suggestions', '0', 'reply'];
      expect(locs).toEqual(
        expect.arrayContaining([
          [...at, 'text'],
          [...at, 'postback_data'],
        ]),
      );
    });

    it('when a suggestion has both or neither of reply and action, then 400 naming the suggestion', async () => {
      const both = { ...reply(), ...action({ dial_action: { phone_number: '+46701740605' } }) };
      for (const suggestion of [both, {}]) {
        expect(
          await refusedAt(withMessage({ text: 'Hi', suggestions: [suggestion] })),
        ).toContainEqual(['body', 'message', 'suggestions', '0']);
      }
    });

    it.each([
      [
        'open_url_action',
        {
          url: 'https://example.com',
          application: 'WEBVIEW',
          webview_view_mode: 'HALF',
          description: 'Open',
        },
      ],
      ['open_url_action', { url: 'https://example.com' }],
      ['dial_action', { phone_number: '+46701740605' }],
      [
        'view_location_action',
        { label: 'Office', lat_long: { latitude: 59.33, longitude: 18.06 } },
      ],
      [
        'create_calendar_event_action',
        {
          title: 'Meet',
          description: 'Talk',
          start_time: '2027-01-01T10:00:00Z',
          end_time: '2027-01-01T11:00:00Z',
        },
      ],
    ])('when an action has a valid %s, then accepted', async (kind, value) => {
      await accepted(withMessage({ text: 'Hi', suggestions: [action({ [kind]: value })] }));
    });

    it('when an action has no action kind or two of them, then 400 naming the action', async () => {
      const dial = { dial_action: { phone_number: '+46701740605' } };
      const open = { open_url_action: { url: 'https://example.com' } };
      for (const kinds of [{}, { ...dial, ...open }]) {
        expect(
          await refusedAt(withMessage({ text: 'Hi', suggestions: [action(kinds)] })),
        ).toContainEqual(['body', 'message', 'suggestions', '0', 'action']);
      }
    });

    it.each([
      ['open_url_action', { url: 'https://example.com', application: 'APP' }, 'application'],
      [
        'open_url_action',
        { url: 'https://example.com', webview_view_mode: 'WIDE' },
        'webview_view_mode',
      ],
      ['open_url_action', {}, 'url'],
      ['dial_action', { phone_number: '0701740605' }, 'phone_number'],
      ['view_location_action', { lat_long: { latitude: 91, longitude: 0 } }, 'lat_long'],
      ['view_location_action', { label: 'x' }, 'lat_long'],
      [
        'create_calendar_event_action',
        { title: 'M', description: 'D', start_time: 'tomorrow', end_time: '2027-01-01T11:00:00Z' },
        'start_time',
      ],
      [
        'create_calendar_event_action',
        {
          title: 'M',
          description: 'D',
          start_time: '2027-01-01T11:00:00Z',
          end_time: '2027-01-01T10:00:00Z',
        },
        'end_time',
      ],
    ])('when %s is %j, then 400 naming %s', async (kind, value, member) => {
      const locs = await refusedAt(
        withMessage({ text: 'Hi', suggestions: [action({ [kind]: value })] }),
      );
      const at = ['body', 'message', 'suggestions', '0', 'action', kind, member];
      expect(locs.some((loc) => at.every((segment, i) => loc[i] === segment))).toBe(true);
    });

    it('when an action misses text or postback_data, then 400 naming each', async () => {
      const locs = await refusedAt(
        withMessage({
          text: 'Hi',
          suggestions: [{ action: { dial_action: { phone_number: '+46701740605' } } }],
        }),
      );
      const at = ['body', 'message', 'suggestions', '0', 'action'];
      expect(locs).toEqual(
        expect.arrayContaining([
          [...at, 'text'],
          [...at, 'postback_data'],
        ]),
      );
    });
  });
});
