import { fileURLToPath } from 'node:url';
import { type Bus, OUTBOX_MIGRATIONS_DIR, type SubscribeOptions } from '@msg/bus';
import { loadConfig, serviceSettings, z } from '@msg/config';
import { Topics } from '@msg/contracts';
import { createService } from '@msg/http';
import { startTestRuntime, type TestRuntime } from '@msg/testing';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseContext, defineService, serveService, startService } from '../src/index.js';

const WIDGET_MIGRATIONS = fileURLToPath(new URL('./fixtures/kit-migrations', import.meta.url));
// Any topic with a contract: the kit's declarations take nothing else.
const TOPIC = Topics.rcsOutbound;
const settings = z.object({ ...serviceSettings.shape });
const config = loadConfig(settings, { LOG_LEVEL: 'error', HOST: '127.0.0.1', PORT: '0' });

let runtime: TestRuntime;
let events: string[];

// One embedded database for the file: starting one takes seconds. Each test's service migrates
// the same schema (a no-op after the first) and stops before the next test.
beforeAll(async () => {
  runtime = await startTestRuntime({ service: 'service-kit' });
}, 60_000);

afterAll(async () => {
  await runtime?.stop();
});

beforeEach(() => {
  events = [];
});

/** A deferred promise: the test decides when it settles. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * The runtime's bus, recording what the kit and the service do with it. A subscription of a
 * group in `held` does not resolve until the test opens that gate: a consumer group that has not
 * joined yet (after a kill -9 that lasts a whole session timeout).
 */
function recordingBus(bus: Bus, held: Map<string, Promise<void>> = new Map()): Bus {
  return {
    ...bus,
    async ensureTopics(specs) {
      events.push(`topics ${specs.map((s) => s.topic).join(',')}`);
      await bus.ensureTopics(specs);
    },
    async subscribe(options: SubscribeOptions) {
      const group = options.groupId.split('.')[0];
      await held.get(options.groupId);
      const subscription = await bus.subscribe(options);
      events.push(`joined ${group}`);
      return {
        ...subscription,
        async stop() {
          events.push(`left ${group}`);
          await subscription.stop();
        },
      };
    },
    isReady: () => bus.isReady(),
    publish: (topic, messages) => bus.publish(topic, messages),
    close: () => bus.close(),
  };
}

interface TestServiceHooks {
  onStarted?: (kit: DatabaseContext) => void;
  /** Runs first thing when the worker (the last part started) stops. */
  onWorkerStop?: () => Promise<void>;
}

/** A service with a table, a topic, the account directory, a relay, a consumer and a worker. */
function testService({ onStarted = () => {}, onWorkerStop }: TestServiceHooks = {}) {
  return defineService({
    name: 'kit-test',
    loadConfig: () => config,
    database: { schema: 'kit_test', migrations: [OUTBOX_MIGRATIONS_DIR, WIDGET_MIGRATIONS] },
    consumes: [{ topic: TOPIC, group: 'kit-consumer' }],
    follows: ['accounts'],
    async start(_config, kit) {
      // Both folders ran first: the package's table and the service's own.
      await kit.pool.query('SELECT 1 FROM kit_test.widget, kit_test.outbox_event LIMIT 0');
      events.push('start');
      const directory = await kit.accountDirectory();
      kit.onStop('client', () => {
        events.push('client released');
      });
      kit.outboxRelay();
      kit.afterListen('consumer', async () => {
        const subscription = await kit.bus.subscribe({
          groupId: 'kit-consumer',
          topics: [TOPIC],
          handler: async () => {},
        });
        return () => subscription.stop();
      });
      kit.afterListen('worker', () => {
        events.push('worker started');
        return async () => {
          await onWorkerStop?.();
          events.push('worker stopped');
        };
      });
      onStarted(kit);
      const app = createService({
        name: 'kit-test',
        logger: kit.logger,
        metrics: kit.metrics,
        readiness: kit.readiness,
        routes: (express) => {
          express.get('/v1/ping', (_req, res) => {
            res.json({ accounts: directory.size });
          });
        },
      });
      return { app };
    },
  });
}

describe('serveService', () => {
  it('when a service starts, then schema, topics, its start and the directory come before listening, and consumers and workers after', async () => {
    const bus = recordingBus(runtime.bus);
    const service = await serveService(testService(), config, { ...runtime, bus });
    events.push('listening');
    await service.started;
    await service.stop();

    expect(events.slice(0, events.indexOf('listening') + 1)).toEqual([
      `topics ${TOPIC}`,
      'start',
      'topics accounts.v1',
      'joined kit-test-accounts',
      'listening',
    ]);
    expect(
      events.slice(events.indexOf('listening') + 1, events.indexOf('worker started') + 1),
    ).toEqual(['joined kit-consumer', 'worker started']);
  });

  it('when a service stops, then HTTP closes first, then its parts in reverse order of starting', async () => {
    const bus = recordingBus(runtime.bus);
    let url = '';
    // When the first part stops, the server must already refuse connections.
    const probeHttp = () =>
      fetch(`${url}/healthz`).then(
        () => {
          events.push('http still open');
        },
        () => {
          events.push('http closed');
        },
      );
    const service = await serveService(testService({ onWorkerStop: probeHttp }), config, {
      ...runtime,
      bus,
    });
    url = service.url;
    await service.started;
    const before = events.length;
    await service.stop();

    expect(events.slice(before)).toEqual([
      'http closed',
      'worker stopped',
      'left kit-consumer',
      'client released',
      'left kit-test-accounts',
    ]);
  });

  it('when the consumer group has not joined yet, then HTTP already answers and /readyz is 200', async () => {
    const joined = gate();
    const bus = recordingBus(runtime.bus, new Map([['kit-consumer', joined.opened]]));
    const service = await serveService(testService(), config, { ...runtime, bus });
    let backgroundDone = false;
    void service.started.then(() => {
      backgroundDone = true;
    });

    const ping = await request(service.url).get('/v1/ping');
    const ready = await request(service.url).get('/readyz');
    expect(ping.status).toBe(200);
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ database: 'ok', 'account-directory': 'ok' });
    expect(backgroundDone).toBe(false);
    expect(events).not.toContain('joined kit-consumer');
    expect((await request(service.url).get('/metrics')).text).toMatch(
      /^service_started\{[^}]*\} 0$/m,
    );

    joined.open();
    await service.started;
    expect(events).toContain('worker started');
    expect((await request(service.url).get('/metrics')).text).toMatch(
      /^service_started\{[^}]*\} 1$/m,
    );
    await service.stop();
  });

  it('when the bus reports no connection, then /readyz still answers 200: requests go into the outbox', async () => {
    const bus: Bus = { ...recordingBus(runtime.bus), isReady: () => false };
    const service = await serveService(testService(), config, { ...runtime, bus });
    await service.started;
    const ready = await request(service.url).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).not.toHaveProperty('bus');
    await service.stop();
  });
});

describe('startService', () => {
  it('when a background part fails to start, then what started is stopped and the failure is reported', async () => {
    const bus = recordingBus(runtime.bus);
    const failing = testService({
      onStarted: (kit) => {
        kit.afterListen('broken', () => {
          throw new Error('cannot start');
        });
      },
    });
    const service = await startService(failing, config, { ...runtime, bus });
    await expect(service.startBackground()).rejects.toThrow('cannot start');
    await service.stop();
    expect(events.slice(-4)).toEqual([
      'worker stopped',
      'left kit-consumer',
      'client released',
      'left kit-test-accounts',
    ]);
  });

  it('when the service needs a database and is given none, then it refuses to start naming the service', async () => {
    await expect(
      startService(testService(), config, { bus: runtime.bus, logger: runtime.logger }),
    ).rejects.toThrow('kit-test needs a database');
  });
});
