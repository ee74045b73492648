import type { OpenApiDocument } from './openapi.js';

/** A request an operation's examples make: what Swagger UI's "Try it out" sends by default. */
export interface RequestExample {
  /** `POST /v1/sms/send application/json`. */
  where: string;
  method: string;
  /** The path template (`/v1/webhooks/{webhook_id}`). */
  template: string;
  /** The template filled with each required path parameter's example, encoded. */
  path: string;
  /** Each required query parameter's example. */
  query: Record<string, string>;
  /**
   * Each header parameter's example, required or not: `Content-Encoding: gzip` says the body
   * goes compressed (the example is the JSON before compression).
   */
  headers: Record<string, string>;
  mediaType: string;
  /** The request body's example for that media type. */
  body: unknown;
  /** The security scheme names the operation asks for (its own, else the document's). */
  security: string[];
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a local `$ref` points to in a self-contained document (readOpenApiDocument). */
function resolve(document: OpenApiDocument, node: unknown): Json {
  if (!isRecord(node)) return {};
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  return resolve(
    document,
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), document),
  );
}

/**
 * Every request body example of the document, one per operation and media type, as a request:
 * required parameters from their examples. A body or parameter without an example is left out
 * (the contracts' tests require one on every public operation).
 */
export function requestExamples(document: OpenApiDocument): RequestExample[] {
  const found: RequestExample[] = [];
  for (const [template, pathItem] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isRecord(operation)) continue;
      const content = resolve(document, operation.requestBody).content;
      if (!isRecord(content)) continue;
      const parameters = [pathItem.parameters, operation.parameters]
        .flatMap((list) => (Array.isArray(list) ? list : []))
        .map((parameter) => resolve(document, parameter));
      let path = template;
      const query: Record<string, string> = {};
      const headers: Record<string, string> = {};
      for (const { name, in: where, example, required } of parameters) {
        if (example === undefined) continue;
        if (where === 'header') headers[String(name)] = String(example);
        if (required !== true) continue;
        if (where === 'path') path = path.replace(`{${name}}`, encodeURIComponent(String(example)));
        if (where === 'query') query[String(name)] = String(example);
      }
      const requirements = Array.isArray(operation.security)
        ? operation.security
        : (document.security ?? []);
      const security = requirements.flatMap((requirement) =>
        isRecord(requirement) ? Object.keys(requirement) : [],
      );
      for (const [mediaType, media] of Object.entries(content)) {
        if (!isRecord(media) || media.example === undefined) continue;
        found.push({
          where: `${method.toUpperCase()} ${template} ${mediaType}`,
          method,
          template,
          path,
          query,
          headers,
          mediaType,
          body: media.example,
          security,
        });
      }
    }
  }
  return found;
}
