import { parseArgs } from 'node:util';
import { databaseSettings, exitOnConfigError, loadConfig, logLevel, z } from '@msg/config';
import { createPool } from '@msg/db';
import { createLogger } from '@msg/logger';
import { importSnapshotDirectory } from './registry/importer.js';
import { migrateNumbers } from './service.js';

const USAGE = `usage: pnpm numbers import <snapshot-dir> [--date YYYY-MM-DD]

  import   loads a portability registry snapshot (snapshot.json, providers.csv, ranges.csv,
           ports.csv; see services/numbers/README.md) into DATABASE_URL, atomically; importing
           the same snapshot again changes nothing.
  --date   import the files as the snapshot of this date (valid until the next day)`;

const cliSettings = z.object({
  DATABASE_URL: databaseSettings.shape.DATABASE_URL,
  LOG_LEVEL: logLevel('info').describe('Lowest log level written'),
});

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { date: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, dir, ...extra] = positionals;
  if (values.help || command !== 'import' || !dir || extra.length > 0) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const config = exitOnConfigError(() => loadConfig(cliSettings, process.env));
  if (!config.DATABASE_URL) {
    process.stderr.write('DATABASE_URL is required: the snapshot goes into the numbers schema\n');
    return 2;
  }
  const logger = createLogger({ service: 'numbers-import', level: config.LOG_LEVEL });
  const pool = createPool({ url: config.DATABASE_URL, applicationName: 'numbers-import', logger });
  try {
    await migrateNumbers({ pool, logger });
    const outcome = await importSnapshotDirectory(pool, dir, logger, {
      ...(values.date && { snapshotDate: values.date }),
    });
    process.stdout.write(`${JSON.stringify(outcome)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(
      `import failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  } finally {
    await pool.end();
  }
}

process.exitCode = await main(process.argv.slice(2));
