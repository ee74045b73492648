import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's services/ folder. */
export const servicesDir = fileURLToPath(new URL('../../../../services', import.meta.url));

/** Every service folder name (services/<name>). */
export function serviceNames(): string[] {
  return readdirSync(servicesDir, { withFileTypes: true })
    .filter(
      (entry) => entry.isDirectory() && existsSync(join(servicesDir, entry.name, 'package.json')),
    )
    .map((entry) => entry.name)
    .sort();
}

/** Services that declare tables (prisma/schema.prisma). */
export function servicesWithSchema(): string[] {
  return serviceNames().filter((name) =>
    existsSync(join(servicesDir, name, 'prisma', 'schema.prisma')),
  );
}
