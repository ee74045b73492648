import type { Logger } from '@msg/logger';
import got from 'got';

export const HLR_STATES = [
  'reachable',
  'absent',
  'barred',
  'unknown_subscriber',
  'not_provisioned',
] as const;
export type HlrState = (typeof HLR_STATES)[number];

/** One answer of the network. */
export interface HlrAnswer {
  state: HlrState;
  /** When the network answered (the provider's checked_at). */
  checkedAt: Date;
  imsi?: string;
  mcc?: string;
  mnc?: string;
  network?: string;
}

/** `unavailable` when the provider could not answer (503, 401, timeout, network error, junk). */
export type HlrResult = HlrAnswer | 'unavailable';

export interface HlrClient {
  query(digits: string): Promise<HlrResult>;
}

export interface HlrClientOptions {
  url: string;
  username: string;
  password: string;
  timeoutMs: number;
  logger: Logger;
}

function isState(value: unknown): value is HlrState {
  return typeof value === 'string' && (HLR_STATES as readonly string[]).includes(value);
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Reads the provider's 200 body; null when it is not one. */
export function parseHlrAnswer(body: unknown): HlrAnswer | null {
  if (typeof body !== 'object' || body === null) return null;
  const status: unknown = Reflect.get(body, 'status');
  const checkedAt: unknown = Reflect.get(body, 'checked_at');
  if (!isState(status) || typeof checkedAt !== 'string' || Number.isNaN(Date.parse(checkedAt))) {
    return null;
  }
  const answer: HlrAnswer = { state: status, checkedAt: new Date(checkedAt) };
  const imsi = optionalString(Reflect.get(body, 'imsi'));
  const mcc = optionalString(Reflect.get(body, 'mcc'));
  const mnc = optionalString(Reflect.get(body, 'mnc'));
  const network = optionalString(Reflect.get(body, 'network'));
  if (imsi) answer.imsi = imsi;
  if (mcc) answer.mcc = mcc;
  if (mnc) answer.mnc = mnc;
  if (network) answer.network = network;
  return answer;
}

/**
 * The HLR provider adapter: `GET {url}/v1/hlr/{digits}` with HTTP Basic. One attempt, bounded by
 * `timeoutMs`: a live status is worth little late, and the caller answers `unavailable` instead.
 */
export function createHlrClient(options: HlrClientOptions): HlrClient {
  const base = options.url.replace(/\/+$/, '');
  const authorization = `Basic ${Buffer.from(`${options.username}:${options.password}`).toString('base64')}`;
  return {
    async query(digits) {
      try {
        const res = await got(`${base}/v1/hlr/${digits}`, {
          headers: { authorization, accept: 'application/json' },
          throwHttpErrors: false,
          retry: { limit: 0 },
          timeout: { request: options.timeoutMs },
          responseType: 'json',
        });
        if (res.statusCode === 200) {
          const answer = parseHlrAnswer(res.body);
          if (answer) return answer;
          options.logger.warn('hlr answer malformed');
          return 'unavailable';
        }
        if (res.statusCode === 401) options.logger.error('hlr refused our credentials');
        else options.logger.warn('hlr unavailable', { status: res.statusCode });
        return 'unavailable';
      } catch (error) {
        options.logger.warn('hlr unreachable', {
          code: error instanceof Error && 'code' in error ? String(error.code) : undefined,
        });
        return 'unavailable';
      }
    },
  };
}

/** Without a configured provider every live status is unavailable. */
export const noHlr: HlrClient = { query: async () => 'unavailable' };
