import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** Names of the documents in openapi/ (one per public interface). */
export type OpenApiDocumentName =
  | 'admin'
  | 'batch'
  | 'callbacks'
  | 'gateway'
  | 'lookup-legacy'
  | 'numbers'
  | 'rcs'
  | 'replypath'
  | 'replypath-legacy'
  | 'sms'
  | 'voice';

/** Absolute path of an OpenAPI document shipped in this package (the single source of truth of its interface). */
export function openapiDocumentPath(name: OpenApiDocumentName): string {
  // Resolved from this module, so it works from src/ (tests) and from dist/: openapi/ ships beside both.
  return fileURLToPath(new URL(`../openapi/${name}.yaml`, import.meta.url));
}

/**
 * The parts of an OpenAPI document that code reads; the rest stays `unknown` until checked.
 * Operations are the method keys of each path item.
 */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
  security?: unknown[];
  [key: string]: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOpenApiDocument(value: unknown): value is OpenApiDocument {
  if (!isRecord(value) || typeof value.openapi !== 'string') return false;
  const { info, paths } = value;
  if (!isRecord(info) || typeof info.title !== 'string' || typeof info.version !== 'string') {
    return false;
  }
  return isRecord(paths) && Object.values(paths).every(isRecord);
}

/**
 * Reads and parses an OpenAPI document (YAML or JSON). Throws when the file is not YAML or lacks
 * the top-level shape of an OpenAPI document; full schema validation is the validator's job.
 */
export function readOpenApiDocument(path: string): OpenApiDocument {
  const document: unknown = parse(readFileSync(path, 'utf8'));
  if (!isOpenApiDocument(document)) {
    throw new Error(
      `${path} is not an OpenAPI document (needs openapi, info.title, info.version, paths)`,
    );
  }
  return document;
}
