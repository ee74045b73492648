import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serviceNames, servicesDir } from './support/services.js';

/** The service's own source files (not its generated client). */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function importsGeneratedClient(service: string): boolean {
  return sourceFiles(join(servicesDir, service, 'src')).some((file) =>
    /from '[./]*\/?generated\/prisma\//.test(readFileSync(file, 'utf8')),
  );
}

function packageJson(service: string) {
  return JSON.parse(readFileSync(join(servicesDir, service, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
    dependencies?: Record<string, string>;
  };
}

// packages/db/README.md, "Data access: the rule".
describe('the data-access rule of every service', () => {
  const withMigrations = serviceNames().filter((service) =>
    existsSync(join(servicesDir, service, 'prisma', 'migrations')),
  );

  it.each(withMigrations)(
    'when %s has migrations, then schema.prisma declares its tables',
    (service) => {
      expect(existsSync(join(servicesDir, service, 'prisma', 'schema.prisma'))).toBe(true);
    },
  );

  it.each(serviceNames())(
    'when %s generates a Prisma client, then its code uses it (and the other way round)',
    (service) => {
      const pkg = packageJson(service);
      const uses = importsGeneratedClient(service);
      expect({
        gen: pkg.scripts?.gen !== undefined,
        client: pkg.dependencies?.['@prisma/client'] !== undefined,
      }).toEqual({ gen: uses, client: uses });
    },
  );

  it('when the rule is checked, then it sees the services that use Prisma', () => {
    // Guards the test itself: a broken import pattern would make every service "not use" it.
    expect(serviceNames().filter(importsGeneratedClient)).toEqual(['admin', 'sms']);
  });
});
