import { fileURLToPath } from 'node:url';

/**
 * The Prisma-format migrations folder of the outbox and dedupe tables (`outbox_event`,
 * `processed_event`). A service that uses the outbox lists it before its own folder in
 * migrate()'s `migrationsDirs` (the service kit does); the tables land in the service's schema.
 * The path is the same from src/ and dist/: both sit two levels below the package.
 */
export const OUTBOX_MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));
