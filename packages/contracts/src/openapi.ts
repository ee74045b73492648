import { fileURLToPath } from 'node:url';

export type OpenApiDocumentName = 'admin' | 'batch' | 'gateway';

/** Absolute path of an OpenAPI document shipped in this package (the single source of truth of its interface). */
export function openapiDocumentPath(name: OpenApiDocumentName): string {
  return fileURLToPath(new URL(`../openapi/${name}.yaml`, import.meta.url));
}
