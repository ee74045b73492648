import { eventContracts, Topics } from '@msg/contracts';
import { describe, expect, it } from 'vitest';
import { optOutEventFor } from './opt-out-event.js';

const accountId = '0b7e4f6a-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const inbound = (text: string) => ({
  from: '+46701234567',
  to: '+46765550100',
  text,
  receivedAt: '2026-11-24T08:00:00.000Z',
});

describe('optOutEventFor', () => {
  it('when the inbound text is a stop word, then it is an opt-out keyed by account and sender, valid on optouts.v1', () => {
    const message = optOutEventFor(inbound(' stopp '), accountId);
    expect(message?.key).toBe(`${accountId}:+46701234567`);
    expect(message?.value).toMatchObject({
      type: 'optout.changed',
      accountId,
      payload: {
        accountId,
        msisdn: '+46701234567',
        optedOut: true,
        keyword: 'STOPP',
        source: 'inbound',
        at: '2026-11-24T08:00:00.000Z',
      },
    });
    expect(eventContracts[Topics.optOuts].schema.safeParse(message?.value).success).toBe(true);
  });

  it('when the inbound text is a start word, then it opts the sender in again', () => {
    expect(optOutEventFor(inbound('Unstop'), accountId)?.value.payload).toMatchObject({
      optedOut: false,
      keyword: 'UNSTOP',
    });
  });

  it("when the text is one of the account's own words, then it opts out; for other accounts it does not", () => {
    expect(optOutEventFor(inbound('nej tack'), accountId, ['NEJ TACK'])).not.toBeNull();
    expect(optOutEventFor(inbound('nej tack'), accountId)).toBeNull();
  });

  it('when the text is not a keyword, then there is nothing to publish', () => {
    expect(optOutEventFor(inbound('Thanks, see you'), accountId)).toBeNull();
  });

  it('when the same inbound event is handled twice, then the event id is the same; another event or account gets another', () => {
    const once = optOutEventFor(inbound('STOP'), accountId, [], { sourceEventId: 'e1' });
    const again = optOutEventFor(inbound('STOP'), accountId, [], { sourceEventId: 'e1' });
    const other = optOutEventFor(inbound('STOP'), accountId, [], { sourceEventId: 'e2' });
    const otherAccount = optOutEventFor(inbound('STOP'), 'another', [], { sourceEventId: 'e1' });
    expect(once?.value.id).toBe(again?.value.id);
    expect(once?.value.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(other?.value.id).not.toBe(once?.value.id);
    expect(otherAccount?.value.id).not.toBe(once?.value.id);
  });
});
