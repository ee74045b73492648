import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from '@msg/logger';

export interface WebhookTarget {
  url: string;
  clientToken: string;
}

export interface PushStats {
  handshakes: number;
  handshakeFailures: number;
  pushed: number;
  pushRetries: number;
  pushFailures: number;
}

export interface PushOutcome {
  pushed: boolean;
  /** Last HTTP status from the webhook, 0 when unreachable or no webhook. */
  status: number;
}

export interface WebhookPusher {
  setTarget(target: WebhookTarget | undefined): void;
  target(): WebhookTarget | undefined;
  /** Handshakes if needed, then posts the event signed; retries with backoff. */
  push(event: Record<string, unknown>): Promise<PushOutcome>;
  stats(): PushStats;
  reset(): void;
}

export interface PusherOptions {
  logger: Logger;
  attempts: number;
  retryBaseMs: number;
  timeoutMs: number;
  subscription: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Delivers user events as RBM does: a one-time set-up handshake `{clientToken, secret}` that
 * the webhook must answer 200 with the secret in its body, then Pub/Sub-style envelopes
 * `{message: {data, messageId, publishTime}, subscription}` with X-Goog-Signature =
 * base64(HMAC-SHA512(clientToken, decoded data)).
 */
export function createWebhookPusher(options: PusherOptions): WebhookPusher {
  let current: WebhookTarget | undefined;
  let verified: Promise<boolean> | undefined;
  const counts: PushStats = {
    handshakes: 0,
    handshakeFailures: 0,
    pushed: 0,
    pushRetries: 0,
    pushFailures: 0,
  };

  async function post(url: string, body: string, headers: Record<string, string> = {}) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    return { status: response.status, text: await response.text() };
  }

  async function handshake(target: WebhookTarget): Promise<boolean> {
    const secret = randomBytes(16).toString('hex');
    try {
      const answer = await post(
        target.url,
        JSON.stringify({ clientToken: target.clientToken, secret }),
      );
      const ok = answer.status === 200 && answer.text.includes(secret);
      counts[ok ? 'handshakes' : 'handshakeFailures'] += 1;
      if (!ok) options.logger.warn('rbm webhook handshake refused', { status: answer.status });
      return ok;
    } catch (error) {
      counts.handshakeFailures += 1;
      options.logger.warn('rbm webhook handshake failed', { error: String(error) });
      return false;
    }
  }

  function ensureVerified(target: WebhookTarget): Promise<boolean> {
    verified ??= handshake(target).then((ok) => {
      if (!ok) verified = undefined; // try the handshake again on the next push
      return ok;
    });
    return verified;
  }

  return {
    setTarget(target) {
      current = target;
      verified = undefined;
    },
    target: () => current,
    async push(event) {
      const target = current;
      if (!target) return { pushed: false, status: 0 };
      const data = Buffer.from(JSON.stringify(event));
      const body = JSON.stringify({
        message: {
          data: data.toString('base64'),
          messageId: randomUUID(),
          publishTime: new Date().toISOString(),
        },
        subscription: options.subscription,
      });
      const signature = createHmac('sha512', target.clientToken).update(data).digest('base64');
      let status = 0;
      for (let attempt = 0; attempt < options.attempts; attempt += 1) {
        if (attempt > 0) {
          counts.pushRetries += 1;
          await sleep(options.retryBaseMs * 2 ** (attempt - 1));
        }
        if (!(await ensureVerified(target))) continue;
        try {
          status = (await post(target.url, body, { 'x-goog-signature': signature })).status;
        } catch {
          status = 0;
        }
        if (status >= 200 && status < 300) {
          counts.pushed += 1;
          return { pushed: true, status };
        }
      }
      counts.pushFailures += 1;
      options.logger.warn('rbm push gave up', { status });
      return { pushed: false, status };
    },
    stats: () => ({ ...counts }),
    reset() {
      for (const key of Object.keys(counts) as (keyof PushStats)[]) counts[key] = 0;
    },
  };
}
