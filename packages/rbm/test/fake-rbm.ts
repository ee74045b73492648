import { generateKeyPairSync } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocal } from '@msg/testing';

export interface Recorded {
  method: string;
  url: URL;
  authorization: string | undefined;
  body: string;
}

export type Handler = (req: Recorded, res: ServerResponse) => void;

/** A throwaway HTTP server that records every request and answers with `handler`. */
export async function fakeServer(handler: Handler) {
  const requests: Recorded[] = [];
  const server = await listenLocal((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: Recorded = {
        method: req.method ?? 'GET',
        url: new URL(req.url ?? '/', 'http://fake'),
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString(),
      };
      requests.push(recorded);
      handler(recorded, res);
    });
  });
  return { url: server.url, requests, close: server.close };
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export function testServiceAccount() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    key: {
      client_email: 'agent@rbm-test.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    },
    publicKey,
  };
}
