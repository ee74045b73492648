import { type OpenApiDocumentName, openapiDocumentPath, readOpenApiDocument } from '@msg/contracts';
import { describe, expect, it } from 'vitest';
import { postsTakingIdempotencyKey } from './idempotency.js';

const DOCUMENTS: OpenApiDocumentName[] = [
  'admin',
  'batch',
  'gateway',
  'lookup-legacy',
  'numbers',
  'sms',
];

/**
 * POSTs that must not take Idempotency-Key: their answer carries a secret (a bearer token, a new
 * API key) that storing it for replay would keep in clear at rest.
 */
const EXEMPT = [
  'batch POST /v1/oauth/token',
  'admin POST /internal/v1/accounts',
  'admin POST /internal/v1/accounts/{account}/api-keys',
];

describe('postsTakingIdempotencyKey', () => {
  it('when every interface document is read, then every POST takes Idempotency-Key but the exempt ones', () => {
    const without: string[] = [];
    let keyed = 0;
    for (const name of DOCUMENTS) {
      const document = readOpenApiDocument(openapiDocumentPath(name));
      const taking = postsTakingIdempotencyKey(document);
      keyed += taking.size;
      for (const [route, pathItem] of Object.entries(document.paths)) {
        if (pathItem.post && !taking.has(route)) without.push(`${name} POST ${route}`);
      }
    }
    expect(without.sort()).toEqual([...EXEMPT].sort());
    expect(keyed).toBe(6);
  });
});
