import { defineConfig } from 'prisma/config';

// `pnpm gen` runs `prisma generate` offline through @msg/db (no database needed). The service
// applies prisma/migrations itself at start-up with @msg/db's migrate(). `prisma migrate deploy`
// works too where Prisma's schema engine is installed, with DATABASE_URL ending in ?schema=sms:
// Prisma keeps _prisma_migrations in the connection's schema, and so does migrate().
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL },
});
