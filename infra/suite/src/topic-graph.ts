import { adminService } from '@msg/admin';
import { batchService } from '@msg/batch';
import { asyncapiYaml } from '@msg/contracts';
import { lookupLegacyService } from '@msg/lookup-legacy';
import { notifierService } from '@msg/notifier';
import { numbersService } from '@msg/numbers';
import { rcsService } from '@msg/rcs';
import { replypathService } from '@msg/replypath';
import { replypathLegacyService } from '@msg/replypath-legacy';
import { type DeclaredService, type PlatformTopics, topicGraph } from '@msg/service-kit';
import { smsService } from '@msg/sms';
import { smscConnectorService } from '@msg/smsc-connector';
import { voiceTopics } from '@msg/voice';

/**
 * Every service of the platform as its definition declares its topics. The suite may import every
 * service (it boots them all), which @msg/contracts may not: the AsyncAPI document's producers
 * and consumers are generated here. A new service is one more entry.
 */
export const platformServices: readonly DeclaredService[] = [
  adminService,
  batchService,
  lookupLegacyService,
  notifierService,
  numbersService(),
  rcsService,
  replypathService(),
  replypathLegacyService,
  smsService,
  smscConnectorService,
  // Its definition needs speech and telephony to be built; its declarations do not.
  voiceTopics,
];

/** Who produces and consumes each topic, and what the declarations get wrong. */
export function platformTopics(): PlatformTopics {
  return topicGraph(platformServices);
}

/** packages/contracts/asyncapi/events.yaml as the schemas and the declarations make it. */
export function platformAsyncapiYaml(): string {
  return asyncapiYaml(platformTopics().graph);
}
