import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function capture() {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  return { stream, lines };
}

describe('createLogger', () => {
  it('when logging, then writes one JSON line with service, level, message and fields', async () => {
    const { stream, lines } = capture();
    createLogger({ service: 'svc', stream }).info('request done', { status: 200 });
    await new Promise((r) => setImmediate(r));
    expect(lines[0]).toMatchObject({
      service: 'svc',
      level: 'info',
      message: 'request done',
      status: 200,
    });
    expect(typeof lines[0]?.timestamp).toBe('string');
  });

  it('when a child logger is used, then its context is on every line', async () => {
    const { stream, lines } = capture();
    createLogger({ service: 'svc', stream }).child({ requestId: 'r1', accountId: 'a1' }).warn('x');
    await new Promise((r) => setImmediate(r));
    expect(lines[0]).toMatchObject({ requestId: 'r1', accountId: 'a1', service: 'svc' });
  });

  it('when fields hold credentials or personal data, then they are redacted, also nested', async () => {
    const { stream, lines } = capture();
    createLogger({ service: 'svc', stream }).info('sent', {
      password: 'p',
      to: '+46701234567',
      body: { message: 'hello', nested: { apiKey: 'k', keep: 1 } },
      headers: { authorization: 'Basic x' },
    });
    await new Promise((r) => setImmediate(r));
    const line = JSON.stringify(lines[0]);
    for (const secret of ['"p"', '+46701234567', 'hello', '"k"', 'Basic x'])
      expect(line).not.toContain(secret);
    expect(lines[0]).toMatchObject({ body: { nested: { keep: 1 } } });
  });

  it('when the level is above the call, then nothing is written', async () => {
    const { stream, lines } = capture();
    createLogger({ service: 'svc', level: 'warn', stream }).info('quiet');
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(0);
  });
});
