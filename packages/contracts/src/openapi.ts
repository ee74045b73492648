import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'yaml';

/**
 * The public documents in openapi/: one per interface, published by the gateway at /docs. They
 * hold no `/internal/` operation (a test says so).
 */
export const OPENAPI_DOCUMENTS = [
  'batch',
  'callbacks',
  'gateway',
  'lookup-legacy',
  'numbers',
  'rcs',
  'replypath',
  'replypath-legacy',
  'sms',
  'voice',
] as const;
export type OpenApiDocumentName = (typeof OPENAPI_DOCUMENTS)[number];

/**
 * The internal documents in openapi/internal/: the `/internal/` operations of a service
 * (operators', or another service's), never routed by the gateway, published by the admin
 * service only. A service with both validates against the two together (readServiceDocument).
 */
export const INTERNAL_DOCUMENTS = ['admin', 'notifier', 'numbers', 'rcs', 'replypath'] as const;
export type InternalDocumentName = (typeof INTERNAL_DOCUMENTS)[number];

// Resolved from this module, so it works from src/ (tests) and from dist/: openapi/ ships beside both.
const OPENAPI_DIR = fileURLToPath(new URL('../openapi/', import.meta.url));

/** Absolute path of a public OpenAPI document (the single source of truth of its interface). */
export function openapiDocumentPath(name: OpenApiDocumentName): string {
  return resolve(OPENAPI_DIR, `${name}.yaml`);
}

/** Whether a service of this name has an internal document (beside its public one, or alone). */
export function isInternalDocumentName(name: string): name is InternalDocumentName {
  return (INTERNAL_DOCUMENTS as readonly string[]).includes(name);
}

/** Absolute path of an internal OpenAPI document. */
export function internalDocumentPath(name: InternalDocumentName): string {
  return resolve(OPENAPI_DIR, 'internal', `${name}.yaml`);
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

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
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

function parseFile(path: string): unknown {
  return parse(readFileSync(path, 'utf8'));
}

/** `#/components/<section>/<name>` as its two names, or undefined for any other pointer. */
function componentOf(pointer: string): [string, string] | undefined {
  const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(pointer);
  return match ? [match[1] as string, match[2] as string] : undefined;
}

/** Adds `value` as component `section/name`; one of that name already there must be the same. */
function addComponent(
  components: Json,
  section: string,
  name: string,
  value: unknown,
  from: string,
) {
  const existing = isRecord(components[section]) ? (components[section] as Json) : {};
  components[section] = existing;
  if (name in existing && !isDeepStrictEqual(existing[name], value)) {
    throw new Error(`${from}: component ${section}/${name} differs from the one already there`);
  }
  existing[name] = value;
}

/**
 * Makes a document that refers to another file's components (an internal document to its public
 * one: `../rcs.yaml#/components/schemas/AgentId`) self-contained: each component it names, and
 * what that one refers to in its own file, is copied in under the same name and the reference
 * made local. Only references to whole components are allowed.
 */
function bundle(document: OpenApiDocument, path: string): OpenApiDocument {
  /** Components copied from other files, by section and name. */
  const copiedIn: Json = {};
  const files = new Map<string, Json>();
  const copied = new Set<string>();

  const copy = (file: string, pointer: string): void => {
    const key = `${file}${pointer}`;
    if (copied.has(key)) return;
    copied.add(key);
    const names = componentOf(pointer);
    if (!names) throw new Error(`${path}: $ref ${key} must name a whole component`);
    let source = files.get(file);
    if (!source) {
      const parsed = parseFile(file);
      if (!isRecord(parsed)) throw new Error(`${path}: $ref to ${file}, which is not a document`);
      source = parsed;
      files.set(file, source);
    }
    const [section, name] = names;
    const entries = (source.components as Json | undefined)?.[section];
    const component = isRecord(entries) ? entries[name] : undefined;
    if (component === undefined) throw new Error(`${path}: $ref ${key} names nothing`);
    // Its own references are to its own file: those components come along too.
    addComponent(copiedIn, section, name, local(component, file, false), path);
  };

  /** A copy of `node` whose references are all local, copying in what they name elsewhere. */
  function local(node: unknown, file: string, ownFile: boolean): unknown {
    if (Array.isArray(node)) return node.map((item) => local(item, file, ownFile));
    if (!isRecord(node)) return node;
    const result: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key !== '$ref' || typeof value !== 'string') {
        result[key] = local(value, file, ownFile);
        continue;
      }
      const hash = value.indexOf('#');
      const pointer = hash >= 0 ? value.slice(hash) : value;
      if (hash > 0) copy(resolve(dirname(file), value.slice(0, hash)), pointer);
      else if (!ownFile) copy(file, pointer);
      result[key] = pointer;
    }
    return result;
  }

  const bundled = local(document, path, true) as OpenApiDocument;
  const components: Json = { ...(bundled.components ?? {}) };
  for (const [section, entries] of Object.entries(copiedIn)) {
    components[section] = { ...((components[section] as Json | undefined) ?? {}) };
    for (const [name, value] of Object.entries(entries as Json)) {
      addComponent(components, section, name, value, path);
    }
  }
  if (Object.keys(copiedIn).length > 0) bundled.components = components;
  return bundled;
}

/**
 * Reads and parses an OpenAPI document (YAML or JSON), self-contained: the components it names
 * in another document are copied in (see bundle). Throws when the file is not YAML or lacks the
 * top-level shape of an OpenAPI document; full schema validation is the validator's job.
 */
export function readOpenApiDocument(path: string): OpenApiDocument {
  const document = parseFile(path);
  if (!isOpenApiDocument(document)) {
    throw new Error(
      `${path} is not an OpenAPI document (needs openapi, info.title, info.version, paths)`,
    );
  }
  return bundle(document, path);
}

/**
 * The one document a service validates against: its public document with the operations (and
 * components, security schemes, tags) of its internal one added; servers and info stay the
 * public one's. A path or operationId in both, or a component of one name defined two ways, is
 * an error. With only one path, that document.
 */
export function readServiceDocument(path: string, internalPath?: string): OpenApiDocument {
  const document = readOpenApiDocument(path);
  if (!internalPath) return document;
  const internal = readOpenApiDocument(internalPath);
  const merged: OpenApiDocument = structuredClone(document);
  const operationIds = new Set(operationIdsOf(document));
  for (const [route, item] of Object.entries(internal.paths)) {
    if (route in merged.paths) throw new Error(`${internalPath}: path ${route} is in ${path} too`);
    merged.paths[route] = item;
  }
  for (const id of operationIdsOf(internal)) {
    if (operationIds.has(id))
      throw new Error(`${internalPath}: operationId ${id} is in ${path} too`);
  }
  const components: Json = { ...(merged.components ?? {}) };
  for (const [section, entries] of Object.entries(internal.components ?? {})) {
    components[section] = { ...((components[section] as Json | undefined) ?? {}) };
    for (const [name, value] of Object.entries(entries as Json)) {
      addComponent(components, section, name, value, internalPath);
    }
  }
  merged.components = components;
  const tags = [...asArray(document.tags), ...asArray(internal.tags)];
  if (tags.length > 0) merged.tags = tags;
  return merged;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function operationIdsOf(document: OpenApiDocument): string[] {
  return Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap((operation) =>
      isRecord(operation) && typeof operation.operationId === 'string'
        ? [operation.operationId]
        : [],
    ),
  );
}
