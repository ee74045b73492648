import { type Env, enumOf, envField, loadConfig, logLevel, port, z } from '@msg/config';
import { BEHAVIOURS } from './behaviours.js';

const hostName = (raw: string) => (/^[A-Za-z0-9.:%[\]-]+$/.test(raw) ? raw : undefined);
const directory = (raw: string) => (raw.trim() === '' ? undefined : raw);

export const sipCalleeConfigSchema = z
  .object({
    SIP_PORT: port(5060).describe('UDP port of the SIP endpoint'),
    CONTROL_PORT: port(8096).describe('Port of the HTTP control API'),
    // Loopback by default: the control API has no authentication.
    HOST: envField('expected a host name or IP address', hostName)
      .prefault('127.0.0.1')
      .describe('Listen address of SIP, RTP and the control API'),
    SIP_CALLEE_DEFAULT: enumOf(BEHAVIOURS, 'human').describe(
      'Behaviour of a number with neither a rule nor a special suffix',
    ),
    SIP_CALLEE_RECORD_DIR: envField('expected a directory path', directory)
      .optional()
      .describe('Where WAV recordings are written; unset: a new temporary directory'),
    SIP_USERNAME: envField('expected a user name', directory)
      .optional()
      .describe('Digest user name; with SIP_PASSWORD, INVITEs must authenticate'),
    SIP_PASSWORD: envField('expected a password', directory)
      .meta({ secret: true })
      .optional()
      .describe('Digest password; with SIP_USERNAME'),
    LOG_LEVEL: logLevel('info').describe('Lowest log level written'),
  })
  .refine((config) => (config.SIP_USERNAME === undefined) === (config.SIP_PASSWORD === undefined), {
    message: 'expected both or neither',
    path: ['SIP_PASSWORD'],
  });

export type SipCalleeConfig = Readonly<z.output<typeof sipCalleeConfigSchema>>;

/** Reads and checks every setting at once; throws ConfigError naming each problem. */
export function loadSipCalleeConfig(env: Env = process.env): SipCalleeConfig {
  return loadConfig(sipCalleeConfigSchema, env);
}
