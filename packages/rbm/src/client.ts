import { randomUUID } from 'node:crypto';
import got, { type Got, type Method } from 'got';
import {
  type AccessTokenSource,
  GOOGLE_TOKEN_URL,
  type ServiceAccountKey,
  serviceAccountTokenSource,
} from './access-token.js';
import type { AgentMessage, AgentMessageRequest } from './content.js';
import { RbmError, rbmErrorFromResponse, rbmTransportError } from './errors.js';
import { phonePath } from './phone.js';

export const RBM_BASE_URL = 'https://rcsbusinessmessaging.googleapis.com';

export interface RbmClientOptions {
  /** RBM's API root (regional: https://europe-rcsbusinessmessaging.googleapis.com) or a simulator. */
  baseUrl?: string;
  /** Where the service-account assertion is exchanged for a bearer token. */
  tokenUrl?: string;
  /** The agent's service-account key (from the RBM console); or give `tokens`. */
  serviceAccount?: ServiceAccountKey;
  /** A ready token source (tests, or tokens shared between clients). */
  tokens?: AccessTokenSource;
  /** Per-request timeout; default 10 s. */
  timeoutMs?: number;
}

export type Capability =
  | { reachable: true; features: string[] }
  /** RBM answered 404: the number is not RCS-reachable for this agent. */
  | { reachable: false };

export interface Tester {
  name: string;
  /** PENDING until the user accepts on the device, then ACCEPTED (or DECLINED). */
  inviteStatus: string;
}

export type RevokeResult = 'revoked' | 'not_found';

export interface RbmClient {
  /** Sends one agent message; `messageId` is ours and makes the call idempotent on RBM's side. */
  sendMessage(
    agentId: string,
    phone: string,
    messageId: string,
    message: AgentMessageRequest,
  ): Promise<AgentMessage>;
  /** Synchronous capability check; a 404 is an answer (not reachable), not an error. */
  getCapabilities(agentId: string, phone: string, requestId?: string): Promise<Capability>;
  /** Invites the number as a tester of a not yet launched agent. */
  inviteTester(agentId: string, phone: string): Promise<Tester>;
  /** Revokes a message not yet delivered; `not_found` when already delivered or unknown. */
  revokeMessage(agentId: string, phone: string, messageId: string): Promise<RevokeResult>;
}

/** A token endpoint that answered 4xx refused our credentials: retrying will not help. */
function tokenError(cause: unknown): RbmError {
  const status = (cause as { status?: unknown; response?: { status?: unknown } } | undefined)
    ?.response?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return new RbmError(401, 'UNAUTHENTICATED', `RBM token refused: ${detail}`, { cause });
  }
  return rbmTransportError(cause);
}

interface Answer {
  statusCode: number;
  body: string;
}

export function createRbmClient(options: RbmClientOptions): RbmClient {
  const tokens =
    options.tokens ??
    (options.serviceAccount
      ? serviceAccountTokenSource(options.serviceAccount, options.tokenUrl ?? GOOGLE_TOKEN_URL)
      : undefined);
  if (!tokens) throw new TypeError('createRbmClient: give serviceAccount or tokens');
  const http: Got = got.extend({
    prefixUrl: (options.baseUrl ?? RBM_BASE_URL).replace(/\/+$/, ''),
    timeout: { request: options.timeoutMs ?? 10_000 },
    // Retrying is the caller's decision (RbmError.retryable): a blind retry could send twice.
    retry: { limit: 0 },
    throwHttpErrors: false,
  });

  async function call(
    method: Method,
    path: string,
    searchParams: Record<string, string>,
    json?: unknown,
  ): Promise<Answer> {
    const token = await tokens?.token().catch((cause: unknown) => {
      throw tokenError(cause);
    });
    try {
      const response = await http(path, {
        method,
        searchParams,
        headers: { authorization: `Bearer ${token}` },
        ...(json !== undefined && { json }),
      });
      return { statusCode: response.statusCode, body: response.body };
    } catch (cause) {
      throw rbmTransportError(cause);
    }
  }

  function parsed<T>(answer: Answer): T {
    if (answer.statusCode < 200 || answer.statusCode > 299) {
      throw rbmErrorFromResponse(answer.statusCode, answer.body);
    }
    return (answer.body ? JSON.parse(answer.body) : {}) as T;
  }

  return {
    async sendMessage(agentId, phone, messageId, message) {
      const answer = await call(
        'POST',
        `${phonePath(phone)}/agentMessages`,
        { messageId, agentId },
        message,
      );
      return parsed<AgentMessage>(answer);
    },

    async getCapabilities(agentId, phone, requestId = randomUUID()) {
      const answer = await call('GET', `${phonePath(phone)}/capabilities`, { requestId, agentId });
      if (answer.statusCode === 404) return { reachable: false };
      const body = parsed<{ features?: unknown }>(answer);
      const features = Array.isArray(body.features)
        ? body.features.filter((f): f is string => typeof f === 'string')
        : [];
      return { reachable: true, features };
    },

    async inviteTester(agentId, phone) {
      const answer = await call('POST', `${phonePath(phone)}/testers`, { agentId }, {});
      const body = parsed<Partial<Tester>>(answer);
      return {
        name: body.name ?? `phones/${phone}/testers`,
        inviteStatus: body.inviteStatus ?? 'PENDING',
      };
    },

    async revokeMessage(agentId, phone, messageId) {
      const answer = await call(
        'DELETE',
        `${phonePath(phone)}/agentMessages/${encodeURIComponent(messageId)}`,
        { agentId },
      );
      if (answer.statusCode === 404) return 'not_found';
      parsed(answer);
      return 'revoked';
    },
  };
}
