import { createLogger } from '@msg/logger';
import { describe, expect, it } from 'vitest';
import { createKafkaBus } from './kafka-bus.js';

describe('createKafkaBus', () => {
  it('when the heartbeat is more than a third of the session, then it refuses before connecting', () => {
    expect(() =>
      createKafkaBus({
        brokers: ['127.0.0.1:1'],
        clientId: 'timing-test',
        logger: createLogger({ service: 'bus-test', level: 'error' }),
        sessionTimeoutMs: 6_000,
        heartbeatIntervalMs: 2_500,
      }),
    ).toThrow('heartbeat interval 2500 ms must be at most a third of the session timeout 6000 ms');
  });
});
