import express, { type RequestHandler, type Router } from 'express';
import swaggerUi from 'swagger-ui-express';

/** An OpenAPI document as a docs page serves it. */
export interface ServedDocument {
  /** File name without `.yaml`: the drop-down entry and `openapi/<name>.yaml`. */
  name: string;
  /** The document, YAML, read once at start-up. */
  yaml: string;
}

export interface ApiDocsOptions {
  /** The page's title. */
  title: string;
  /** A script the page runs, relative to it (the gateway's link to its event docs). */
  customJs?: string;
  /** Mounted before the UI, for pages of the docs' own (the gateway's `/docs/events/`). */
  before?: RequestHandler;
}

const UI_ASSET = /^\/(|[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.(js|css|png|map))$/;

/**
 * Swagger UI with a drop-down of `documents` (mount it at `/docs`): `/docs/` the page,
 * `/docs/openapi/<name>.yaml` each document. URLs are relative so the page also works behind a
 * path prefix. The gateway serves the public documents with it, the admin service the internal
 * ones.
 */
export function apiDocsRouter(
  documents: readonly ServedDocument[],
  options: ApiDocsOptions,
): Router {
  const router = express.Router({ strict: true });
  const byFile = new Map(documents.map((doc) => [`${doc.name}.yaml`, doc.yaml]));

  router.get('/openapi/:file', (req, res, next) => {
    const yaml = byFile.get(req.params.file);
    if (yaml === undefined) return next();
    res.type('application/yaml; charset=utf-8').send(yaml);
  });

  if (options.before) router.use(options.before);

  const ui: swaggerUi.SwaggerUiOptions = {
    customSiteTitle: options.title,
    ...(options.customJs && { customJs: options.customJs }),
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
  router.use('/', swaggerUi.serveFiles(undefined, ui));
  router.get('/', swaggerUi.setup(undefined, ui));
  return router;
}
