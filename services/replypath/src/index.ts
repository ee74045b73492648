export { loadReplypathConfig, type ReplypathConfig, replypathSettings } from './config.js';
// The allocation itself, for the benchmark (bench/replypath.bench.mjs) to time and EXPLAIN.
export {
  type AllocationOptions,
  allocateReservations,
  freeNumberQuery,
  type ReservationRequest,
} from './pool/allocation.js';
export { PoolExhaustedError } from './pool/pool-exhausted.js';
export { REPLYPATH_SCHEMA } from './schema.js';
export {
  REPLYPATH_MIGRATIONS,
  type ReplypathService,
  type ReplypathServiceOptions,
  replypathService,
  startReplypathService,
} from './service.js';
