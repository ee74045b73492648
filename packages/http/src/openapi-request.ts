import type { Request } from 'express';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The documented operation express-openapi-validator matched a request to. */
export interface MatchedOperation {
  /** The path template of the document, e.g. '/v1/batches/{batch_id}'. */
  route: string;
  /** The operation object of the document (dereferenced). */
  operation: Record<string, unknown>;
}

/**
 * Reads what the validator's metadata middleware put on `req.openapi`. The validator does not
 * declare that property on express's Request, so it is read and checked here rather than cast.
 */
export function matchedOperation(req: Request): MatchedOperation | undefined {
  const metadata: unknown = Reflect.get(req, 'openapi');
  if (!isRecord(metadata)) return undefined;
  const { openApiRoute, schema } = metadata;
  if (typeof openApiRoute !== 'string' || !isRecord(schema)) return undefined;
  return { route: openApiRoute, operation: schema };
}

/** Media types the operation's requestBody lists, e.g. ['application/json']. */
export function requestMediaTypes(operation: Record<string, unknown>): string[] {
  const body = operation.requestBody;
  return isRecord(body) && isRecord(body.content) ? Object.keys(body.content) : [];
}
