// A TCP pass-through in front of an SMSC that can close: `drop()` closes every connection through
// it, `hold(true)` refuses new ones (after dropping those open), `hold(false)` lets them through. For an SMSC whose control
// API cannot drop a bound session, so a benchmark can still make the connector lose its bind,
// pile up a backlog and then let it bind again.
import net from 'node:net';

export async function startBindGate(upstream) {
  const sockets = new Set();
  let holding = false;
  const server = net.createServer((client) => {
    if (holding) {
      client.destroy();
      return;
    }
    const smsc = net.connect(upstream);
    // Each PDU should go out at once, as on a direct connection.
    client.setNoDelay(true);
    smsc.setNoDelay(true);
    for (const [from, to] of [
      [client, smsc],
      [smsc, client],
    ]) {
      sockets.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    drop() {
      for (const socket of sockets) socket.destroy();
    },
    hold(hold) {
      holding = hold;
      if (hold) for (const socket of sockets) socket.destroy();
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
