import { statusBatchScenarios } from './status-batch.scenario.js';

statusBatchScenarios({ postgres: true });
