import type { Bus } from '@msg/bus';
import type { AccountState } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { startStatusConsumer } from '../reports/status-consumer.js';
import { createExpirySweeper } from './expiry-sweeper.js';
import { startInboundConsumer } from './inbound-consumer.js';
import { createInboundMetrics } from './inbound-metrics.js';
import type { StopWordHook } from './opt-out-hook.js';

export interface InboundSideOptions {
  bus: Bus;
  pool: pg.Pool;
  logger: Logger;
  metrics: Registry;
  accountById(id: string): AccountState | undefined;
  /** REPLYPATH_QUARANTINE: how long a released pair stays blocked. */
  quarantineMs: number;
  /** REPLYPATH_SWEEP_INTERVAL: pause between expiry sweeps. */
  sweepIntervalMs: number;
  onStopWord: StopWordHook;
  /** The clock of matching and expiry; the system clock when absent (tests inject one). */
  now?: () => Date;
}

export interface InboundSide {
  /** One expiry sweep now (besides the periodic ones); answers how many messages it removed. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Everything of reply-path that follows the SMS centre rather than the customer: replies
 * (sms.inbound.v1) matched, stored and forwarded; delivery reports (sms.status.v1); the expiry
 * of reservations. Started after the service listens; `stop` stops consuming and sweeping.
 */
export async function startInboundSide({
  bus,
  pool,
  logger,
  metrics,
  accountById,
  quarantineMs,
  sweepIntervalMs,
  onStopWord,
  now = () => new Date(),
}: InboundSideOptions): Promise<InboundSide> {
  const expiry = createExpirySweeper({ pool, intervalMs: sweepIntervalMs, now, logger });
  const sweeper = expiry.start();
  const subscriptions = await Promise.all([
    startInboundConsumer({
      bus,
      pool,
      logger,
      accountById,
      now,
      quarantineMs,
      onStopWord,
      metrics: createInboundMetrics(metrics),
    }),
    startStatusConsumer({ bus, pool, logger, accountById }),
  ]);
  return {
    sweep: expiry.sweep,
    async stop() {
      await Promise.all(subscriptions.map((subscription) => subscription.stop()));
      await sweeper.stop();
    },
  };
}
