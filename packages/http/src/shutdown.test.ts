import { Writable } from 'node:stream';
import { createLogger } from '@msg/logger';
import { describe, expect, it, vi } from 'vitest';
import { onSigterm } from './shutdown.js';

function testLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { logger: createLogger({ service: 'test', stream }), lines };
}

describe('onSigterm', () => {
  it('when shutdown runs, then every step closes in order, logs are flushed, and the exit code is 0', async () => {
    const { logger, lines } = testLogger();
    const order: string[] = [];
    const exit = vi.fn();
    const handle = onSigterm(
      [
        { name: 'http', close: async () => void order.push('http') },
        { name: 'consumers', close: () => void order.push('consumers') },
        async function database() {
          order.push('database');
        },
      ],
      logger,
      { exit },
    );
    try {
      await Promise.all([handle.shutdown('SIGTERM'), handle.shutdown('SIGINT')]);
      expect(order).toEqual(['http', 'consumers', 'database']);
      expect(exit).toHaveBeenCalledExactlyOnceWith(0);
      expect(lines.join('')).toContain('"step":"database"');
    } finally {
      handle.dispose();
    }
  });

  it('when a step fails, then the later steps still run and the exit code is 1', async () => {
    const { logger } = testLogger();
    const exit = vi.fn();
    const closedDatabase = vi.fn();
    const handle = onSigterm(
      [
        {
          name: 'consumers',
          close: async () => {
            throw new Error('commit failed');
          },
        },
        { name: 'database', close: closedDatabase },
      ],
      logger,
      { exit },
    );
    try {
      await handle.shutdown('SIGTERM');
      expect(closedDatabase).toHaveBeenCalledOnce();
      expect(exit).toHaveBeenCalledExactlyOnceWith(1);
    } finally {
      handle.dispose();
    }
  });

  it('when registered, then it listens for the signals until disposed', () => {
    const { logger } = testLogger();
    const before = process.listenerCount('SIGTERM');
    const handle = onSigterm([], logger, { exit: vi.fn(), signals: ['SIGTERM'] });
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    handle.dispose();
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
