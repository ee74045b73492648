export {
  type AccessRule,
  type AccountAccessOptions,
  accountAccess,
  basicAccountAccess,
} from './account-access.js';
export {
  type AccountDirectory,
  type AccountDirectoryOptions,
  type AccountEventSource,
  type AccountLookup,
  type AccountMessage,
  type AccountSubscription,
  createAccountDirectory,
  findAccount,
} from './account-directory.js';
export { type AccountStanding, accountStanding } from './account-standing.js';
export { parseAccountState } from './account-state-parser.js';
export { API_KEY_PREFIX, generateApiKey } from './api-key.js';
export { type AuthenticateOptions, authenticate, createPassport } from './authenticate.js';
export {
  type CredentialVerifier,
  type CredentialVerifierOptions,
  createCredentialVerifier,
} from './credential-verifier.js';
export {
  accountGuard,
  type GuardOptions,
  requireActive,
  requirePermission,
  requireScopes,
} from './guards.js';
export { ipAllowed, isIpRule, requireAllowedIp } from './ip-allow-list.js';
export {
  createJwtService,
  InvalidTokenError,
  type IssuedToken,
  type JwtKey,
  type JwtService,
  type JwtServiceOptions,
  type TokenClaims,
} from './jwt-service.js';
export {
  createPostgresBucketStore,
  createPostgresRateLimiter,
  type PostgresRateLimiterOptions,
  RATE_LIMIT_MIGRATIONS_DIR,
} from './postgres-rate-limiter.js';
export {
  createProtectedSenderDirectory,
  type ProtectedSenderDirectory,
  type ProtectedSenderDirectoryOptions,
} from './protected-sender-directory.js';
export { type RateLimitPolicy, rateLimit } from './rate-limit-middleware.js';
export {
  createRateLimiter,
  type RateDecision,
  type RateLimit,
  type RateLimiter,
  type RateLimiterOptions,
  type RequestRateLimiter,
} from './rate-limiter.js';
export { requireAccount } from './require-account.js';
export {
  createSecretBox,
  parseSecretBoxKey,
  type SecretBox,
  secretBoxKeySetting,
} from './secret-box.js';
export {
  DEFAULT_SCRYPT_PARAMS,
  hashSecret,
  type ScryptParams,
  verifySecret,
} from './secret-hash.js';
export { requireServiceToken, type ServiceTokenOptions } from './service-token.js';
export {
  type BucketStore,
  createSharedRateLimiter,
  type Lease,
  type SharedRateLimiter,
  type SharedRateLimiterOptions,
} from './shared-rate-limiter.js';
export { apiKeyStrategy } from './strategies/api-key-strategy.js';
export {
  type BasicStrategyOptions,
  basicStrategy,
  parseBasicAuthorization,
} from './strategies/basic-strategy.js';
export { type BearerStrategyOptions, bearerStrategy } from './strategies/bearer-strategy.js';
export type { TopicFollower } from './topic-follower.js';
export type { AuthFailure } from './types.js';
