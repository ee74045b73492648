import { runService } from '@msg/service-kit';
import { lookupLegacyService } from './service.js';

// Deployed form: its own process, on Kafka (KAFKA_BROKERS); it has no database.
await runService(lookupLegacyService);
