import type { RbmClient } from '@msg/rbm';
import type pg from 'pg';
import { RCS_SCHEMA } from '../schema.js';
import { specFeatures } from './features.js';

/** Spec 4.5 rule 2 (and 9): how long an answer is reused, by what it said. */
export const CAPABILITY_TTL_SUPPORTED_MS = 7 * 24 * 3600_000;
export const CAPABILITY_TTL_UNSUPPORTED_MS = 24 * 3600_000;

export interface CapabilityResult {
  rcsSupported: boolean;
  /** In the specification's vocabulary (features.ts). */
  features: string[];
  /** Answered from the shared cache, not by RBM just now. */
  cached: boolean;
  /** When RBM gave the answer. */
  checkedAt: Date;
}

export interface CapabilityChecker {
  check(query: {
    agentId: string;
    phone: string;
    forceRefresh?: boolean;
  }): Promise<CapabilityResult>;
}

export interface CapabilityCheckerDeps {
  pool: pg.Pool;
  /** Clients signed with each agent's own service account (src/rbm/agent-clients.ts). */
  rbm: { forAgent(agentId: string): Promise<Pick<RbmClient, 'getCapabilities'>> };
  now?: () => Date;
}

const CAPABILITIES = `"${RCS_SCHEMA}"."capabilities"`;

interface CapabilityRow {
  rcs_supported: boolean;
  features: string[];
  checked_at: Date;
}

const isFresh = (row: CapabilityRow, at: Date) =>
  at.getTime() - row.checked_at.getTime() <
  (row.rcs_supported ? CAPABILITY_TTL_SUPPORTED_MS : CAPABILITY_TTL_UNSUPPORTED_MS);

/**
 * RBM capability checks behind a cache shared by every client and replica (table
 * rcs.capabilities, key agent + phone): an answer is reused for 7 days when the phone is
 * RCS-capable and 24 hours when not; `forceRefresh` asks RBM whatever the cache holds and
 * replaces it. Errors are RBM's (RbmError: retryable or not) and AgentWithoutCredentialsError;
 * nothing is cached then.
 */
export function createCapabilityChecker({
  pool,
  rbm,
  now = () => new Date(),
}: CapabilityCheckerDeps): CapabilityChecker {
  async function cachedAnswer(agentId: string, phone: string) {
    const { rows } = await pool.query<CapabilityRow>(
      `SELECT "rcs_supported", "features", "checked_at" FROM ${CAPABILITIES}
        WHERE "agent_id" = $1 AND "phone" = $2`,
      [agentId, phone],
    );
    const row = rows[0];
    return row && isFresh(row, now()) ? row : undefined;
  }

  return {
    async check({ agentId, phone, forceRefresh = false }) {
      if (!forceRefresh) {
        const row = await cachedAnswer(agentId, phone);
        if (row) {
          return {
            rcsSupported: row.rcs_supported,
            features: row.features,
            cached: true,
            checkedAt: row.checked_at,
          };
        }
      }
      const client = await rbm.forAgent(agentId);
      const answer = await client.getCapabilities(agentId, phone);
      const checkedAt = now();
      const features = answer.reachable ? specFeatures(answer.features) : [];
      await pool.query(
        `INSERT INTO ${CAPABILITIES} ("agent_id", "phone", "rcs_supported", "features", "checked_at")
           VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ("agent_id", "phone") DO UPDATE SET "rcs_supported" = EXCLUDED."rcs_supported",
           "features" = EXCLUDED."features", "checked_at" = EXCLUDED."checked_at"`,
        [agentId, phone, answer.reachable, features, checkedAt],
      );
      return { rcsSupported: answer.reachable, features, cached: false, checkedAt };
    },
  };
}
