import { PassThrough } from 'node:stream';
import { makeEvent, PROTECTED_SENDERS_EVENT, PROTECTED_SENDERS_KEY, Topics } from '@msg/contracts';
import { createLogger } from '@msg/logger';
import { describe, expect, it } from 'vitest';
import { createFakeAccountBus } from '../test/support/fake-bus.js';
import { createProtectedSenderDirectory } from './protected-sender-directory.js';

function setup(options: { holdReplay?: boolean } = {}) {
  const fake = createFakeAccountBus(options);
  const directory = createProtectedSenderDirectory({
    bus: fake.bus,
    logger: createLogger({ service: 'auth-test', level: 'error', stream: new PassThrough() }),
    groupId: 'sms-protected-senders',
  });
  const publishList = (names: string[], version: number) =>
    fake.publishEnvelope(
      PROTECTED_SENDERS_KEY,
      makeEvent(PROTECTED_SENDERS_EVENT, { names, version, updatedAt: new Date().toISOString() }),
    );
  return { ...fake, directory, publishList };
}

describe('createProtectedSenderDirectory', () => {
  it('when started, then it reads senders.protected.v1 from the beginning in a group of its own and is ready once caught up', async () => {
    const { directory, subscriptions, ensured, publishList, releaseReplay } = setup({
      holdReplay: true,
    });
    await publishList(['BankID'], 1);
    await directory.start();
    expect(ensured).toContain(Topics.protectedSenders);
    expect(subscriptions[0]).toMatchObject({
      topics: [Topics.protectedSenders],
      fromBeginning: true,
    });
    expect(subscriptions[0]?.groupId.startsWith('sms-protected-senders.')).toBe(true);
    expect(directory.readiness).toMatchObject({ name: 'protected-senders' });
    expect(directory.isReady()).toBe(false);
    releaseReplay();
    await directory.caughtUp();
    expect(directory.isReady()).toBe(true);
    expect(directory.names().covers('BANKID')).toBe(true);
  });

  it('when nothing was ever published, then no name is protected', async () => {
    const { directory } = setup();
    await directory.start();
    await directory.caughtUp();
    expect(directory.names().size).toBe(0);
    expect(directory.names().covers('BankID')).toBe(false);
  });

  it('when a new list arrives, then it replaces the old one; an older version redelivered changes nothing', async () => {
    const { directory, publishList } = setup();
    await directory.start();
    await publishList(['BankID', 'Swedbank'], 1);
    await publishList(['Swedbank'], 2);
    expect(directory.names().covers('BankID')).toBe(false);
    expect(directory.names().covers('Swedbank')).toBe(true);
    await publishList(['BankID', 'Swedbank'], 1);
    expect(directory.names().covers('BankID')).toBe(false);
  });

  it('when a payload is malformed, then it is skipped and the list before it stays', async () => {
    const { directory, publishList, publishEnvelope } = setup();
    await directory.start();
    await publishList(['BankID'], 1);
    await publishEnvelope(
      PROTECTED_SENDERS_KEY,
      makeEvent(PROTECTED_SENDERS_EVENT, { names: 'BankID', version: 2 }),
    );
    expect(directory.names().covers('BankID')).toBe(true);
  });
});
