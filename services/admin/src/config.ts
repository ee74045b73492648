import {
  callbackTargetSettings,
  durationMs,
  loadConfig,
  secret,
  serviceSettings,
  trustSettings,
  z,
} from '@msg/config';

export const adminSettings = z.object({
  ...serviceSettings.shape,
  ...trustSettings.shape,
  // The accounts' report URLs (callbacks.*Url) are client URLs like any other.
  ...callbackTargetSettings.shape,
  ADMIN_TOKEN: secret().describe(
    'Bearer token operators and the CLI present to the internal admin API. At least 16 characters.',
  ),
  BILLING_INTERNAL_TOKEN: secret()
    .optional()
    .describe(
      'Bearer token the sending services (sms, batch, replypath) present to debit prepaid accounts; unset: every debit is refused (401), so prepaid sends fail as unavailable',
    ),
  DEBIT_RETENTION: durationMs('720h').describe(
    'How long a prepaid debit record is kept: within it a retried debit of the same message is free (retries come within minutes)',
  ),
});

export type AdminConfig = z.infer<typeof adminSettings>;

export function loadAdminConfig(env: NodeJS.ProcessEnv = process.env): AdminConfig {
  return loadConfig(adminSettings, env);
}

export const cliSettings = z.object({
  ADMIN_URL: z
    .url()
    .default('http://127.0.0.1:8081')
    .describe('Base URL of the admin service the CLI talks to.'),
  ADMIN_TOKEN: secret().describe('The operator token of that admin service.'),
});

export type CliConfig = z.infer<typeof cliSettings>;
