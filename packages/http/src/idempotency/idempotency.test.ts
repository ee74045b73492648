import {
  internalDocumentPath,
  isInternalDocumentName,
  OPENAPI_DOCUMENTS,
  type OpenApiDocument,
  openapiDocumentPath,
  readOpenApiDocument,
  readServiceDocument,
} from '@msg/contracts';
import { describe, expect, it } from 'vitest';
import { postsTakingIdempotencyKey } from './idempotency.js';

/** The document each service validates against: public and internal operations together. */
const DOCUMENTS: [string, OpenApiDocument][] = [
  ...OPENAPI_DOCUMENTS.map((name): [string, OpenApiDocument] => [
    name,
    readServiceDocument(
      openapiDocumentPath(name),
      isInternalDocumentName(name)
        ? internalDocumentPath(name)
        : // The notifier serves the callbacks interface and its own internal document.
          name === 'callbacks'
          ? internalDocumentPath('notifier')
          : undefined,
    ),
  ]),
  ['admin', readOpenApiDocument(internalDocumentPath('admin'))],
];

/**
 * POSTs that do not take Idempotency-Key. Most because their answer carries a secret (a bearer
 * token, a new API key) that storing it for replay would keep in clear at rest; admin's debits
 * because each is already idempotent by the `reference` its caller sends; adding pool numbers
 * because adding a number twice changes nothing; the deprecated legacy reply-path because its
 * contract (spec 4.4) is frozen, and the internal send it makes because that service never
 * retries it (a retry could send twice) and has no key of its caller's to pass on.
 */
const EXEMPT = [
  'batch POST /v1/oauth/token',
  'admin POST /internal/v1/accounts',
  'admin POST /internal/v1/accounts/{account}/api-keys',
  'admin POST /internal/v1/accounts/{account}/debits',
  'replypath POST /internal/v1/pool/numbers',
  'replypath POST /internal/v1/sendsms',
  'replypath-legacy POST /v1/replypath/sendsms',
  // Rotating the callback signing secret answers the new secret (kept out of the replay store,
  // like every answer carrying a secret); a retried rotation leaves a valid current secret.
  'callbacks POST /v1/callbacks/signing-secret/rotate',
  // A signature is made for one attempt (a new webhook-id and timestamp each time): a retried
  // call simply signs again.
  'callbacks POST /internal/v1/signatures',
  // rcs. RBM's push is deduplicated by the push's own message id (RBM sends no key); adding a
  // tester is idempotent by (agent_id, phone_number) (again: 200, current status); creating a
  // webhook and regenerating its secret answer a secret; disable, enable and test repeat
  // harmlessly; agents are the operator's (a second create is 409). The send takes a key.
  'rcs POST /rcs/v1/rbm/events',
  'rcs POST /rcs/v1/testers',
  'rcs POST /v1/webhooks',
  'rcs POST /v1/webhooks/{webhook_id}/regenerate-secret',
  'rcs POST /v1/webhooks/{webhook_id}/disable',
  'rcs POST /v1/webhooks/{webhook_id}/enable',
  'rcs POST /v1/webhooks/{webhook_id}/test',
  'rcs POST /internal/v1/agents',
];

describe('postsTakingIdempotencyKey', () => {
  it('when every interface document is read, then every POST takes Idempotency-Key but the exempt ones', () => {
    const without: string[] = [];
    let keyed = 0;
    for (const [name, document] of DOCUMENTS) {
      const taking = postsTakingIdempotencyKey(document);
      keyed += taking.size;
      for (const [route, pathItem] of Object.entries(document.paths)) {
        if (pathItem.post && !taking.has(route)) without.push(`${name} POST ${route}`);
      }
    }
    expect(without.sort()).toEqual([...EXEMPT].sort());
    // sms send, batch create and cancel, replypath send, voice send, rcs send, admin republish
    // (accounts and protected senders), disable, enable, top-ups.
    expect(keyed).toBe(11);
  });
});
