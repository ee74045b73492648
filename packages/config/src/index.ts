// Services build their schemas with this z, so that they need no zod dependency of their own
// and loadConfig inspects schemas made by the very zod it runs on.
export { z } from 'zod';
export { ConfigError } from './config-error.js';
export { type ConfigEntry, describeConfig } from './describe-config.js';
export { envField, splitList } from './env-field.js';
export {
  bool,
  csv,
  durationMs,
  enumOf,
  type IntOptions,
  int,
  LOG_LEVELS,
  type LogLevel,
  logLevel,
  port,
  secret,
  type UrlOptions,
  url,
} from './fields.js';
export { type Env, type ExitIo, exitOnConfigError, loadConfig } from './load-config.js';
export { portInUseMessage } from './port-in-use.js';
export {
  callbackTargetSettings,
  databaseSettings,
  deployedDatabaseSettings,
  deployedKafkaSettings,
  type InternalApiDescription,
  type InternalApiTarget,
  internalApiSettings,
  internalApiTarget,
  kafkaConsumerSettings,
  kafkaSettings,
  prepaidBillingSettings,
  serviceSettings,
  trustSettings,
} from './settings.js';
