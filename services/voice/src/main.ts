import { runService } from '@msg/service-kit';
import { loadVoiceConfig } from './config.js';
import { voiceService } from './service.js';
import { deployedDependencies } from './wiring.js';

// Deployed form: its own process, on Postgres (DATABASE_URL) and Kafka (KAFKA_BROKERS).
await runService(voiceService(await deployedDependencies(loadVoiceConfig())));
