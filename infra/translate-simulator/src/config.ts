import { csv, type Env, envField, int, loadConfig, logLevel, port, z } from '@msg/config';

const hostName = (raw: string) => (/^[A-Za-z0-9.:%[\]-]+$/.test(raw) ? raw : undefined);

export const translateSimulatorConfigSchema = z.object({
  PORT: port(5000).describe(
    'Port of the LibreTranslate API and its /control API (LibreTranslate uses 5000)',
  ),
  // Loopback by default: the control API has no authentication.
  HOST: envField('expected a host name or IP address', hostName)
    .prefault('127.0.0.1')
    .describe('Listen address'),
  TRANSLATE_API_KEYS: csv()
    .optional()
    .meta({ secret: true })
    .describe('Accepted api_key values; when set, requests without a valid key are refused'),
  TRANSLATE_CHAR_LIMIT: int({ min: 1 })
    .optional()
    .describe('Characters per text (LibreTranslate --char-limit)'),
  TRANSLATE_REQ_LIMIT: int({ min: 1 })
    .optional()
    .describe('Requests per minute before 429 (LibreTranslate --req-limit)'),
  LOG_LEVEL: logLevel('info').describe('Lowest log level written'),
});

export type TranslateSimulatorConfig = Readonly<z.output<typeof translateSimulatorConfigSchema>>;

/** Reads and checks every setting at once; throws ConfigError naming each problem. */
export function loadTranslateSimulatorConfig(env: Env = process.env): TranslateSimulatorConfig {
  return loadConfig(translateSimulatorConfigSchema, env);
}
