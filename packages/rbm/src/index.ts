export * from './access-token.js';
export * from './client.js';
export * from './content.js';
export * from './errors.js';
export { assertE164 } from './phone.js';
export * from './push.js';
