#!/usr/bin/env node
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { exitOnConfigError, loadConfig } from '@msg/config';
import { isNumberScope, isPermission } from '@msg/contracts';
import got, { HTTPError } from 'got';
import { cliSettings } from './config.js';

const USAGE = `pnpm admin <command> [arguments]

  list [--status active|disabled]
  show <account>
  create <name> [--password P] [--api-key] [settings]
  update <account> [settings]
  grant <account> <permission|scope>...      e.g. grant acme batch_sms numbers:read
  revoke <account> <permission|scope>...
  disable <account> | enable <account>       disabled = inactive (contract terminated): refused everywhere
  top-up <account> <credits>                 add prepaid credits (one per SMS part); shows the balance
  set-password <account> [--password P]      a strong password is generated when none is given
  add-api-key <account>                      the key is printed once
  revoke-api-key <account> <key-id>
  republish                                  publish every account's state again
  opt-outs list <account> [--limit N] [--offset N]   recipients who opted out, newest first
  opt-outs add <account> <msisdn>            put a recipient on the account's opt-out list
  opt-outs remove <account> <msisdn>         take a recipient off it (as START would)
  protected-senders list                     sender names no account may use unless registered to it
  protected-senders add <name>               protect a name (banks, authorities) and its look-alikes
  protected-senders remove <name>            take it off the list
  protected-senders republish                publish the list again

settings: --permissions a,b  --scopes a,b  --reply-path-url URL  --reply-path-method GET|POST
          --delivery-report-url URL  --voice-report-url URL  --rate-per-second N  --rate-burst N
          --sms-throughput N  --ip-allow a,b  --sender-ids a,b  --billing postpaid|prepaid
          --batch-max-recipients N|none  --numbers-monthly-quota N|none
          --opt-out-keywords a,b   the account's own stop words (beside STOP, STOPP, AVSLUTA,
                                   UNSUBSCRIBE); an empty value "" removes them all
          --voice-caller-ids a,b   registered text-to-voice caller IDs (E.164)
          --voice-default-sender N|none   the account's default voice caller ID (one of them)

<account> is the account id or name. ADMIN_URL and ADMIN_TOKEN select the admin service.`;

const options = {
  status: { type: 'string' },
  password: { type: 'string' },
  'api-key': { type: 'boolean' },
  permissions: { type: 'string' },
  scopes: { type: 'string' },
  'reply-path-url': { type: 'string' },
  'reply-path-method': { type: 'string' },
  'delivery-report-url': { type: 'string' },
  'voice-report-url': { type: 'string' },
  'rate-per-second': { type: 'string' },
  'rate-burst': { type: 'string' },
  'sms-throughput': { type: 'string' },
  'batch-max-recipients': { type: 'string' },
  'numbers-monthly-quota': { type: 'string' },
  'ip-allow': { type: 'string' },
  'sender-ids': { type: 'string' },
  billing: { type: 'string' },
  'opt-out-keywords': { type: 'string' },
  'voice-caller-ids': { type: 'string' },
  'voice-default-sender': { type: 'string' },
  limit: { type: 'string' },
  offset: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Flags = ReturnType<
  typeof parseArgs<{ options: typeof options; allowPositionals: true }>
>['values'];

const list = (s: string | undefined) =>
  s === undefined ? undefined : s.split(',').filter(Boolean);
const int = (s: string | undefined) => (s === undefined ? undefined : Number.parseInt(s, 10));
/** A limit flag: a number, or "none" to lift the limit (null). */
const limit = (s: string | undefined) => (s === 'none' ? null : int(s));

/** Builds the JSON `Settings` body from the flags that were given; the service validates it. */
function settingsFrom(flags: Flags): Record<string, unknown> {
  const callbacks = Object.fromEntries(
    Object.entries({
      replyPathUrl: flags['reply-path-url'],
      replyPathMethod: flags['reply-path-method'],
      deliveryReportUrl: flags['delivery-report-url'],
      voiceReportUrl: flags['voice-report-url'],
    }).filter(([, v]) => v !== undefined),
  );
  const perSecond = int(flags['rate-per-second']);
  const burst = int(flags['rate-burst']);
  const settings: Record<string, unknown> = {
    permissions: list(flags.permissions),
    numberScopes: list(flags.scopes),
    callbacks: Object.keys(callbacks).length > 0 ? callbacks : undefined,
    rateLimit:
      perSecond !== undefined || burst !== undefined
        ? { perSecond: perSecond ?? burst, burst: burst ?? perSecond }
        : undefined,
    smsThroughputPerSecond: int(flags['sms-throughput']),
    billingMode: flags.billing,
    batchMaxRecipients: limit(flags['batch-max-recipients']),
    numbersMonthlyQuota: limit(flags['numbers-monthly-quota']),
    ipAllowList: list(flags['ip-allow']),
    senderIds: list(flags['sender-ids']),
    optOutKeywords: list(flags['opt-out-keywords']),
    voiceCallerIds: list(flags['voice-caller-ids']),
    voiceDefaultSender:
      flags['voice-default-sender'] === 'none' ? null : flags['voice-default-sender'],
  };
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
}

async function main(argv: string[]): Promise<unknown> {
  const { values: flags, positionals } = parseArgs({ args: argv, options, allowPositionals: true });
  const [command, account, ...rest] = positionals;
  if (!command || flags.help) return USAGE;
  const config = exitOnConfigError(() => loadConfig(cliSettings));
  const internal = got.extend({
    headers: { authorization: `Bearer ${config.ADMIN_TOKEN}` },
    responseType: 'json',
    timeout: { request: 15_000 },
  });
  const prefix = `${config.ADMIN_URL.replace(/\/$/, '')}/internal/v1`;
  const api = internal.extend({ prefixUrl: `${prefix}/accounts` });
  const protectedApi = internal.extend({ prefixUrl: `${prefix}/protected-senders` });
  const path = (...parts: string[]) => parts.map(encodeURIComponent).join('/');
  const need = (value: string | undefined, what: string) => {
    if (!value) throw new Error(`${command} needs ${what}\n\n${USAGE}`);
    return value;
  };

  /** `opt-outs list|add|remove <account> [<msisdn>]`. */
  async function optOutCommand(sub: string | undefined, args: string[], given: Flags) {
    const ref = need(args[0], '<account>');
    switch (sub) {
      case 'list': {
        const page = Object.fromEntries(
          Object.entries({ limit: given.limit, offset: given.offset }).filter(([, v]) => v),
        );
        return (await api.get(path(ref, 'opt-outs'), { searchParams: page })).body;
      }
      case 'add':
        return (await api.put(path(ref, 'opt-outs', need(args[1], '<msisdn>')))).body;
      case 'remove':
        await api.delete(path(ref, 'opt-outs', need(args[1], '<msisdn>')));
        return { ok: true };
      default:
        throw new Error(`opt-outs needs list, add or remove\n\n${USAGE}`);
    }
  }

  /** `protected-senders list|add|remove|republish [<name>]`. */
  async function protectedSendersCommand(sub: string | undefined, name: string | undefined) {
    switch (sub) {
      case 'list':
        return (await protectedApi.get('')).body;
      case 'add':
        return (await protectedApi.put(path(need(name, '<name>')))).body;
      case 'remove':
        await protectedApi.delete(path(need(name, '<name>')));
        return { ok: true };
      case 'republish':
        return (await protectedApi.post('republish')).body;
      default:
        throw new Error(`protected-senders needs list, add, remove or republish\n\n${USAGE}`);
    }
  }

  switch (command) {
    case 'list':
      return (await api.get('', { searchParams: flags.status ? { status: flags.status } : {} }))
        .body;
    case 'show':
      return (await api.get(path(need(account, '<account>')))).body;
    case 'create':
      return (
        await api.post('', {
          json: {
            name: need(account, '<name>'),
            ...(flags.password && { password: flags.password }),
            ...(flags['api-key'] && { createApiKey: true }),
            ...settingsFrom(flags),
          },
        })
      ).body;
    case 'update':
      return (await api.patch(path(need(account, '<account>')), { json: settingsFrom(flags) }))
        .body;
    case 'grant':
    case 'revoke': {
      const ref = need(account, '<account>');
      need(rest[0], 'at least one permission or scope');
      const current = (await api.get(path(ref)).json()) as {
        permissions: string[];
        numberScopes: string[];
      };
      const unknown = rest.filter((x) => !isPermission(x) && !isNumberScope(x));
      if (unknown.length > 0) throw new Error(`unknown permission or scope: ${unknown.join(', ')}`);
      const apply = (have: string[], names: string[]) =>
        command === 'grant'
          ? [...new Set([...have, ...names])]
          : have.filter((x) => !names.includes(x));
      return (
        await api.patch(path(ref), {
          json: {
            permissions: apply(current.permissions, rest.filter(isPermission)),
            numberScopes: apply(current.numberScopes, rest.filter(isNumberScope)),
          },
        })
      ).body;
    }
    case 'disable':
    case 'enable':
      return (await api.post(path(need(account, '<account>'), command))).body;
    case 'top-up': {
      const credits = Number(need(rest[0], '<credits>'));
      return (await api.post(path(need(account, '<account>'), 'top-ups'), { json: { credits } }))
        .body;
    }
    case 'set-password': {
      const password = flags.password ?? randomBytes(18).toString('base64url');
      await api.put(path(need(account, '<account>'), 'password'), { json: { password } });
      return flags.password ? { ok: true } : { password, note: 'shown once; store it now' };
    }
    case 'add-api-key':
      return (await api.post(path(need(account, '<account>'), 'api-keys'))).body;
    case 'revoke-api-key':
      await api.delete(path(need(account, '<account>'), 'api-keys', need(rest[0], '<key-id>')));
      return { ok: true };
    case 'republish':
      return (await api.post('republish')).body;
    case 'opt-outs':
      return optOutCommand(account, rest, flags);
    case 'protected-senders':
      return protectedSendersCommand(account, rest[0]);
    default:
      throw new Error(`unknown command ${command}\n\n${USAGE}`);
  }
}

try {
  const result = await main(process.argv.slice(2));
  process.stdout.write(
    typeof result === 'string' ? `${result}\n` : `${JSON.stringify(result, null, 2)}\n`,
  );
} catch (error) {
  if (error instanceof HTTPError) {
    console.error(`admin: ${error.response.statusCode} ${JSON.stringify(error.response.body)}`);
  } else {
    console.error(`admin: ${error instanceof Error ? error.message : String(error)}`);
  }
  process.exitCode = 1;
}
