import { listenLocal } from '@msg/testing';
import express from 'express';

export const NUMBERS_TOKEN = 'internal-token-for-tests';

/** A request the fake received. */
export interface SeenRequest {
  digits: string;
  aspects: string | undefined;
  authorization: string | undefined;
}

/** What the fake answers for one number: a body (200) or a bare status. */
export type FakeAnswer = { body: unknown } | { status: number };

/** The base answer of a Swedish Telia mobile number, shaped as spec 2.7 and the internal API. */
export function numbersBase(digits: string) {
  return {
    number: { e164: digits, country: 'SE', type: 'mobile' },
    network: {
      service_provider: {
        id: '001',
        id_scheme: 'snpac_spid',
        name: 'Telia Sverige AB',
        brands: ['Telia', 'Halebop'],
      },
      host_network: { mcc: '240', mnc: '01', name: 'Telia' },
    },
    portability: { ported: false },
    findings: [],
    source: {
      basis: 'portability_registry',
      as_of: '2026-11-22T00:00:00.000Z',
      valid_until: '2026-11-23T00:00:00.000Z',
    },
  };
}

/** The live part as the numbers service adds it for basic/advanced. */
export function liveAspects(state: string, imsi = '240011234567890') {
  return {
    live_status: {
      state,
      checked_at: '2026-11-22T13:00:00.000Z',
      source: { basis: 'live_network', as_of: '2026-11-22T13:00:00.000Z', valid_until: null },
    },
    porting_history: {
      ports: [],
      history_since: '2020-01-01',
      source: {
        basis: 'portability_registry',
        as_of: '2026-11-22T00:00:00.000Z',
        valid_until: null,
      },
    },
    ...(state !== 'unavailable' && { hlr: { imsi, mcc: '240', mnc: '01', network: 'Telia' } }),
  };
}

/**
 * A stand-in for the numbers service's internal API on 127.0.0.1: Bearer token checked, answers
 * set per number (default: a reachable Telia mobile, live parts only when aspects are asked).
 */
export async function startFakeNumbers() {
  const answers = new Map<string, FakeAnswer>();
  const seen: SeenRequest[] = [];
  const app = express();
  app.get('/internal/v1/numbers/:digits', (req, res) => {
    const { digits } = req.params;
    const aspects = typeof req.query.aspects === 'string' ? req.query.aspects : undefined;
    seen.push({ digits, aspects, authorization: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${NUMBERS_TOKEN}`) {
      res.status(401).json({ code: 'UNAUTHORIZED', message: 'bad token' });
      return;
    }
    const answer = answers.get(digits);
    if (answer && 'status' in answer) {
      res.status(answer.status).json({ code: 'FAILED', message: 'set by the test' });
      return;
    }
    if (answer) {
      res.json(answer.body);
      return;
    }
    res.json({
      base: numbersBase(digits),
      ...(aspects?.includes('live_status') && liveAspects('reachable')),
    });
  });
  const server = await listenLocal(app);
  return {
    url: server.url,
    seen,
    answer(digits: string, answer: FakeAnswer) {
      answers.set(digits, answer);
    },
    reset() {
      answers.clear();
      seen.length = 0;
    },
    close: server.close,
  };
}

export type FakeNumbers = Awaited<ReturnType<typeof startFakeNumbers>>;
