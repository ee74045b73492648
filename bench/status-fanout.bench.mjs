// The status fan-out over Kafka (issue 11): every SMS makes two sms.status.v1 reports, and the
// four owners' consumer groups (sms, batch, replypath, rcs) all read the topic, each handling its
// own reports and passing over the others'. On the delivery path that fan-out is most of the
// broker's work, and on this shared 2-core VM the delivery benchmark's rate moves by ±25 % between
// identical runs, so a change to it is measured here on its own, at a fixed offered rate, as CPU
// per report: the broker's (the JVM) and the clients' (this process: the producer and the four
// groups). The same load through the raw library is the floor; a third row has only the owning
// group read the topic, which sizes what a status topic per owner would save.
//
//   pnpm bench status-fanout
//
// Options (environment):
//   FANOUT_REPORTS=20000   reports per run
//   FANOUT_RATE=2000       offered reports per second (in batches of 25, as an outbox relay sends)
//   FANOUT_ROUNDS=3        alternating rounds of the three rows after one unmeasured warm-up
//                          round (the median is reported); about a minute each
import { setTimeout as sleep } from 'node:timers/promises';
import { createKafkaBus, subscribeToSmsStatus } from '@msg/bus';
import { makeEvent, SMS_SOURCE_HEADER, SMS_STATUS_EVENT, Topics } from '@msg/contracts';
import { createLogger } from '@msg/logger';
import { Kafka, logLevel } from 'kafkajs';
import { processCpuSeconds, withKafka } from './processes.mjs';

const REPORTS = Number(process.env.FANOUT_REPORTS ?? 20_000);
const RATE = Number(process.env.FANOUT_RATE ?? 2_000);
const ROUNDS = Number(process.env.FANOUT_ROUNDS ?? 3);
const BATCH = 25;
const OWNERS = ['sms', 'batch', 'replypath', 'rcs'];
/** After the owner has every report: time for the three other groups to pass the last ones over. */
const SETTLE_MS = 2_000;
/** Time for four new groups to join before the measured window. */
const JOIN_MS = 5_000;

const log = (line) =>
  process.stderr.write(`[status-fanout ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

/** A run's reports: all owned by `sms`, as in the delivery benchmark. */
function reports(run) {
  return Array.from({ length: REPORTS }, (_, i) => {
    const messageId = `${run}-${i}`;
    return {
      key: messageId,
      value: makeEvent(
        SMS_STATUS_EVENT,
        {
          messageId,
          accountId: 'bench',
          source: 'sms',
          state: i % 2 ? 'delivered' : 'submitted',
          smscMessageIds: [String(i)],
          parts: 1,
          at: new Date().toISOString(),
        },
        { accountId: 'bench' },
      ),
      headers: { [SMS_SOURCE_HEADER]: 'sms' },
    };
  });
}

/** Publishes at RATE in batches; resolves when the owner handled all, plus SETTLE_MS. */
async function offer({ publish, handled }, messages) {
  const started = Date.now();
  for (let at = 0; at < messages.length; at += BATCH) {
    await sleep(started + (at * 1000) / RATE - Date.now());
    await publish(messages.slice(at, at + BATCH));
  }
  const deadline = Date.now() + 60_000;
  while (handled() < messages.length && Date.now() < deadline) await sleep(20);
  await sleep(SETTLE_MS);
  return handled();
}

/** The floor: kafkajs as its README shows, one producer and four groups, auto-commit on. */
async function rawClients(brokers, round) {
  // A topic of the round's own, read from its beginning (the bus rows read sms.status.v1 itself:
  // subscribeToSmsStatus names it; their new groups read only what comes after they subscribed).
  const topic = `bench.fanout.raw${round}`;
  const kafka = new Kafka({ brokers: [brokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 3 }] });
  await admin.disconnect();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  let handled = 0;
  const consumers = [];
  for (const owner of OWNERS) {
    const consumer = kafka.consumer({ groupId: `raw-${owner}-${round}`, maxWaitTimeInMs: 1_000 });
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        if (message.headers[SMS_SOURCE_HEADER]?.toString() !== owner) return;
        JSON.parse(message.value.toString());
        handled++;
      },
    });
    consumers.push(consumer);
  }
  return {
    publish: (batch) =>
      producer.send({
        topic,
        acks: -1,
        messages: batch.map(({ key, value, headers }) => ({
          key,
          value: JSON.stringify(value),
          headers,
        })),
      }),
    handled: () => handled,
    async close() {
      await Promise.all(consumers.map((c) => c.disconnect()));
      await producer.disconnect();
    },
  };
}

/** The platform's bus: the outbox relay's publish and subscribeToSmsStatus in each owner's group. */
async function busClients(brokers, round, owners = OWNERS) {
  const bus = createKafkaBus({
    brokers: [brokers],
    clientId: 'bench-fanout',
    logger: createLogger({ service: 'bench', level: 'error' }),
  });
  await bus.ensureTopics([{ topic: Topics.smsStatus }]);
  let handled = 0;
  const subscriptions = [];
  for (const owner of owners) {
    // New groups each round, reading only what is published after they subscribed.
    subscriptions.push(
      await subscribeToSmsStatus(bus, {
        groupId: `bus-${owner}-${owners.length}-${round}`,
        owner,
        concurrency: 64,
        handler: async () => {
          handled++;
        },
      }),
    );
  }
  return {
    publish: (batch) => bus.publish(Topics.smsStatus, batch),
    handled: () => handled,
    async close() {
      await Promise.all(subscriptions.map((s) => s.stop()));
      await bus.close();
    },
  };
}

/** CPU ms per 1,000 reports of the broker and of this process while the reports flow. */
async function measured(name, clientsOf, brokerPid, brokers, round) {
  const messages = reports(`${name}${round}`);
  const clients = await clientsOf(brokers, round);
  try {
    // The run's new groups join before the clock starts.
    await sleep(JOIN_MS);
    const broker = processCpuSeconds(brokerPid);
    const client = process.cpuUsage();
    const started = Date.now();
    const handled = await offer(clients, messages);
    const seconds = (Date.now() - started) / 1000;
    const clientUsage = process.cpuUsage(client);
    const perThousand = (cpuSeconds) => (cpuSeconds * 1e6) / messages.length;
    return {
      handled,
      seconds,
      broker: perThousand(processCpuSeconds(brokerPid) - broker),
      client: perThousand((clientUsage.user + clientUsage.system) / 1e6),
    };
  } finally {
    await clients.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run() {
  return withKafka(async (brokers, kafka) => {
    const brokerPid = await kafka?.pid();
    if (!brokerPid)
      throw new Error('status-fanout needs its own broker (unset BENCH_KAFKA_BROKERS)');
    const rows = { raw: [], bus: [], owner: [] };
    // Round 0 unmeasured: the broker's JVM is several times slower until its code is compiled.
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [name, fn] of [
        ['raw', rawClients],
        ['bus', busClients],
        ['owner', (brokers, round) => busClients(brokers, round, ['sms'])],
      ]) {
        const result = await measured(name, fn, brokerPid, brokers, round);
        log(
          `${name} ${round}: ${result.handled}/${REPORTS} in ${result.seconds.toFixed(1)} s; broker ${result.broker.toFixed(0)}, client ${result.client.toFixed(0)} CPU ms per 1,000`,
        );
        if (round > 0) rows[name].push(result);
      }
    }
    const summary = (name, label) => {
      const broker = median(rows[name].map((r) => r.broker));
      const client = median(rows[name].map((r) => r.client));
      const floorBroker = median(rows.raw.map((r) => r.broker));
      const floorClient = median(rows.raw.map((r) => r.client));
      return {
        name: label,
        reports: REPORTS,
        offeredPerSecond: RATE,
        handledByOwner: Math.min(...rows[name].map((r) => r.handled)),
        'broker CPU ms per 1,000 (median)': broker.toFixed(0),
        'broker ratio to floor': (broker / floorBroker).toFixed(2),
        'client CPU ms per 1,000 (median)': client.toFixed(0),
        'client ratio to floor': (client / floorClient).toFixed(2),
        rounds: rows[name].map((r) => `${r.broker.toFixed(0)}/${r.client.toFixed(0)}`).join(' '),
      };
    };
    return {
      title: `sms.status.v1 fan-out to four owners' groups (one owns every report): ${REPORTS} reports at ${RATE}/s, ${ROUNDS} alternating rounds`,
      rows: [
        summary('raw', 'raw kafkajs, eachMessage, auto-commit (floor)'),
        summary('bus', '@msg/bus: subscribeToSmsStatus, outbox-relay publish'),
        summary(
          'owner',
          '@msg/bus, the owning group alone (what a status topic per owner would leave)',
        ),
      ],
    };
  });
}
