export { type Backoff, backoffDelay } from './backoff.js';
