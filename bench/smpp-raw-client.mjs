// The floor of the SMPP benchmarks: a bare client on the `smpp` package (the library the connector
// uses), one transceiver bind, `window` submit_sm outstanding at most, each asking for a receipt
// and each receipt deliver_sm answered at once. No storage, no bus: the library's own speed.
import smpp from 'smpp';

function bound(smsc) {
  return new Promise((resolve, reject) => {
    const session = smpp.connect({ host: smsc.host, port: smsc.port });
    session.on('error', reject);
    session.on('connect', () =>
      session.bind_transceiver({ system_id: smsc.systemId, password: smsc.password }, (pdu) =>
        pdu.command_status === 0
          ? resolve(session)
          : reject(new Error(`bind refused: ${pdu.command_status}`)),
      ),
    );
  });
}

/**
 * Submits `count` messages (to `${prefix}` + a counter) through one bind with `window`
 * outstanding, and resolves once every submit is answered and every receipt arrived (or
 * `maxSeconds` passed). Returns what it saw; the benchmark times the run at the SMSC.
 */
export async function submitRaw(smsc, { count, window, prefix, maxSeconds = 120 }) {
  const session = await bound(smsc);
  let next = 0;
  let answered = 0;
  let refused = 0;
  let receipts = 0;
  const deadline = Date.now() + maxSeconds * 1000;
  let finish;
  const done = new Promise((resolve) => {
    finish = resolve;
  });
  const check = () => {
    if ((answered === count && receipts >= count - refused) || Date.now() > deadline) finish();
  };
  session.on('deliver_sm', (pdu) => {
    session.send(pdu.response());
    receipts += 1;
    check();
  });
  const submitOne = () => {
    if (next >= count || Date.now() > deadline) return;
    next += 1;
    session.submit_sm(
      {
        source_addr: 'BENCH',
        destination_addr: `${prefix}${String(next).padStart(6, '0')}`,
        registered_delivery: 1,
        short_message: 'Benchmark message',
      },
      (pdu) => {
        answered += 1;
        if (pdu.command_status !== 0) refused += 1;
        submitOne();
        check();
      },
    );
  };
  for (let i = 0; i < window; i++) submitOne();
  const timer = setInterval(check, 1000);
  await done;
  clearInterval(timer);
  const receiptsDoneAt = Date.now();
  await new Promise((resolve) => session.unbind(() => resolve()));
  session.close();
  return { answered, refused, receipts, receiptsDoneAt };
}
