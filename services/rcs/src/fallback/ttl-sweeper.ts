import { withTransaction } from '@msg/db';
import type { Logger } from '@msg/logger';
import type { RbmClient } from '@msg/rbm';
import { repeatEvery } from '@msg/service-kit';
import type pg from 'pg';
import type { FallbackSms } from '../messages/message-store.js';
import { RCS_SCHEMA } from '../schema.js';
import { failMessage, lockMessage, SETTLED_STATES } from './message-outcome.js';
import type { FallbackMessage, SmsFallbackSender } from './sms-fallback.js';

/** Messages claimed per transaction; a sweep repeats until fewer are due. */
export const SWEEP_BATCH = 100;

export interface TtlSweeperOptions {
  pool: pg.Pool;
  /** RBM clients per agent (createAgentClients). */
  rbm: { forAgent(agentId: string): Promise<Pick<RbmClient, 'revokeMessage'>> };
  smsFallback: Pick<SmsFallbackSender, 'send'>;
  /** Pause between sweeps (RCS_TTL_SWEEP_INTERVAL). */
  intervalMs: number;
  /**
   * How long a claimed message is hidden from other sweeps (its `expires_at` moves this far): a
   * replica that dies mid-revoke leaves it due again after the lease.
   */
  leaseMs?: number;
  /** The service's clock (injected in tests). */
  now?: () => Date;
  logger: Logger;
}

interface DueRow {
  id: string;
  account_id: string;
  agent_id: string;
  recipient: string;
  client_message_id: string | null;
  sms_fallback: FallbackSms | null;
}

export type SweepOutcome = 'fallback' | 'expired' | 'delivered' | 'error';

/**
 * TTL expiry: a message RBM accepted (state `sent`) that is still undelivered when its TTL
 * passes (`expires_at`: the request's `ttl`, else RCS_SMS_FALLBACK_TTL for a message with a
 * fallback, counted from acceptance) is revoked at RBM. `revoked`: it falls back to SMS, or
 * without a fallback fails with `rcs.out.failed` TTL_EXPIRED. `not_found`: RBM delivered it
 * meanwhile (its DELIVERED push is on its way): nothing. An RBM error leaves it for the next
 * sweep after the lease.
 *
 * Runs on every replica: each sweep claims due rows with FOR UPDATE SKIP LOCKED and moves their
 * `expires_at` a lease ahead in the same statement, so replicas share the work without waiting on
 * each other, and the RBM call is made outside any transaction.
 */
export function createTtlSweeper({
  pool,
  rbm,
  smsFallback,
  intervalMs,
  leaseMs = 60_000,
  now = () => new Date(),
  logger,
}: TtlSweeperOptions) {
  const log = logger.child({ component: 'rcs-ttl-sweeper' });

  async function claim(): Promise<DueRow[]> {
    const at = now();
    const { rows } = await pool.query<DueRow>(
      `UPDATE "${RCS_SCHEMA}"."messages" m SET "expires_at" = $2
        WHERE m."id" IN (
          SELECT "id" FROM "${RCS_SCHEMA}"."messages"
           WHERE "expires_at" <= $1 AND "state" = 'sent'
           ORDER BY "expires_at" LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING m."id", m."account_id", m."agent_id", m."recipient", m."client_message_id",
                  m."sms_fallback"`,
      [at, new Date(at.getTime() + leaseMs), SWEEP_BATCH],
    );
    return rows;
  }

  /** What follows a revoke: the SMS fallback, or without one rcs.out.failed TTL_EXPIRED. */
  async function afterRevoke(row: DueRow): Promise<'fallback' | 'expired'> {
    const message = {
      id: row.id,
      accountId: row.account_id,
      agentId: row.agent_id,
      clientMessageId: row.client_message_id,
    };
    if (row.sms_fallback) {
      const fallback: FallbackMessage = {
        ...message,
        recipient: row.recipient,
        smsFallback: row.sms_fallback,
      };
      await smsFallback.send(fallback, 'ttl_expired');
      return 'fallback';
    }
    await withTransaction(pool, async (sql) => {
      const found = await lockMessage(sql, row.id);
      if (found && !SETTLED_STATES.includes(found.state)) {
        await failMessage(sql, message, 'TTL_EXPIRED', now());
      }
    });
    return 'expired';
  }

  async function expire(row: DueRow): Promise<SweepOutcome> {
    try {
      const client = await rbm.forAgent(row.agent_id);
      const revoked = await client.revokeMessage(row.agent_id, row.recipient, row.id);
      if (revoked === 'not_found') {
        // Delivered meanwhile: no more expiry; its state is the DELIVERED push's to set.
        await pool.query(
          `UPDATE "${RCS_SCHEMA}"."messages" SET "expires_at" = NULL WHERE "id" = $1`,
          [row.id],
        );
        return 'delivered';
      }
      return await afterRevoke(row);
    } catch (error) {
      log.warn('ttl expiry failed; retried after the lease', {
        messageId: row.id,
        error: String(error),
      });
      return 'error';
    }
  }

  /** One sweep: every due message handled; answers the outcomes. */
  async function sweep(): Promise<SweepOutcome[]> {
    const outcomes: SweepOutcome[] = [];
    for (;;) {
      const due = await claim();
      for (const row of due) outcomes.push(await expire(row));
      if (due.length < SWEEP_BATCH) return outcomes;
    }
  }

  return {
    sweep,
    /**
     * RBM revoked the message itself because its own TTL ran out (the server event
     * TTL_EXPIRATION_REVOKED, for the inbound push handler to call): the same outcome as a revoke
     * of ours, for a message RBM accepted and has not delivered. Answers what happened
     * (`unchanged`: no such message, or not in state `sent`).
     */
    async revokedByRbm(messageId: string): Promise<'fallback' | 'expired' | 'unchanged'> {
      const { rows } = await pool.query<DueRow>(
        `SELECT "id", "account_id", "agent_id", "recipient", "client_message_id", "sms_fallback"
           FROM "${RCS_SCHEMA}"."messages" WHERE "id" = $1 AND "state" = 'sent'`,
        [messageId],
      );
      const row = rows[0];
      return row ? afterRevoke(row) : 'unchanged';
    },
    /** Sweeps every `intervalMs` until stopped (afterListen). */
    start: () =>
      repeatEvery(
        intervalMs,
        async () => {
          const outcomes = await sweep();
          if (outcomes.length > 0) log.info('ttl sweep', { count: outcomes.length });
        },
        (error) => log.warn('ttl sweep failed; retried next interval', { error: String(error) }),
      ),
  };
}
