import { runService } from '@msg/service-kit';
import { replypathLegacyService } from './service.js';

// Deployed form: its own process, on Postgres (DATABASE_URL, for the shared rate buckets only)
// and Kafka (KAFKA_BROKERS, the account directory).
await runService(replypathLegacyService);
