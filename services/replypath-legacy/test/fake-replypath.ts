import { randomUUID } from 'node:crypto';
import { listenLocal } from '@msg/testing';
import express from 'express';

export const REPLYPATH_TOKEN = 'internal-token-for-tests';

/** A send the fake received: its body and its Authorization header. */
export interface SeenSend {
  body: Record<string, unknown>;
  authorization: string | undefined;
}

/** What the fake answers next: a status, a body, headers; or silence for `delayMs`. */
export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** The allocated number every fake send answers with (a fiction/test range). */
export const ORIGINATOR = '+46700000100';

/** +46…: what the replypath service normalises a Swedish recipient to (rule of 4.3, simplified). */
function e164(recipient: string): string {
  const digits = recipient.replace(/\D/g, '');
  if (recipient.trim().startsWith('+')) return `+${digits}`;
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  return `+46${digits.slice(1)}`;
}

/**
 * A stand-in for the replypath service's internal send API on 127.0.0.1, as the shared contract
 * of issue 12 describes it: Bearer token checked (401 otherwise), JSON body, 200 with one result
 * per recipient (comma or semicolon separated) unless the test queued another answer.
 */
export async function startFakeReplypath() {
  const queued: FakeAnswer[] = [];
  const seen: SeenSend[] = [];
  const app = express();
  app.post('/internal/v1/sendsms', express.json(), async (req, res) => {
    if (req.headers.authorization !== `Bearer ${REPLYPATH_TOKEN}`) {
      res.status(401).json({ code: 'UNAUTHORIZED', message: 'bad token' });
      return;
    }
    const body = req.body as Record<string, unknown>;
    seen.push({ body, authorization: req.headers.authorization });
    const answer = queued.shift();
    if (answer) {
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      res.status(answer.status).set(answer.headers ?? {});
      if (typeof answer.body === 'string') res.type('text/plain').send(answer.body);
      else res.json(answer.body ?? {});
      return;
    }
    const recipients = String(body.To)
      .split(/[,;]/)
      .filter((r) => r.trim() !== '');
    res.json({
      results: recipients.map((r) => ({
        DestinationAddress: e164(r),
        OriginatorAddress: ORIGINATOR,
        TransactionId: randomUUID(),
      })),
    });
  });
  const server = await listenLocal(app);
  return {
    url: server.url,
    seen,
    /** The next send gets this answer (queued in order). */
    answerNext(answer: FakeAnswer) {
      queued.push(answer);
    },
    reset() {
      queued.length = 0;
      seen.length = 0;
    },
    close: server.close,
  };
}

export type FakeReplypath = Awaited<ReturnType<typeof startFakeReplypath>>;
