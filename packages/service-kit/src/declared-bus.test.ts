import { createInProcessBus } from '@msg/bus';
import { loadConfig, serviceSettings, z } from '@msg/config';
import { exampleEvents, Topics } from '@msg/contracts';
import { createService } from '@msg/http';
import { createLogger } from '@msg/logger';
import { afterEach, describe, expect, it } from 'vitest';
import { declaredBus, UndeclaredTopicError } from './declared-bus.js';
import { defineService } from './service-definition.js';
import { startService } from './start-service.js';

const logger = createLogger({ service: 'declared-bus-test', level: 'error' });
const buses: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(buses.splice(0).map((bus) => bus.close()));
});

async function newBus() {
  const bus = createInProcessBus({ logger });
  buses.push(bus);
  await bus.ensureTopics([{ topic: Topics.smsStatus }, { topic: Topics.smsInbound }]);
  return bus;
}

const config = { STATUS_GROUP: 'configured-status' };
const status = { key: 'k', value: exampleEvents[Topics.smsStatus] };
const handler = async () => {};

describe('declaredBus', () => {
  it('when the service publishes to a declared topic, then the event is published', async () => {
    const bus = declaredBus(await newBus(), 'svc', { publishes: [Topics.smsStatus] }, config);
    await expect(bus.publish(Topics.smsStatus, [status])).resolves.toBeUndefined();
  });

  it('when the service publishes to a topic it did not declare, then the publish is refused naming service and topic', async () => {
    const bus = declaredBus(await newBus(), 'svc', { publishes: [Topics.smsInbound] }, config);
    await expect(bus.publish(Topics.smsStatus, [status])).rejects.toThrow(
      new UndeclaredTopicError(
        'svc publishes to sms.status.v1, which its service definition does not list in publishes',
      ),
    );
  });

  it('when the service subscribes with the group its settings name, then it subscribes', async () => {
    const consumes = [{ topic: Topics.smsStatus, group: (c: typeof config) => c.STATUS_GROUP }];
    const bus = declaredBus(await newBus(), 'svc', { consumes }, config);
    const subscription = await bus.subscribe({
      groupId: 'configured-status',
      topics: [Topics.smsStatus],
      handler,
    });
    await subscription.stop();
  });

  it('when the service subscribes to an undeclared topic, or a declared one in another group, then it is refused', async () => {
    const consumes = [{ topic: Topics.smsStatus, group: 'svc-status' }];
    const bus = declaredBus(await newBus(), 'svc', { consumes }, config);
    await expect(
      bus.subscribe({ groupId: 'svc-status', topics: [Topics.smsInbound], handler }),
    ).rejects.toThrow(
      'svc subscribes to sms.inbound.v1 as group svc-status, which its service definition does not list in consumes',
    );
    await expect(
      bus.subscribe({ groupId: 'svc-other', topics: [Topics.smsStatus], handler }),
    ).rejects.toThrow(UndeclaredTopicError);
  });
});

describe('ServiceContext directories', () => {
  it('when a service asks for the account directory without following it, then its start fails naming the declaration', async () => {
    const service = defineService({
      name: 'undeclared-directory',
      loadConfig: (env) => loadConfig(z.object({ ...serviceSettings.shape }), env),
      start: async (_config, kit) => {
        await kit.accountDirectory();
        return { app: createService({ ...kit.http, name: 'x', routes: () => {} }) };
      },
    });
    await expect(
      startService(service, service.loadConfig({}), { bus: await newBus(), logger }),
    ).rejects.toThrow(
      "undeclared-directory follows accounts.v1, which its service definition does not list in follows ('accounts')",
    );
  });
});
