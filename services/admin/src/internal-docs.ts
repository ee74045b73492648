import { INTERNAL_DOCUMENTS, internalDocumentPath, readOpenApiDocument } from '@msg/contracts';
import { apiDocsRouter } from '@msg/http/api-docs';
import type { Router } from 'express';
import { stringify } from 'yaml';

/**
 * `/docs/` on the admin port: Swagger UI of every internal document — admin's own and the
 * `/internal/` operations of rcs, replypath and numbers — for operators. Never at the edge: the
 * gateway publishes the public documents only and routes no `/internal/` path. Each document is
 * served self-contained (the public components it names copied in), so the page needs nothing
 * else.
 */
export function internalDocsRouter(): Router {
  return apiDocsRouter(
    INTERNAL_DOCUMENTS.map((name) => ({
      name,
      yaml: stringify(readOpenApiDocument(internalDocumentPath(name))),
    })),
    { title: 'Messaging platform: internal API' },
  );
}
