import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessLog,
  type Listening,
  listen,
  open,
  type RunningGateway,
  startTestGateway,
} from './support.js';

/**
 * RBM pushes user events to POST /rcs/v1/rbm/events with X-Goog-Signature, the base64
 * HMAC-SHA512 of the decoded data: the rcs service checks it over the body it receives, so the
 * gateway must pass the push without client credentials and the body byte for byte.
 */
describe('the RBM push path /rcs/v1/rbm/events', () => {
  const seen: { url: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
  let rcs: Listening;
  let gateway: RunningGateway;

  beforeAll(async () => {
    rcs = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    gateway = await startTestGateway({ UPSTREAM_RCS: rcs.url });
  });

  afterAll(async () => {
    await gateway.close();
    await rcs.close();
  });

  /** A push as RBM sends it, serialised with spacing and escapes a re-encoder would change. */
  const push = () => {
    const event = { senderPhoneNumber: '+46701740605', text: 'Hej då ✓', agentId: 'a' };
    const data = Buffer.from(JSON.stringify(event)).toString('base64');
    const body = Buffer.from(
      `{ "message" : {"data":"${data}", "messageId":"m-1","publishTime":"2026-11-24T12:00:00.123456Z"},\n "subscription":"projects/p/subscriptions/s", "extra": "\\u00e5" }`,
    );
    const signature = createHmac('sha512', 'client-token')
      .update(Buffer.from(data, 'base64'))
      .digest('base64');
    return { body, signature };
  };

  it('when RBM pushes without client credentials, then rcs gets the exact bytes and X-Goog-Signature', async () => {
    const { body, signature } = push();
    seen.length = 0;
    const { req, response } = open(gateway.url, '/rcs/v1/rbm/events', {
      'content-type': 'application/json',
      'content-length': body.length,
      'x-goog-signature': signature,
    });
    req.end(body);
    const { res } = await response;
    expect(res.statusCode).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('/rcs/v1/rbm/events');
    expect(seen[0]?.body.equals(body)).toBe(true);
    expect(seen[0]?.headers['x-goog-signature']).toBe(signature);
    expect(seen[0]?.headers['content-type']).toBe('application/json');
  });

  it('when the push is sent chunked, then rcs still gets the exact bytes', async () => {
    const { body, signature } = push();
    seen.length = 0;
    const { req, response } = open(gateway.url, '/rcs/v1/rbm/events', {
      'content-type': 'application/json',
      'x-goog-signature': signature,
    });
    req.write(body.subarray(0, 7));
    req.end(body.subarray(7));
    const { res } = await response;
    expect(res.statusCode).toBe(200);
    expect(seen[0]?.body.equals(body)).toBe(true);
  });

  it('when a push is logged, then the path is shown, not masked', async () => {
    const log = accessLog(gateway.lines()).filter((line) => line.upstream === 'rcs');
    expect(log.length).toBeGreaterThan(0);
    expect(log.every((line) => line.path === '/rcs/v1/rbm/events')).toBe(true);
  });
});
