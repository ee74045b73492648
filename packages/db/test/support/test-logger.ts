import { Writable } from 'node:stream';
import { createLogger, type Logger } from '@msg/logger';

/** A logger whose JSON lines the test can read instead of printing them. */
export function testLogger(): { logger: Logger; lines: () => Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return {
    logger: createLogger({ service: 'db-test', level: 'debug', stream }),
    lines: () => lines,
  };
}
