export { type BackoffOptions, backoffDelay } from './backoff.js';
export {
  type CallbackSender,
  type CallbackSenderOptions,
  createCallbackSender,
  type OutboundCallback,
  type SendResult,
} from './callback-sender.js';
export { isPrivateAddress, isPrivateHost } from './private-address.js';
export {
  type CallbackSigning,
  generateSigningSecret,
  SIGNING_SECRET_PREFIX,
  signatureHeaders,
  signedContent,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from './standard-webhooks.js';
export { TARGET_NOT_ALLOWED } from './target-guard.js';
