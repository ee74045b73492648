#!/usr/bin/env node
// Stands in for Prisma's native schema engine, which `prisma generate` insists on locating but
// never runs, and which cannot be downloaded offline. Anything that really needs it fails here
// with a clear message instead of hanging on a download.
process.stderr.write(
  'The Prisma schema engine is not installed (offline build). Use @msg/db migrate() to apply ' +
    'migrations, and see packages/db/README.md to create them.\n',
);
process.exit(1);
