// A small closed-loop HTTP load generator: `concurrency` workers on keep-alive connections send
// `count` requests in total (bounded also by `maxSeconds`) and record each latency. `body`, `url`
// and `headers` may be functions, called per request (all URLs on the same host).
import http from 'node:http';

export async function load({
  url,
  method = 'GET',
  headers = {},
  body,
  count,
  concurrency,
  maxSeconds = 60,
}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(typeof url === 'function' ? url() : url);
  const latencies = [];
  const statuses = new Map();
  let sent = 0;
  const deadline = Date.now() + maxSeconds * 1000;
  const once = () =>
    new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const each = typeof url === 'function' ? new URL(url()) : target;
      const req = http.request(
        {
          agent,
          hostname: target.hostname,
          port: target.port,
          path: each.pathname + each.search,
          method,
          headers: typeof headers === 'function' ? headers() : headers,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(typeof body === 'function' ? body() : body);
    });
  const worker = async () => {
    while (sent < count && Date.now() < deadline) {
      sent += 1;
      await once();
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return {
    requests: latencies.length,
    perSecond: Math.round(latencies.length / seconds),
    p50: pct(50).toFixed(2),
    p99: pct(99).toFixed(2),
    statuses: Object.fromEntries(statuses),
  };
}
