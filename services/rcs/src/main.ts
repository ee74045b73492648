import { runService } from '@msg/service-kit';
import { rcsService } from './service.js';

// Deployed form: its own process, on Postgres (DATABASE_URL) and Kafka (KAFKA_BROKERS).
await runService(rcsService);
