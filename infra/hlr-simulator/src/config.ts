import { type Env, envField, loadConfig, logLevel, port, z } from '@msg/config';
import { parseCredentials } from './credentials.js';

const hostName = (raw: string) => (/^[A-Za-z0-9.:%[\]-]+$/.test(raw) ? raw : undefined);
const credentials = (raw: string) => {
  try {
    parseCredentials(raw);
    return raw;
  } catch {
    return undefined;
  }
};

export const hlrSimulatorConfigSchema = z.object({
  PORT: port(8090).describe('Port of the provider API and its /control API'),
  // Loopback by default: the control API has no authentication.
  HOST: envField('expected a host name or IP address', hostName)
    .prefault('127.0.0.1')
    .describe('Listen address'),
  HLR_CREDENTIALS: envField('expected user:password', credentials)
    .meta({ secret: true })
    .describe('The accepted Basic credential, user:password'),
  LOG_LEVEL: logLevel('info').describe('Lowest log level written'),
});

export type HlrSimulatorConfig = Readonly<z.output<typeof hlrSimulatorConfigSchema>>;

/** Reads and checks every setting at once; throws ConfigError naming each problem. */
export function loadHlrSimulatorConfig(env: Env = process.env): HlrSimulatorConfig {
  return loadConfig(hlrSimulatorConfigSchema, env);
}
