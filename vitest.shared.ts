import { basename, join } from 'node:path';
import { defineConfig } from 'vitest/config';

// `pnpm test` sets TEST_RESULTS_DIR to gather every package's results into one summary line.
const resultsDir = process.env.TEST_RESULTS_DIR;

/**
 * One test layout for every package (shared/STYLE.md §11): the test kind is in the file name.
 * - unit:        *.test.ts and test/*.http.test.ts — no outside infrastructure.
 * - integration: *.integration.test.ts and *.e2e.test.ts — real Postgres and Kafka.
 */
export function testProjects() {
  return defineConfig({
    test: {
      reporters: resultsDir ? ['default', 'json'] : ['default'],
      ...(resultsDir && {
        outputFile: { json: join(resultsDir, `${basename(process.cwd())}.json`) },
      }),
      projects: [
        {
          test: {
            name: 'unit',
            include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
            exclude: ['**/*.integration.test.ts', '**/*.e2e.test.ts', '**/node_modules/**'],
            testTimeout: 20_000,
            // Component tests start an embedded Postgres (and simulators) per file: on a loaded
            // 2-core machine that alone can pass vitest's 10 s default.
            hookTimeout: 60_000,
          },
        },
        {
          test: {
            name: 'integration',
            include: [
              'src/**/*.integration.test.ts',
              'test/**/*.integration.test.ts',
              'test/**/*.e2e.test.ts',
            ],
            testTimeout: 120_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
        },
      ],
    },
  });
}
