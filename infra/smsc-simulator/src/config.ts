import { type Env, envField, int, loadConfig, logLevel, port, z } from '@msg/config';
import { parseCredentials } from './credentials.js';
import { parseRules } from './receipt-rules.js';
import { DEFAULT_MAX_RECORDED_SUBMITS } from './submit-log.js';

const HOST_RULE = 'expected a host name or IP address';
const hostName = (raw: string) => (/^[A-Za-z0-9.:%[\]-]+$/.test(raw) ? raw : undefined);

function orUndefined<T>(parse: (raw: string) => T): (raw: string) => T | undefined {
  return (raw) => {
    try {
      return parse(raw);
    } catch {
      return undefined;
    }
  };
}

export const smscSimulatorConfigSchema = z.object({
  SMSC_PORT: port(2775).describe('SMPP port the simulator listens on'),
  // Loopback by default: the simulator is a test tool and accepts well-known credentials.
  SMSC_HOST: envField(HOST_RULE, hostName).prefault('127.0.0.1').describe('SMPP listen address'),
  SMSC_CREDENTIALS: envField(
    'expected system_id:password,... (system_id up to 15 characters, password up to 8)',
    orUndefined(parseCredentials),
  )
    .prefault('smsc:smsc')
    .describe('Accepted binds as system_id:password, comma-separated (test credentials only)'),
  CONTROL_PORT: port(2776).describe('Port of the HTTP control API (always on 127.0.0.1)'),
  RECEIPT_DELAY_MS: int({ min: 0, default: 500 }).describe(
    'Milliseconds between a submit_sm and its delivery receipt',
  ),
  RULES: envField(
    'expected prefix=OUTCOME,... with OUTCOME one of DELIVRD, EXPIRED, DELETED, UNDELIV, UNKNOWN, REJECTD, NORECEIPT',
    orUndefined(parseRules),
  )
    .prefault('*=DELIVRD')
    .describe('Receipt outcome by destination prefix, first match wins; * matches any number'),
  THROTTLE_PER_SECOND: int({ min: 1 })
    .optional()
    .describe('submit_sm accepted per second per bind before ESME_RTHROTTLED; unset: no limit'),
  MAX_RECORDED_SUBMITS: int({ min: 1, default: DEFAULT_MAX_RECORDED_SUBMITS }).describe(
    'Recorded submits kept for GET /submits, the newest; older ones are forgotten (still counted)',
  ),
  LOG_LEVEL: logLevel('info').describe('Lowest log level written'),
});

export type SmscSimulatorConfig = Readonly<z.output<typeof smscSimulatorConfigSchema>>;

/** Reads and checks every setting at once; throws ConfigError naming each problem. */
export function loadSmscSimulatorConfig(env: Env = process.env): SmscSimulatorConfig {
  return loadConfig(smscSimulatorConfigSchema, env);
}
