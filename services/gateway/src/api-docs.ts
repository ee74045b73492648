import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openapiDocumentPath } from '@msg/contracts';
import { type ServedDocument, apiDocsRouter as swaggerUiRouter } from '@msg/http/api-docs';
import type { Router } from 'express';
import { eventDocsRouter } from './event-docs.js';

/** The folder of the public OpenAPI documents of @msg/contracts (internal ones are below it). */
export function contractsOpenapiDir(): string {
  return dirname(openapiDocumentPath('gateway'));
}

/**
 * Every public document in `dir`, by name, as it is on disk. Read once at start-up. The internal
 * documents (`internal/`) are not published at the edge: the gateway routes none of their paths.
 */
export function listApiDocuments(dir: string = contractsOpenapiDir()): ServedDocument[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => ({ name: basename(file, '.yaml'), yaml: readFileSync(join(dir, file), 'utf8') }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * `/docs/`: Swagger UI with a drop-down of every public document; `/docs/openapi/<name>.yaml`: the
 * raw document; `/docs/events/`: the AsyncAPI document of the Kafka topics (event-docs.ts).
 */
export function apiDocsRouter(documents: readonly ServedDocument[]): Router {
  return swaggerUiRouter(documents, {
    title: 'Messaging API',
    // The way from the HTTP APIs to the events, in Swagger UI's top bar.
    customJs: './events/link.js',
    before: eventDocsRouter(),
  });
}
