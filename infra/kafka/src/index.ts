export { type PrivateKafka, startPrivateKafka } from './private-kafka.js';
