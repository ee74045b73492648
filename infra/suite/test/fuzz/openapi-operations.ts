import {
  INTERNAL_DOCUMENTS,
  internalDocumentPath,
  OPENAPI_DOCUMENTS,
  openapiDocumentPath,
  readOpenApiDocument,
} from '@msg/contracts';

/** A JSON Schema (OpenAPI 3.1 dialect) with every local `$ref` already inlined. */
export type Schema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

/** One operation of one document, everything the fuzz needs to call it and judge the answer. */
export interface Operation {
  document: string;
  method: string;
  /** The path template, e.g. `/v1/batches/{batch_id}`. */
  path: string;
  operationId: string;
  parameters: Parameter[];
  /** Media type → schema of the request body. */
  body?: { required: boolean; content: Record<string, Schema> };
  /** Names of the security schemes that admit the call (none: no credentials needed). */
  security: string[];
  /** Status (`404`, `4XX`, `default`) → media type → schema, as the document declares. */
  responses: Record<string, Record<string, Schema>>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Json = Record<string, unknown>;

/** Replaces every `{"$ref": "#/..."}` of the document by what it points to (no cycles here). */
function inline(document: Json, value: unknown, seen: string[] = []): unknown {
  if (Array.isArray(value)) return value.map((v) => inline(document, v, seen));
  if (typeof value !== 'object' || value === null) return value;
  const { $ref, ...rest } = value as Json;
  if (typeof $ref === 'string' && $ref.startsWith('#/')) {
    if (seen.includes($ref)) throw new Error(`recursive $ref ${$ref}`);
    const target = $ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, key) => (node as Json)?.[key.replace(/~1/g, '/')], document);
    return { ...(inline(document, target, [...seen, $ref]) as Json), ...rest };
  }
  return Object.fromEntries(
    Object.entries(value as Json).map(([k, v]) => [k, inline(document, v, seen)]),
  );
}

/** A document to fuzz: the service that serves it, and where it is. */
export interface FuzzedDocument {
  service: string;
  path: string;
}

/**
 * Every document of packages/contracts/openapi, public and internal (the contracts' tests hold
 * these lists to the folders, so a new document is fuzzed too).
 */
export function fuzzedDocuments(): FuzzedDocument[] {
  return [
    ...OPENAPI_DOCUMENTS.map((service) => ({ service, path: openapiDocumentPath(service) })),
    ...INTERNAL_DOCUMENTS.map((service) => ({ service, path: internalDocumentPath(service) })),
  ];
}

/** Every operation of a document, its references resolved. */
export function operationsOf({ service, path: file }: FuzzedDocument): Operation[] {
  const raw = readOpenApiDocument(file);
  const document = inline(raw as Json, raw) as Json;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const parameters = [
        ...((item.parameters as Json[]) ?? []),
        ...((op.parameters as Json[]) ?? []),
      ].map((p) => ({
        name: String(p.name),
        in: p.in as Parameter['in'],
        required: p.required === true,
        schema: (p.schema as Schema) ?? {},
      }));
      const requestBody = op.requestBody as Json | undefined;
      const content = (c: unknown) =>
        Object.fromEntries(
          Object.entries((c as Record<string, Json>) ?? {}).map(([type, media]) => [
            type,
            (media.schema as Schema) ?? {},
          ]),
        );
      const security = ((op.security ?? document.security ?? []) as Json[]).flatMap((s) =>
        Object.keys(s),
      );
      operations.push({
        document: service,
        method,
        path,
        operationId: String(op.operationId ?? `${method} ${path}`),
        parameters,
        ...(requestBody && {
          body: { required: requestBody.required === true, content: content(requestBody.content) },
        }),
        security,
        responses: Object.fromEntries(
          Object.entries((op.responses as Record<string, Json>) ?? {}).map(([status, r]) => [
            status,
            content(r.content),
          ]),
        ),
      });
    }
  }
  return operations;
}

/** The declared answer for a status: the exact code, then `4XX`, then `default`. */
export function declaredResponse(
  op: Operation,
  status: number,
): Record<string, Schema> | undefined {
  return (
    op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default
  );
}
