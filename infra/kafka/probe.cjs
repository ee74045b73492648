// One metadata request to the broker (kafkajs admin listTopics); exit 0 when it answers.
// kafkajs comes from packages/bus, the package that already depends on it.
const path = require('node:path');
const { createRequire } = require('node:module');

const busRequire = createRequire(path.join(__dirname, '../../packages/bus/package.json'));
const { Kafka, logLevel } = busRequire('kafkajs');

const broker = process.argv[2] || '127.0.0.1:9092';
const kafka = new Kafka({
  clientId: 'kafka-probe',
  brokers: [broker],
  connectionTimeout: 1000,
  requestTimeout: 2000,
  retry: { retries: 0 },
  logLevel: logLevel.NOTHING,
});
const admin = kafka.admin();

const timer = setTimeout(() => process.exit(1), 5000);
admin
  .connect()
  .then(() => admin.listTopics())
  .then(() => admin.disconnect())
  .then(
    () => {
      clearTimeout(timer);
      process.exit(0);
    },
    () => process.exit(1),
  );
