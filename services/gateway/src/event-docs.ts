import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { asyncapiDocumentPath } from '@msg/contracts';
import express, { type Router } from 'express';

/** The AsyncAPI initiative's own renderer, as one browser bundle (React and parser included). */
function rendererFiles() {
  const packageJson = createRequire(import.meta.url).resolve(
    '@asyncapi/react-component/package.json',
  );
  const root = dirname(packageJson);
  return {
    script: join(root, 'browser', 'standalone', 'index.js'),
    styles: join(root, 'styles', 'default.min.css'),
  };
}

const INSTALLED = { dotfiles: 'allow' } as const;

/** The page: the renderer reads the raw document from ../asyncapi/events.yaml, all relative. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Messaging events (AsyncAPI)</title>
  <link rel="stylesheet" href="./asyncapi.css">
</head>
<body>
  <p><a href="../">HTTP APIs (OpenAPI)</a> · <a href="../asyncapi/events.yaml">events.yaml</a></p>
  <div id="asyncapi"></div>
  <script src="./asyncapi.js"></script>
  <script src="./render.js"></script>
</body>
</html>
`;

/** Kept out of the page so that a Content-Security-Policy without inline scripts still works. */
const RENDER = `AsyncApiStandalone.render({
  schema: { url: new URL('../asyncapi/events.yaml', location.href).href },
  config: { show: { sidebar: true } },
}, document.getElementById('asyncapi'));
`;

/** Run by the Swagger UI page (/docs/): a link to the events in its top bar. */
const LINK = `window.addEventListener('load', () => {
  const link = Object.assign(document.createElement('a'), {
    href: './events/', textContent: 'Kafka events (AsyncAPI)', className: 'link',
  });
  document.querySelector('.topbar-wrapper')?.append(link);
});
`;

/**
 * `/docs/events/`: the AsyncAPI document of the Kafka topics (@msg/contracts asyncapi/events.yaml)
 * rendered by @asyncapi/react-component, served from this process (works offline);
 * `/docs/asyncapi/events.yaml`: the raw document.
 */
export function eventDocsRouter(): Router {
  const router = express.Router({ strict: true });
  const files = rendererFiles();
  router.get('/asyncapi/events.yaml', (_req, res) => {
    res.type('application/yaml; charset=utf-8');
    res.sendFile(asyncapiDocumentPath());
  });
  router.get('/events', (req, res) => res.redirect(301, `${req.baseUrl}/events/`));
  router.get('/events/', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/events/render.js', (_req, res) => {
    res.type('text/javascript').send(RENDER);
  });
  router.get('/events/link.js', (_req, res) => {
    res.type('text/javascript').send(LINK);
  });
  // pnpm keeps packages under node_modules/.pnpm, a dot folder sendFile refuses by default.
  router.get('/events/asyncapi.js', (_req, res) => res.sendFile(files.script, INSTALLED));
  router.get('/events/asyncapi.css', (_req, res) => res.sendFile(files.styles, INSTALLED));
  return router;
}
