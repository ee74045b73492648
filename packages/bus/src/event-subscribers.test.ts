import { exampleEvents, SMS_SOURCE_HEADER, type SmsStatus, Topics } from '@msg/contracts';
import { createLogger } from '@msg/logger';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { subscribeToSmsInbound, subscribeToSmsStatus } from './event-subscribers.js';
import { createInProcessBus } from './in-process-bus.js';

const buses: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((bus) => bus.close()));
});

async function newBus() {
  const bus = createInProcessBus({ logger: createLogger({ service: 't', level: 'error' }) });
  buses.push(bus);
  await bus.ensureTopics([{ topic: Topics.smsStatus }, { topic: Topics.smsInbound }]);
  return bus;
}

function status(messageId: string, source: SmsStatus['source'], header?: string) {
  const example = exampleEvents[Topics.smsStatus];
  return {
    key: messageId,
    value: { ...example, id: `e-${messageId}`, payload: { ...example.payload, messageId, source } },
    ...(header !== undefined && { headers: { [SMS_SOURCE_HEADER]: header } }),
  };
}

describe('subscribeToSmsStatus', () => {
  it('when reports of several owners arrive, then each owner gets only its own, typed, in order', async () => {
    const bus = await newBus();
    const seen: Record<string, string[]> = { sms: [], batch: [] };
    for (const owner of ['sms', 'batch'] as const) {
      await subscribeToSmsStatus(bus, {
        owner,
        groupId: `${owner}-status`,
        handler: async (report, event) => {
          expect(event.payload).toBe(report);
          seen[owner]?.push(`${report.messageId}:${report.state}`);
        },
      });
    }

    await bus.publish(Topics.smsStatus, [
      status('m1', 'sms'),
      status('m2', 'batch'),
      status('m3', 'replypath'),
      status('m4', 'sms'),
    ]);

    await vi.waitFor(() => expect(seen.sms).toHaveLength(2));
    await vi.waitFor(() => expect(seen.batch).toHaveLength(1));
    expect(seen.sms?.sort()).toEqual(['m1:delivered', 'm4:delivered']);
    expect(seen.batch).toEqual(['m2:delivered']);
  });

  it('when a service owns several sources, then it gets the reports of each and no others', async () => {
    const bus = await newBus();
    const seen: string[] = [];
    await subscribeToSmsStatus(bus, {
      owner: ['replypath', 'replypath-legacy'],
      groupId: 'replypath-status',
      handler: async (report) => void seen.push(`${report.messageId}:${report.source}`),
    });

    await bus.publish(Topics.smsStatus, [
      status('m1', 'replypath'),
      status('m2', 'sms'),
      status('m3', 'replypath-legacy'),
    ]);

    await vi.waitFor(() => expect(seen).toHaveLength(2));
    expect(seen.sort()).toEqual(['m1:replypath', 'm3:replypath-legacy']);
  });
});

describe('subscribeToSmsStatus and the sms-source header', () => {
  it('when a report carries the header, then the header alone decides, before the event is decoded', async () => {
    const bus = await newBus();
    const seen: string[] = [];
    await subscribeToSmsStatus(bus, {
      owner: 'sms',
      groupId: 'sms-status',
      handler: async (report) => void seen.push(report.messageId),
    });

    await bus.publish(Topics.smsStatus, [
      // The header names another owner: passed over although the payload names this one.
      status('m1', 'sms', 'batch'),
      status('m2', 'sms', 'sms'),
      // No header (written before it existed): the payload's source decides.
      status('m3', 'sms'),
      status('m4', 'batch'),
    ]);

    await vi.waitFor(() => expect(seen).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.sort()).toEqual(['m2', 'm3']);
  });
});

describe('subscribeToSmsInbound', () => {
  it('when SMS arrive for several numbers, then a service gets those sent to its numbers', async () => {
    const bus = await newBus();
    const mine = new Set(['+46765550100']);
    const received: string[] = [];
    await subscribeToSmsInbound(bus, {
      groupId: 'replypath-inbound',
      owns: (to) => mine.has(to),
      handler: async (inbound) => void received.push(`${inbound.to}:${inbound.text}`),
    });
    const example = exampleEvents[Topics.smsInbound];
    const sms = (to: string, text: string) => ({
      key: to,
      value: { ...example, id: `e-${to}-${text}`, payload: { ...example.payload, to, text } },
    });

    await bus.publish(Topics.smsInbound, [
      sms('+46765550100', 'first'),
      sms('+46765550199', 'not mine'),
      sms('+46765550100', 'second'),
    ]);

    await vi.waitFor(() => expect(received).toHaveLength(2));
    expect(received).toEqual(['+46765550100:first', '+46765550100:second']);
  });
});
