import type { Logger } from '@msg/logger';
import type pg from 'pg';
import type { Bus } from './types.js';

/**
 * What a service takes from its process when it starts: main.ts builds these from the
 * environment; the embedded suite hands every service the same shared ones.
 */
export interface ServiceRuntime {
  pool: pg.Pool;
  bus: Bus;
  logger: Logger;
}
