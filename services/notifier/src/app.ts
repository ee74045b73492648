import { internalDocumentPath, openapiDocumentPath } from '@msg/contracts';
import { createService, jsonErrorFormat, type KitHttpOptions } from '@msg/http';
import type { RequestHandler } from 'express';
import { getCallbackSigningSecret } from './operations/getCallbackSigningSecret.js';
import { rotateCallbackSigningSecret } from './operations/rotateCallbackSigningSecret.js';
import { signCallback } from './operations/signCallback.js';
import type { SigningSecretStore } from './signing/signing-secrets.js';

export interface NotifierAppDeps {
  secrets: SigningSecretStore;
  /** How long a rotated secret keeps signing when the rotation names no period. */
  secretGraceMs: number;
  /** The document's basicAuth: authentication, account guards and rate limit (service.ts). */
  basicAuth: RequestHandler;
  /** The internal document's internalBearer: NOTIFIER_INTERNAL_TOKEN (requireServiceToken). */
  internalBearer: RequestHandler;
  /** The kit's part of createService (ServiceContext.http of @msg/service-kit). */
  http: KitHttpOptions;
}

/** A rotation body is one optional integer; a body to sign is at most 16 KiB of text, escaped. */
const BODY_LIMIT = '128kb';

/**
 * The notifier's HTTP app: the callback signing interface (packages/contracts/openapi/
 * callbacks.yaml) and the internal signing of callbacks other services send themselves
 * (openapi/internal/notifier.yaml) beside /healthz, /readyz and /metrics. Never listens.
 */
export function createApp(deps: NotifierAppDeps) {
  return createService({
    ...deps.http,
    name: 'notifier',
    openapiPath: openapiDocumentPath('callbacks'),
    internalOpenapiPath: internalDocumentPath('notifier'),
    errorFormat: jsonErrorFormat,
    bodyLimit: BODY_LIMIT,
    authenticators: { basicAuth: deps.basicAuth, internalBearer: deps.internalBearer },
    routes: (app) => {
      app.get('/v1/callbacks/signing-secret', getCallbackSigningSecret(deps.secrets));
      app.post(
        '/v1/callbacks/signing-secret/rotate',
        rotateCallbackSigningSecret(deps.secrets, deps.secretGraceMs),
      );
      app.post('/internal/v1/signatures', signCallback(deps.secrets));
    },
  });
}
