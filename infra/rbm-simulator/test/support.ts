import { createHmac, generateKeyPairSync } from 'node:crypto';
import {
  answerSetupHandshake,
  decodePush,
  parseSetupHandshake,
  type RbmPushEvent,
  SIGNATURE_HEADER,
  verifyPushSignature,
} from '@msg/rbm';
import { listenLocal } from '@msg/testing';

export const CLIENT_TOKEN = 'webhook-client-token';

export function serviceAccountKey(email = 'agent@rbm-sim.iam.gserviceaccount.com') {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    client_email: email,
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/**
 * An agent's webhook built on @msg/rbm: answers the set-up handshake, verifies every push's
 * X-Goog-Signature and keeps the decoded events; a push that fails verification gets 403.
 */
export async function agentWebhook(clientToken = CLIENT_TOKEN) {
  const events: RbmPushEvent[] = [];
  const counts = { handshakes: 0, forged: 0 };
  const server = await listenLocal((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const handshake = parseSetupHandshake(raw);
      if (handshake) {
        counts.handshakes += 1;
        const answer = answerSetupHandshake(handshake, clientToken);
        res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
        return;
      }
      if (!verifyPushSignature(raw, req.headers[SIGNATURE_HEADER], clientToken)) {
        counts.forged += 1;
        res.writeHead(403).end();
        return;
      }
      events.push(decodePush(raw));
      res.writeHead(200).end();
    });
  });
  return { url: `${server.url}/rbm`, events, counts, close: server.close };
}

export async function control(base: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}/control${path}`, {
    method,
    ...(body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** A push signed with the wrong token, as a forger without the client token would send it. */
export function forgedPush(event: unknown) {
  const data = Buffer.from(JSON.stringify(event));
  return {
    body: JSON.stringify({
      message: { data: data.toString('base64'), messageId: 'x' },
      subscription: 's',
    }),
    signature: createHmac('sha512', 'guessed-token').update(data).digest('base64'),
  };
}
