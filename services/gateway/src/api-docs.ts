import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { openapiDocumentPath } from '@msg/contracts';
import express, { type Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { eventDocsRouter } from './event-docs.js';

export interface ApiDocument {
  /** File name without `.yaml`, e.g. 'batch'. */
  name: string;
  file: string;
}

/**
 * Documents of internal interfaces: shipped in @msg/contracts like the others, but not published
 * at the edge (the gateway does not route to them either).
 */
const INTERNAL_DOCUMENTS = new Set(['admin']);

const UI_ASSET = /^\/(|[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.(js|css|png|map))$/;

/** The folder holding every OpenAPI document of @msg/contracts. */
export function contractsOpenapiDir(): string {
  return dirname(openapiDocumentPath('gateway'));
}

/** Every public OpenAPI document in `dir`, by name. Read once at start-up. */
export function listApiDocuments(dir: string = contractsOpenapiDir()): ApiDocument[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => ({ name: basename(file, '.yaml'), file: join(dir, file) }))
    .filter((doc) => !INTERNAL_DOCUMENTS.has(doc.name))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * `/docs/`: Swagger UI with a drop-down of every document; `/docs/openapi/<name>.yaml`: the raw
 * document; `/docs/events/`: the AsyncAPI document of the Kafka topics (event-docs.ts). URLs are
 * relative so the docs also work behind a path prefix.
 */
export function apiDocsRouter(documents: readonly ApiDocument[]): Router {
  const router = express.Router({ strict: true });
  const byFile = new Map(documents.map((doc) => [`${doc.name}.yaml`, doc.file]));

  router.get('/openapi/:file', (req, res, next) => {
    const file = byFile.get(req.params.file);
    if (!file) return next();
    res.type('application/yaml; charset=utf-8');
    res.sendFile(file);
  });

  router.use(eventDocsRouter());

  const options: swaggerUi.SwaggerUiOptions = {
    customSiteTitle: 'Messaging API',
    // The way from the HTTP APIs to the events, in Swagger UI's top bar.
    customJs: './events/link.js',
    explorer: true,
    swaggerOptions: {
      urls: documents.map((doc) => ({ url: `./openapi/${doc.name}.yaml`, name: doc.name })),
    },
  };
  // The UI's assets are relative to the page, so the page must be /docs/, not /docs.
  router.get('/', (req, res, next) => {
    if (!req.originalUrl.split('?')[0]?.endsWith('/')) return res.redirect(301, `${req.baseUrl}/`);
    next();
  });
  // Only the UI's own assets (flat file names) come from swagger-ui-dist; not its demo
  // index.html or package.json, not anything an encoded slash would reach.
  router.use((req, _res, next) => next(UI_ASSET.test(req.path) ? undefined : 'router'));
  // serveFiles, not serve: serve shares one init script across every app in the process.
  router.use('/', swaggerUi.serveFiles(undefined, options));
  router.get('/', swaggerUi.setup(undefined, options));
  return router;
}
