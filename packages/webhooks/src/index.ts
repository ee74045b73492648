export { type BackoffOptions, backoffDelay } from './backoff.js';
export {
  type CallbackSender,
  type CallbackSenderOptions,
  createCallbackSender,
  type OutboundCallback,
  type SendResult,
} from './callback-sender.js';
export { isPrivateAddress } from './private-address.js';
export { SIGNATURE_HEADER, signPayload, TIMESTAMP_HEADER, verifySignature } from './signature.js';
export { TARGET_NOT_ALLOWED } from './target-guard.js';
