#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { exitOnConfigError, loadConfig, secret, z } from '@msg/config';
import { CliError, operatorApi, runCli } from '@msg/service-kit';

const USAGE = `pnpm replypath <command> [arguments]

  list                          every pool number with its state (enabled, reservations)
  add <number>...               one or more numbers
  add-range <from> <to>         every number from <from> to <to>, both included (at most 10,000)
  disable <number>              not allocated again; its reservations run to their end
  enable <number>
  remove <number>               refused while a reservation is active or quarantined

Numbers are Swedish: +46..., 0046... or 0... . REPLYPATH_URL and REPLYPATH_ADMIN_TOKEN select
the reply-path service (its /internal/v1/pool API; the embedded suite prints both).`;

const cliSettings = z.object({
  REPLYPATH_URL: z
    .url()
    .default('http://127.0.0.1:8084')
    .describe('Base URL of the reply-path service the CLI talks to (not the gateway).'),
  REPLYPATH_ADMIN_TOKEN: secret().describe('The pool management token of that service.'),
});

async function main(argv: string[]): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...args] = positionals;
  if (!command || values.help) return USAGE;
  const config = exitOnConfigError(() => loadConfig(cliSettings));
  const call = operatorApi(
    `${config.REPLYPATH_URL.replace(/\/$/, '')}/internal/v1/pool/numbers`,
    config.REPLYPATH_ADMIN_TOKEN,
  );
  const one = (what = '<number>') => {
    if (args.length !== 1) throw new CliError(`${command} needs ${what}\n\n${USAGE}`);
    return `/${encodeURIComponent(args[0] as string)}`;
  };

  switch (command) {
    case 'list':
      return call('GET');
    case 'add':
      if (args.length === 0) throw new CliError(`add needs at least one number\n\n${USAGE}`);
      return call('POST', '', { numbers: args });
    case 'add-range':
      if (args.length !== 2) throw new CliError(`add-range needs <from> <to>\n\n${USAGE}`);
      return call('POST', '', { from: args[0], to: args[1] });
    case 'disable':
    case 'enable':
      return call('PATCH', one(), { enabled: command === 'enable' });
    case 'remove':
      return call('DELETE', one());
    default:
      throw new CliError(`unknown command ${command}\n\n${USAGE}`);
  }
}

await runCli('replypath', () => main(process.argv.slice(2)));
