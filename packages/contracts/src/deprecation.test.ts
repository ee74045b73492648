import { describe, expect, it } from 'vitest';
import { deprecationHeaders, REPLYPATH_LEGACY_DEPRECATION } from './deprecation.js';
import { openapiDocumentPath, readOpenApiDocument } from './openapi.js';

describe('deprecationHeaders', () => {
  it('when the legacy reply-path deprecation is rendered, then Deprecation is @ and Unix seconds and Link names the successor', () => {
    expect(deprecationHeaders(REPLYPATH_LEGACY_DEPRECATION)).toEqual({
      Deprecation: '@1795478400',
      Link: '</replypath/v1/sendsms>; rel="successor-version"',
    });
  });
});

describe('the legacy reply-path document (spec 9: deprecated)', () => {
  const document = readOpenApiDocument(openapiDocumentPath('replypath-legacy'));
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      where: `${method.toUpperCase()} ${path}`,
      operation: operation as { deprecated?: boolean },
    })),
  );

  it('when its operations are listed, then there are the three forms of 4.4', () => {
    expect(operations.map((o) => o.where).sort()).toEqual([
      'GET /v1/replypath/sendsms',
      'GET /v1/replypath/sendsms/{to}/{msg}',
      'POST /v1/replypath/sendsms',
    ]);
  });

  it.each(operations.map((o) => [o.where, o.operation] as const))(
    'when %s is read, then it is marked deprecated',
    (_where, operation) => {
      expect(operation.deprecated).toBe(true);
    },
  );

  it('when the successor is looked up, then the current reply-path document has it', () => {
    const current = readOpenApiDocument(openapiDocumentPath('replypath'));
    expect(current.paths[REPLYPATH_LEGACY_DEPRECATION.successor]?.post).toBeDefined();
  });
});
