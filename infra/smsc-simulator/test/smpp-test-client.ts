import smpp from 'smpp';

/**
 * The ESME side of the tests, built on the same `smpp` package real clients use. It answers every
 * deliver_sm with deliver_sm_resp OK (unless told not to) and keeps them for the test to read.
 */
export interface TestClient {
  session: smpp.Session;
  /** Every deliver_sm received, oldest first. */
  delivered: smpp.Pdu[];
  request(command: string, fields?: smpp.PduFields): Promise<smpp.Pdu>;
  bind(
    mode: 'transceiver' | 'transmitter' | 'receiver',
    systemId?: string,
    password?: string,
  ): Promise<smpp.Pdu>;
  /** Resolves once `count` deliver_sm have arrived in total; rejects after timeoutMs. */
  waitForDelivered(count: number, timeoutMs?: number): Promise<smpp.Pdu[]>;
  /** Resolves when the server closes the connection; rejects after timeoutMs. */
  waitForClose(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const STEP_TIMEOUT_MS = 3000;

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms: ${what}`)),
      timeoutMs,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface ClientOptions {
  /** false: keep deliver_sm unanswered, like a client that dies before acknowledging. */
  acknowledge?: boolean;
}

export async function connectClient(
  port: number,
  { acknowledge = true }: ClientOptions = {},
): Promise<TestClient> {
  let closed = false;
  const session = await withTimeout(
    new Promise<smpp.Session>((resolve, reject) => {
      const created = smpp.connect({ host: '127.0.0.1', port }, () => resolve(created));
      created.on('error', reject);
    }),
    STEP_TIMEOUT_MS,
    'connect',
  );
  const delivered: smpp.Pdu[] = [];
  const closeWaiters: Array<() => void> = [];
  let changed: () => void = () => {};
  session.on('deliver_sm', (pdu) => {
    delivered.push(pdu);
    if (acknowledge) session.send(pdu.response());
    changed();
  });
  session.on('close', () => {
    closed = true;
    for (const waiter of closeWaiters) waiter();
  });
  session.on('error', () => {});

  const request = (command: string, fields: smpp.PduFields = {}) =>
    withTimeout(
      new Promise<smpp.Pdu>((resolve) => {
        session.send(new smpp.PDU(command, fields), resolve);
      }),
      STEP_TIMEOUT_MS,
      command,
    );

  return {
    session,
    delivered,
    request,
    bind: (mode, systemId = 'smsc', password = 'smsc') =>
      request(`bind_${mode}`, { system_id: systemId, password }),
    waitForDelivered(count, timeoutMs = STEP_TIMEOUT_MS) {
      return withTimeout(
        new Promise<smpp.Pdu[]>((resolve) => {
          const check = () => {
            if (delivered.length >= count) resolve(delivered.slice());
          };
          changed = check;
          check();
        }),
        timeoutMs,
        `${count} deliver_sm`,
      );
    },
    waitForClose(timeoutMs = STEP_TIMEOUT_MS) {
      return withTimeout(
        new Promise<void>((resolve) => {
          if (closed) resolve();
          else closeWaiters.push(resolve);
        }),
        timeoutMs,
        'connection close',
      );
    },
    close() {
      if (closed) return Promise.resolve();
      return new Promise((resolve) => session.destroy(() => resolve()));
    },
  };
}

/** A submit_sm to a Swedish mobile with the usual TON/NPI, overridable per test. */
export function submitFields(fields: smpp.PduFields): smpp.PduFields {
  return {
    source_addr_ton: 5,
    source_addr_npi: 0,
    source_addr: 'Acme',
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: '46701234567',
    registered_delivery: 0,
    data_coding: 0,
    ...fields,
  };
}

export async function control(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
    ...(body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  });
  const text = await response.text();
  return { status: response.status, body: text.length > 0 ? JSON.parse(text) : undefined };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The text the `smpp` package decoded from a deliver_sm's short_message. */
export function messageText(pdu: smpp.Pdu | undefined): string {
  const value = pdu?.short_message;
  if (typeof value === 'object' && value !== null && 'message' in value)
    return String(value.message);
  return String(value);
}
