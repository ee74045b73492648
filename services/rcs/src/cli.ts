#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { exitOnConfigError, loadConfig, secret, z } from '@msg/config';
import { CliError, operatorApi, runCli } from '@msg/service-kit';

const USAGE = `pnpm rcs agents <command> [arguments]
pnpm rcs fallback <command> [arguments]

SMS fallback per account (beyond the specification; off by default):

  fallback list                          accounts with fallback enabled
  fallback show <account>
  fallback enable <account>              its sends may carry sms_fallback
  fallback disable <account>             sms_fallback is refused again (400 not_enabled)

Agents:

  list                                   every agent (credentials are never shown)
  show <agent>
  create <agent> <display name> [--use-case T] [--kind K] [--launched] [--credentials key.json] [--account A]...
  update <agent> [--name N] [--use-case T] [--kind K] [--launched | --not-launched] [--credentials key.json]
  allow <agent> <account>                the account may send as the agent
  deny <agent> <account>
  delete <agent>

T is the default message_traffic_type: AUTHENTICATION, TRANSACTION (default), PROMOTION,
SERVICEREQUEST, ACKNOWLEDGEMENT, MESSAGE_TRAFFIC_TYPE_UNSPECIFIED. <account> (and A) is the
account's id or its name, as for pnpm admin; the service stores the id and refuses a name or id
it does not know (an account created a moment ago arrives within seconds). K is business_messaging
(default) or conversational (client operations naming it answer 501 for now). key.json is the agent's RBM
service-account key; the service stores it encrypted (RCS_CREDENTIALS_KEY). RCS_URL and
RCS_ADMIN_TOKEN select the rcs service (its /internal/v1 operator API; the embedded suite prints both).`;

const cliSettings = z.object({
  RCS_URL: z
    .url()
    .default('http://127.0.0.1:8090')
    .describe('Base URL of the rcs service the CLI talks to (not the gateway).'),
  RCS_ADMIN_TOKEN: secret().describe('The operator token of that service.'),
});

async function main(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      'use-case': { type: 'string' },
      kind: { type: 'string' },
      launched: { type: 'boolean' },
      'not-launched': { type: 'boolean' },
      credentials: { type: 'string' },
      account: { type: 'string', multiple: true },
      name: { type: 'string' },
    },
  });
  const [group, command, ...args] = positionals;
  if ((group !== 'agents' && group !== 'fallback') || !command || values.help) return USAGE;
  const config = exitOnConfigError(() => loadConfig(cliSettings));
  const operator = (path: string) =>
    operatorApi(`${config.RCS_URL.replace(/\/$/, '')}/internal/v1/${path}`, config.RCS_ADMIN_TOKEN);
  if (group === 'fallback') return fallback(operator('account-settings'), command, args);
  const call = operator('agents');
  const need = (count: number, what: string) => {
    if (args.length !== count) throw new CliError(`${command} needs ${what}\n\n${USAGE}`);
    return `/${encodeURIComponent(args[0] as string)}`;
  };
  const settings = async () => ({
    ...(values['use-case'] && { use_case: values['use-case'] }),
    ...(values.kind && { kind: values.kind }),
    ...(values.launched && { launched: true }),
    ...(values['not-launched'] && { launched: false }),
    ...(values.credentials && {
      credentials: JSON.parse(await readFile(values.credentials, 'utf8')),
    }),
  });
  switch (command) {
    case 'list':
      return call('GET');
    case 'show':
      return call('GET', need(1, '<agent>'));
    case 'create':
      need(2, '<agent> <display name>');
      return call('POST', '', {
        agent_id: args[0],
        display_name: args[1],
        accounts: values.account ?? [],
        ...(await settings()),
      });
    case 'update':
      return call('PATCH', need(1, '<agent>'), {
        ...(values.name && { display_name: values.name }),
        ...(await settings()),
      });
    case 'allow':
    case 'deny': {
      // The service resolves the account (id or name) and changes the one entry atomically.
      const agent = need(2, '<agent> <account>');
      return call(
        command === 'allow' ? 'PUT' : 'DELETE',
        `${agent}/accounts/${encodeURIComponent(args[1] as string)}`,
      );
    }
    case 'delete':
      return call('DELETE', need(1, '<agent>'));
    default:
      throw new CliError(`unknown command ${command}\n\n${USAGE}`);
  }
}

/** `pnpm rcs fallback ...`: the account-settings operator API. */
async function fallback(
  call: ReturnType<typeof operatorApi>,
  command: string,
  args: string[],
): Promise<unknown> {
  const account = () => {
    if (args.length !== 1) throw new CliError(`fallback ${command} needs <account>\n\n${USAGE}`);
    return `/${encodeURIComponent(args[0] as string)}`;
  };
  switch (command) {
    case 'list': {
      const { accounts } = (await call('GET')) as { accounts: { sms_fallback: boolean }[] };
      return { accounts: accounts.filter((a) => a.sms_fallback) };
    }
    case 'show':
      return call('GET', account());
    case 'enable':
    case 'disable':
      return call('PATCH', account(), { sms_fallback: command === 'enable' });
    default:
      throw new CliError(`unknown command fallback ${command}\n\n${USAGE}`);
  }
}

await runCli('rcs', () => main(process.argv.slice(2)));
