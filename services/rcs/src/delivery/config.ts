import { durationMs, int, z } from '@msg/config';

/** Settings of the delivery worker (merged into the service's settings by config.ts). */
export const deliverySettingsShape = {
  RCS_DELIVERY_CONSUMER_GROUP: z
    .string()
    .min(1)
    .default('rcs-delivery')
    .describe('Kafka consumer group of the delivery worker reading rcs.outbound.v1.'),
  RCS_DELIVERY_CONCURRENCY: int({ min: 1, max: 1000, default: 32 }).describe(
    'Messages of one partition sent to RBM at once (offsets commit only past finished ones).',
  ),
  RCS_DELIVERY_RETRY_INITIAL: durationMs('1s').describe(
    'First wait before retrying a send RBM could not take (5xx, 429, unreachable); doubles each time.',
  ),
  RCS_DELIVERY_RETRY_MAX: durationMs('1m').describe(
    'Longest wait between two retries of one send; retries go on until RBM answers.',
  ),
};

export interface DeliverySettings {
  RCS_DELIVERY_CONSUMER_GROUP: string;
  RCS_DELIVERY_CONCURRENCY: number;
  RCS_DELIVERY_RETRY_INITIAL: number;
  RCS_DELIVERY_RETRY_MAX: number;
}
