import { type OptOutChange, Topics } from '@msg/contracts';
import { migrate } from '@msg/db';
import { startTestRuntime, type TestRuntime } from '@msg/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isOptedOut, optedOutAmong, optedOutPairs } from '../src/lookup.js';
import { optOutMessage } from '../src/opt-out-event.js';
import { applyOptOut, OPT_OUT_MIGRATIONS_DIR, startOptOutReplica } from '../src/replica.js';

const schema = 'optout_test';
let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ service: 'optout' });
  await migrate({
    pool: runtime.pool,
    schema,
    migrationsDirs: [OPT_OUT_MIGRATIONS_DIR],
    logger: runtime.logger,
  });
  await runtime.bus.ensureTopics([{ topic: Topics.optOuts, compacted: true }]);
}, 120_000);

afterAll(async () => {
  await runtime?.stop();
});

const change = (overrides: Partial<OptOutChange> = {}): OptOutChange => ({
  accountId: 'acc-1',
  msisdn: '+46701111111',
  optedOut: true,
  keyword: 'STOP',
  source: 'inbound',
  at: '2026-11-24T08:00:00.000Z',
  ...overrides,
});

describe('applyOptOut', () => {
  it('when the same change is applied twice, then the state is the same as after once', async () => {
    const stop = change({ msisdn: '+46701111112' });
    expect(await applyOptOut(runtime.pool, schema, stop)).toBe(true);
    await applyOptOut(runtime.pool, schema, stop);
    expect(await isOptedOut(runtime.pool, schema, 'acc-1', '+46701111112')).toBe(true);
  });

  it('when an older change arrives after a newer one, then the newer one stays', async () => {
    const msisdn = '+46701111113';
    await applyOptOut(runtime.pool, schema, change({ msisdn, at: '2026-11-24T08:00:00.000Z' }));
    const start = change({
      msisdn,
      optedOut: false,
      keyword: 'START',
      at: '2026-11-24T08:05:00.000Z',
    });
    expect(await applyOptOut(runtime.pool, schema, start)).toBe(true);
    // The STOP again, late (a redelivery): it is older than the START and changes nothing.
    expect(
      await applyOptOut(runtime.pool, schema, change({ msisdn, at: '2026-11-24T08:00:00.000Z' })),
    ).toBe(false);
    expect(await isOptedOut(runtime.pool, schema, 'acc-1', msisdn)).toBe(false);
  });

  it('when a recipient opted out of one account, then the other accounts may still send', async () => {
    await applyOptOut(runtime.pool, schema, change({ accountId: 'acc-2', msisdn: '+46701111114' }));
    expect(await isOptedOut(runtime.pool, schema, 'acc-2', '+46701111114')).toBe(true);
    expect(await isOptedOut(runtime.pool, schema, 'acc-3', '+46701111114')).toBe(false);
  });
});

describe('lookups', () => {
  it('when asked about many numbers at once, then exactly the opted-out ones come back', async () => {
    await applyOptOut(runtime.pool, schema, change({ accountId: 'acc-4', msisdn: '+46702222221' }));
    await applyOptOut(runtime.pool, schema, change({ accountId: 'acc-4', msisdn: '+46702222222' }));
    await applyOptOut(
      runtime.pool,
      schema,
      change({
        accountId: 'acc-4',
        msisdn: '+46702222222',
        optedOut: false,
        at: '2026-11-24T09:00:00.000Z',
      }),
    );
    await applyOptOut(runtime.pool, schema, change({ accountId: 'acc-5', msisdn: '+46702222223' }));
    expect(
      await optedOutAmong(runtime.pool, schema, 'acc-4', [
        '+46702222221',
        '+46702222222',
        '+46702222223',
        '+46702222221',
      ]),
    ).toEqual(new Set(['+46702222221']));
    expect(await optedOutAmong(runtime.pool, schema, 'acc-4', [])).toEqual(new Set());
    expect(
      await optedOutPairs(runtime.pool, schema, [
        { accountId: 'acc-4', msisdn: '+46702222221' },
        { accountId: 'acc-4', msisdn: '+46702222223' },
        { accountId: 'acc-5', msisdn: '+46702222223' },
      ]),
    ).toEqual(new Set(['acc-4:+46702222221', 'acc-5:+46702222223']));
  });
});

describe('startOptOutReplica', () => {
  it('when optouts.v1 carries changes, then the replica applies them in order and reports ready', async () => {
    const msisdn = '+46703333331';
    await runtime.bus.publish(Topics.optOuts, [
      optOutMessage(change({ accountId: 'acc-6', msisdn, at: '2026-11-24T08:00:00.000Z' })),
    ]);
    const replica = await startOptOutReplica({
      bus: runtime.bus,
      sql: runtime.pool,
      schema,
      groupId: 'optout-test-replica',
    });
    try {
      await replica.caughtUp();
      expect(await isOptedOut(runtime.pool, schema, 'acc-6', msisdn)).toBe(true);
      await vi.waitFor(() => expect(replica.readiness.isReady()).toBe(true));

      const start = optOutMessage(
        change({ accountId: 'acc-6', msisdn, optedOut: false, at: '2026-11-24T08:01:00.000Z' }),
      );
      // The same event twice (at-least-once delivery): applied once, the state is the same.
      await runtime.bus.publish(Topics.optOuts, [start, start]);
      await vi.waitFor(
        async () => expect(await isOptedOut(runtime.pool, schema, 'acc-6', msisdn)).toBe(false),
        { timeout: 10_000 },
      );
    } finally {
      await replica.stop();
    }
  });
});
