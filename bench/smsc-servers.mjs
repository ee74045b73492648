// The SMS centres the SMPP benchmarks run against, behind one shape so a benchmark takes the SMSC
// as a parameter:
//   { name, host, port, systemId, password, pid (its process, for CPU time),
//     bindUrl(query)        smpp:// URL for the connector's SMSC_BINDS,
//     holdBinds(hold)       refuse binds (true) or accept them again (false),
//     dropBinds()           drop the sessions bound now,
//     stats()               { submits, firstSubmitAt, lastSubmitAt } (ISO 8601; null before any),
//     submits()             every recorded submit, oldest first, each with receivedAt,
//     reset()               forget recorded submits and counters,
//     stop() }
// The project's simulator runs in a child process of its own (so its CPU time is its own).
import { startBindGate } from './bind-gate.mjs';
import { freePort, json, startProcess, waitHealthy } from './processes.mjs';

const SYSTEM_ID = 'bench';
const PASSWORD = 'benchpw';

function bindUrl(host, port) {
  return (query) =>
    `smpp://${SYSTEM_ID}:${PASSWORD}@${host}:${port}?${new URLSearchParams(query).toString()}`;
}

/** The project's SMSC simulator (infra/smsc-simulator), receipts after `receiptDelayMs`. */
export async function startSimulator({ receiptDelayMs = 100 } = {}) {
  const [port, controlPort] = [await freePort(), await freePort()];
  const child = await startProcess(
    ['infra/smsc-simulator/dist/main.js'],
    {
      SMSC_PORT: String(port),
      CONTROL_PORT: String(controlPort),
      SMSC_CREDENTIALS: `${SYSTEM_ID}:${PASSWORD}`,
      RECEIPT_DELAY_MS: String(receiptDelayMs),
      LOG_LEVEL: 'warn',
    },
    null,
  );
  const control = `http://127.0.0.1:${controlPort}`;
  await waitHealthy(control);
  const post = (path, body) =>
    json(`${control}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body && { body: JSON.stringify(body) }),
    });
  return {
    name: 'SMSC simulator',
    host: '127.0.0.1',
    port,
    systemId: SYSTEM_ID,
    password: PASSWORD,
    controlUrl: control,
    pid: child.pid,
    bindUrl: bindUrl('127.0.0.1', port),
    holdBinds: (hold) => post('/refuse-binds', { refuse: hold }),
    dropBinds: () => post('/stop-binds'),
    stats: () => json(`${control}/stats`),
    submits: () => json(`${control}/submits`),
    // Reset also stops refusing binds, as the simulator starts.
    reset: () => post('/reset'),
    stop: child.stop,
  };
}

/**
 * An independent SMSC: jsmpp (infra/jsmpp-smsc, Java) through `startJsmppSmsc` of @msg/testing.
 * Its control API refuses binds but cannot drop a bound session, so the connector reaches it
 * through a bind gate (bind-gate.mjs) that can; the raw floor connects directly. Resolves to
 * `{ missing }` when it cannot run here (no helper in this checkout, no java, no jar and no mvn).
 */
export async function startJsmpp({ receiptDelayMs = 100 } = {}) {
  const testing = await import('@msg/testing');
  if (typeof testing.startJsmppSmsc !== 'function')
    return { missing: 'no startJsmppSmsc in @msg/testing' };
  const missing = testing.jsmppSmscMissing();
  if (missing) return { missing };
  const smsc = await testing.startJsmppSmsc({
    systemId: SYSTEM_ID,
    password: PASSWORD,
    receiptDelayMs,
    keepSubmits: 100_000,
  });
  const gate = await startBindGate({ host: '127.0.0.1', port: smsc.port });
  const control = smsc.controlUrl;
  const iso = (ms) => (ms ? new Date(ms).toISOString() : null);
  return {
    name: 'jsmpp SMSC',
    host: '127.0.0.1',
    port: smsc.port,
    systemId: SYSTEM_ID,
    password: PASSWORD,
    controlUrl: control,
    pid: smsc.pid,
    bindUrl: bindUrl('127.0.0.1', gate.port),
    holdBinds: async (hold) => gate.hold(hold),
    dropBinds: async () => gate.drop(),
    async stats() {
      const stats = await json(`${control}/stats`);
      return {
        submits: stats.submits,
        firstSubmitAt: iso(stats.firstSubmitMs),
        lastSubmitAt: iso(stats.lastSubmitMs),
        receipts: stats.receipts,
      };
    },
    submits: async () =>
      (await json(`${control}/submits?last=100000`)).map((s) => ({
        ...s,
        receivedAt: new Date(s.atMs).toISOString(),
      })),
    // As the simulator's reset: binds are let through again.
    async reset() {
      gate.hold(false);
      await json(`${control}/reset`, { method: 'POST' });
    },
    async stop() {
      await gate.close();
      await smsc.stop();
    },
  };
}

export const SMSCS = { simulator: startSimulator, jsmpp: startJsmpp };
