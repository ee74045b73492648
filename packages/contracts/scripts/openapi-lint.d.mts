/** Types of scripts/openapi-lint.mjs, for the tests that call it. */
export function lintOpenApiDocument(file: string): Promise<string[]>;
export function redoclyConfig(): Promise<unknown>;
