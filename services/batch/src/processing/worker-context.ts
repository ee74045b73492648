import type { AccountState } from '@msg/contracts';
import type { Logger } from '@msg/logger';
import type { PrepaidBilling } from '@msg/sms-submit';
import type pg from 'pg';
import type { BatchConfig } from '../config.js';

export type WorkerConfig = Pick<
  BatchConfig,
  'BATCH_WORKER_INTERVAL' | 'BATCH_CHUNK_SIZE' | 'BATCH_PROGRESS_INTERVAL' | 'BATCH_RETENTION'
>;

/** What every worker job gets. */
export interface WorkerContext {
  pool: pg.Pool;
  logger: Logger;
  accountById(id: string): AccountState | undefined;
  /** Debits prepaid accounts for the messages a chunk queues (createPrepaidBilling). */
  billing: PrepaidBilling;
  config: WorkerConfig;
  /** True once the workers are stopping: a job finishes its current step and returns. */
  stopping(): boolean;
}

/** Whether the account may run batches right now: known, active, with the batch_sms permission. */
export function mayRunBatches(account: AccountState | undefined): account is AccountState {
  return account?.status === 'active' && account.permissions.includes('batch_sms');
}
