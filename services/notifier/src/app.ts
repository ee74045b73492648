import { openapiDocumentPath } from '@msg/contracts';
import { createService, jsonErrorFormat, type ReadinessCheck } from '@msg/http';
import type { Logger } from '@msg/logger';
import type { RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import { getCallbackSigningSecret } from './operations/getCallbackSigningSecret.js';
import { rotateCallbackSigningSecret } from './operations/rotateCallbackSigningSecret.js';
import type { SigningSecretStore } from './signing/signing-secrets.js';

export interface NotifierAppDeps {
  secrets: SigningSecretStore;
  /** How long a rotated secret keeps signing when the rotation names no period. */
  secretGraceMs: number;
  /** The document's basicAuth: authentication, account guards and rate limit (service.ts). */
  basicAuth: RequestHandler;
  logger: Logger;
  metrics?: Registry;
  readiness: ReadinessCheck[];
  trustProxy?: string[];
  validateResponses?: boolean;
}

/** A rotation body is one optional integer. */
const BODY_LIMIT = '1kb';

/**
 * The notifier's HTTP app: the callback signing interface (packages/contracts/openapi/
 * callbacks.yaml) beside /healthz, /readyz and /metrics. Never listens.
 */
export function createApp(deps: NotifierAppDeps) {
  return createService({
    name: 'notifier',
    logger: deps.logger,
    openapiPath: openapiDocumentPath('callbacks'),
    errorFormat: jsonErrorFormat,
    bodyLimit: BODY_LIMIT,
    readiness: deps.readiness,
    ...(deps.metrics && { metrics: deps.metrics }),
    ...(deps.trustProxy && { trustProxy: deps.trustProxy }),
    ...(deps.validateResponses !== undefined && { validateResponses: deps.validateResponses }),
    authenticators: { basicAuth: deps.basicAuth },
    routes: (app) => {
      app.get('/v1/callbacks/signing-secret', getCallbackSigningSecret(deps.secrets));
      app.post(
        '/v1/callbacks/signing-secret/rotate',
        rotateCallbackSigningSecret(deps.secrets, deps.secretGraceMs),
      );
    },
  });
}
