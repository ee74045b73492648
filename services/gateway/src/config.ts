import {
  durationMs,
  type Env,
  loadConfig,
  serviceSettings,
  trustSettings,
  url,
  z,
} from '@msg/config';

import type { UpstreamService } from './routes.js';

const BYTE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
};
const BYTES_RULE = 'expected a size such as 512kb, 1mb, 32mb or a number of bytes';

function parseBytes(raw: string): number | undefined {
  const match = /^(\d+)\s*(b|kb|mb|gb)?$/i.exec(raw.trim());
  if (!match) return undefined;
  const value = Number(match[1]) * (BYTE_UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1);
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** A body size as express writes it ('1mb' = 1024 × 1024 bytes), parsed to bytes. */
function byteSize(defaultValue: string) {
  return z
    .string({ error: BYTES_RULE })
    .transform((raw, ctx): number => {
      const bytes = parseBytes(raw);
      if (bytes === undefined) {
        ctx.issues.push({ code: 'custom', message: BYTES_RULE, input: raw });
        return z.NEVER;
      }
      return bytes;
    })
    .prefault(defaultValue)
    .describe('size in bytes (512kb, 1mb, 32mb)');
}

const upstreamUrl = (service: UpstreamService) =>
  url({ protocols: ['http:', 'https:'] })
    .optional()
    .describe(`Base URL of the ${service} service; unset: not deployed, its paths fail fast`);

export const gatewayConfigSchema = z.object({
  ...serviceSettings.shape,
  // The gateway is the edge: unlike the services behind it, it believes no X-Forwarded-For
  // unless told which load balancer it sits behind.
  TRUSTED_PROXIES: trustSettings.shape.TRUSTED_PROXIES.unwrap()
    .optional()
    .describe(
      'Load balancers in front of the gateway whose X-Forwarded-For/-Proto/-Host are believed (loopback, uniquelocal, IPs, CIDRs); unset: none',
    ),
  UPSTREAM_TIMEOUT_MS: durationMs(30_000).describe(
    'How long an upstream may stay silent before the gateway answers 504',
  ),
  BODY_LIMIT: byteSize('1mb').describe('Largest request body on every route but batch create'),
  BATCH_BODY_LIMIT: byteSize('32mb').describe(
    'Largest request body of POST /v1/batches (gzip on the wire; spec 8.1: 32 MB)',
  ),
  PROBLEM_TYPE_BASE: url({ protocols: ['http:', 'https:'] })
    .prefault('https://api.messaging.example/problems')
    .describe(
      'Prefix of problem type URIs of number intelligence errors ({problem_type_base}); must match the numbers service',
    ),
  UPSTREAM_SMS: upstreamUrl('sms'),
  UPSTREAM_BATCH: upstreamUrl('batch'),
  UPSTREAM_REPLYPATH: upstreamUrl('replypath'),
  UPSTREAM_REPLYPATH_LEGACY: upstreamUrl('replypath-legacy'),
  UPSTREAM_RCS: upstreamUrl('rcs'),
  UPSTREAM_VOICE: upstreamUrl('voice'),
  UPSTREAM_NUMBERS: upstreamUrl('numbers'),
  UPSTREAM_LOOKUP_LEGACY: upstreamUrl('lookup-legacy'),
  UPSTREAM_NOTIFIER: upstreamUrl('notifier'),
});

export type GatewayConfig = Readonly<z.output<typeof gatewayConfigSchema>>;

/** Reads and checks every setting at once; throws ConfigError naming each problem. */
export function loadGatewayConfig(env: Env = process.env): GatewayConfig {
  return loadConfig(gatewayConfigSchema, env);
}

/** The configured base URL of each service; a service missing here is not deployed. */
export function upstreamUrls(config: GatewayConfig): Partial<Record<UpstreamService, string>> {
  return {
    sms: config.UPSTREAM_SMS,
    batch: config.UPSTREAM_BATCH,
    replypath: config.UPSTREAM_REPLYPATH,
    'replypath-legacy': config.UPSTREAM_REPLYPATH_LEGACY,
    rcs: config.UPSTREAM_RCS,
    voice: config.UPSTREAM_VOICE,
    numbers: config.UPSTREAM_NUMBERS,
    'lookup-legacy': config.UPSTREAM_LOOKUP_LEGACY,
    notifier: config.UPSTREAM_NOTIFIER,
  };
}
