import { readFileSync } from 'node:fs';
import {
  durationMs,
  type Env,
  envField,
  int,
  loadConfig,
  logLevel,
  port,
  url,
  z,
} from '@msg/config';

const hostName = (raw: string) => (/^[A-Za-z0-9.:%[\]-]+$/.test(raw) ? raw : undefined);

export interface ServiceAccountFile {
  client_email: string;
  private_key: string;
}

/** Reads a Google service-account key file (the JSON the RBM console downloads). */
export function readServiceAccountFile(path: string): ServiceAccountFile | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { client_email, private_key } = value as Record<string, unknown>;
    return typeof client_email === 'string' && typeof private_key === 'string'
      ? { client_email, private_key }
      : undefined;
  } catch {
    return undefined;
  }
}

export const rbmSimulatorConfigSchema = z.object({
  PORT: port(8095).describe('Port of the RBM API, its /token endpoint and the /control API'),
  // Loopback by default: the control API has no authentication.
  HOST: envField('expected a host name or IP address', hostName)
    .prefault('127.0.0.1')
    .describe('Listen address'),
  RBM_SERVICE_ACCOUNT_FILE: envField(
    'expected a readable service-account JSON key file with client_email and private_key',
    (raw) => (readServiceAccountFile(raw) ? raw : undefined),
  ).describe(
    'The agent service-account key file; tokens are issued only for assertions signed with its key',
  ),
  RBM_WEBHOOK_URL: url({ protocols: ['http:', 'https:'] })
    .optional()
    .describe('Where user events are pushed (also settable by PUT /control/webhook)'),
  RBM_CLIENT_TOKEN: envField('expected a non-empty value', (raw) => (raw ? raw : undefined))
    .meta({ secret: true })
    .optional()
    .describe('The webhook client token: signs pushes and is sent in the set-up handshake'),
  RBM_DELIVER_DELAY: durationMs('200ms').describe('From accepting a message to its DELIVERED push'),
  RBM_READ_DELAY: durationMs('500ms').describe('From DELIVERED to READ'),
  RBM_PUSH_ATTEMPTS: int({ min: 1, max: 20, default: 5 }).describe('Push attempts per event'),
  LOG_LEVEL: logLevel('info').describe('Lowest log level written'),
});

export type RbmSimulatorConfig = Readonly<z.output<typeof rbmSimulatorConfigSchema>>;

/** Reads and checks every setting at once; throws ConfigError naming each problem. */
export function loadRbmSimulatorConfig(env: Env = process.env): RbmSimulatorConfig {
  return loadConfig(rbmSimulatorConfigSchema, env);
}
