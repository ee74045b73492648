import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { E164_DIGITS_PATTERN_SOURCE, E164_PATTERN_SOURCE } from '@msg/phone/e164';
import { afterAll, describe, expect, it } from 'vitest';
import { lintOpenApiDocument } from '../scripts/openapi-lint.mjs';
import {
  INTERNAL_DOCUMENTS,
  internalDocumentPath,
  OPENAPI_DOCUMENTS,
  type OpenApiDocument,
  openapiDocumentPath,
  readOpenApiDocument,
  readServiceDocument,
} from './openapi.js';

const documentsDir = dirname(openapiDocumentPath('batch'));
const yamlIn = (dir: string) =>
  readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .map((file) => join(dir, file));
const publicFiles = yamlIn(documentsDir);
const internalFiles = yamlIn(join(documentsDir, 'internal'));
const documentFiles = [...publicFiles, ...internalFiles];
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Operation {
  where: string;
  operation: Record<string, unknown>;
  pathItem: Record<string, unknown>;
}

function operationsOf(document: OpenApiDocument): Operation[] {
  const found: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (typeof operation === 'object' && operation !== null) {
        found.push({
          where: `${method.toUpperCase()} ${path}`,
          operation: { ...operation },
          pathItem: item,
        });
      }
    }
  }
  return found;
}

/** One property of a parsed YAML node, or undefined. */
function get(node: unknown, key: string): unknown {
  return typeof node === 'object' && node !== null
    ? Object.getOwnPropertyDescriptor(node, key)?.value
    : undefined;
}

/** Follows local `#/components/...` references; documents are single files. */
function resolveLocal(document: OpenApiDocument, value: unknown): unknown {
  const ref = get(value, '$ref');
  if (typeof ref !== 'string') return value;
  if (!ref.startsWith('#/')) return undefined;
  return resolveLocal(
    document,
    ref
      .slice(2)
      .split('/')
      .reduce<unknown>((node, segment) => get(node, segment), document),
  );
}

/** Every `pattern` of a parsed document, with where it is. */
function patternsOf(node: unknown, at = '#'): { at: string; pattern: string }[] {
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === 'pattern' && typeof value === 'string'
      ? [{ at, pattern: value }]
      : patternsOf(value, `${at}/${key}`),
  );
}

/**
 * URL fields we never call: RCS content links (`file_url`, `thumbnail_url`, an open-URL action's
 * `url`) are handed to RBM, which fetches the file, or to the phone, which opens the link.
 */
const LINKS_WE_NEVER_CALL = new Set(['#/components/schemas/PublicUrl']);

/**
 * Every string member whose name holds "url" in a request body or parameter of the document,
 * following local references, combinations and nesting: where it is and its schema.
 */
function urlFieldsOf(document: OpenApiDocument): { at: string; ref?: string; schema: unknown }[] {
  const found: { at: string; ref?: string; schema: unknown }[] = [];
  const seen = new Set<unknown>();
  const visit = (node: unknown, at: string, named: string | undefined, ref?: string) => {
    const own = get(node, '$ref');
    if (typeof own === 'string') {
      visit(resolveLocal(document, node), at, named, own);
      return;
    }
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    const type = get(node, 'type');
    const isString = type === 'string' || (Array.isArray(type) && type.includes('string'));
    if (named && /url/i.test(named) && isString) {
      found.push({ at, schema: node, ...(ref && { ref }) });
    }
    seen.add(node);
    const properties = get(node, 'properties');
    if (typeof properties === 'object' && properties !== null) {
      for (const [name, member] of Object.entries(properties)) visit(member, `${at}.${name}`, name);
    }
    for (const key of ['oneOf', 'anyOf', 'allOf']) {
      const alternatives = get(node, key);
      if (Array.isArray(alternatives)) for (const a of alternatives) visit(a, at, named);
    }
    visit(get(node, 'items'), `${at}[]`, named);
    seen.delete(node);
  };
  for (const { where, operation, pathItem } of operationsOf(document)) {
    const body = resolveLocal(document, get(operation, 'requestBody'));
    const content = get(body, 'content');
    if (typeof content === 'object' && content !== null) {
      for (const [mediaType, media] of Object.entries(content)) {
        visit(get(media, 'schema'), `${where} ${mediaType}`, undefined);
      }
    }
    const parameters = [get(pathItem, 'parameters'), get(operation, 'parameters')].flatMap(
      (list) => (Array.isArray(list) ? list : []),
    );
    for (const parameter of parameters.map((p) => resolveLocal(document, p))) {
      const name = get(parameter, 'name');
      if (typeof name === 'string') visit(get(parameter, 'schema'), `${where} ${name}`, name);
    }
  }
  return found;
}

/** A pattern meant for a phone number: digits that start with 1-9, with or without `+`. */
const PHONE_PATTERN = /^\^(\\\+)?\[1-9\]/;

describe('openapi documents', () => {
  it('when the package is scanned, then the documents are exactly the ones the code names', () => {
    expect(publicFiles.map((file) => basename(file, '.yaml')).sort()).toEqual(
      [...OPENAPI_DOCUMENTS].sort(),
    );
    expect(internalFiles.map((file) => basename(file, '.yaml')).sort()).toEqual(
      [...INTERNAL_DOCUMENTS].sort(),
    );
    for (const name of INTERNAL_DOCUMENTS)
      expect(existsSync(internalDocumentPath(name))).toBe(true);
  });

  it('when the public documents are read, then none has an /internal/ operation, and each internal one has only those', () => {
    for (const file of publicFiles) {
      const paths = Object.keys(readOpenApiDocument(file).paths);
      expect(
        paths.filter((path) => path.startsWith('/internal/')),
        file,
      ).toEqual([]);
    }
    for (const file of internalFiles) {
      const paths = Object.keys(readOpenApiDocument(file).paths);
      expect(
        paths.filter((path) => !path.startsWith('/internal/')),
        file,
      ).toEqual([]);
    }
  });

  it('when a public document is read, then its server is the gateway, relative to where the document is served', () => {
    for (const file of publicFiles) {
      expect(readOpenApiDocument(file).servers, file).toEqual([
        { url: '/', description: expect.stringContaining('gateway') },
      ]);
    }
  });

  it('when a public operation takes a body, then each of its media types and each required parameter has an example (Swagger UI sends it as it is; the lint checks it against the schema)', () => {
    const missing: string[] = [];
    for (const file of publicFiles) {
      const document = readOpenApiDocument(file);
      for (const { where, operation, pathItem } of operationsOf(document)) {
        const body = resolveLocal(document, operation.requestBody);
        if (body === undefined) continue;
        for (const [mediaType, media] of Object.entries(get(body, 'content') as object)) {
          if (get(media, 'example') === undefined) missing.push(`${where} ${mediaType}`);
        }
        const parameters = [
          ...((get(pathItem, 'parameters') as unknown[] | undefined) ?? []),
          ...((operation.parameters as unknown[] | undefined) ?? []),
        ].map((parameter) => resolveLocal(document, parameter));
        for (const parameter of parameters) {
          if (get(parameter, 'required') === true && get(parameter, 'example') === undefined) {
            missing.push(`${where} parameter ${String(get(parameter, 'name'))}`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("when an internal document names components of its public one, then reading it copies them in, and the service document has both documents' operations", () => {
    const internal = readOpenApiDocument(internalDocumentPath('rcs'));
    expect(JSON.stringify(internal)).not.toContain('../rcs.yaml');
    const publicRcs = readOpenApiDocument(openapiDocumentPath('rcs'));
    const schemas = (document: OpenApiDocument) =>
      (document.components?.schemas ?? {}) as Record<string, unknown>;
    // AgentId is the public document's, copied as it is; Error too (through a response).
    expect(schemas(internal).AgentId).toEqual(schemas(publicRcs).AgentId);
    expect(schemas(internal).Error).toEqual(schemas(publicRcs).Error);

    const service = readServiceDocument(openapiDocumentPath('rcs'), internalDocumentPath('rcs'));
    expect(Object.keys(service.paths)).toEqual(
      expect.arrayContaining(['/rcs/v1/messages', '/internal/v1/agents']),
    );
    expect(service.servers).toEqual(publicRcs.servers);
    expect(Object.keys(service.components?.securitySchemes ?? {})).toEqual(
      expect.arrayContaining(['apiKeyAuth', 'adminBearer']),
    );
  });

  describe.each(documentFiles.map((file) => [relative(documentsDir, file), file]))(
    '%s',
    (name, file) => {
      const document = readOpenApiDocument(file);
      const isLegacyReplyPath = name === 'replypath-legacy.yaml';
      const isVoice = name === 'voice.yaml';

      it('when read, then it is OpenAPI 3.1 with an interface version', () => {
        expect(document.openapi).toMatch(/^3\.1\.\d+$/);
        expect(document.info.version).toMatch(/^\d+\.\d+\.\d+$/);
      });

      it('when linted as OpenAPI 3.1 with our rules, then it has no errors', async () => {
        expect(await lintOpenApiDocument(file)).toEqual([]);
      });

      it('when a pattern is for a phone number, then it is the one E.164 rule of @msg/phone (7 to 15 digits)', () => {
        for (const { at, pattern } of patternsOf(document).filter((p) =>
          PHONE_PATTERN.test(p.pattern),
        )) {
          expect([E164_PATTERN_SOURCE, E164_DIGITS_PATTERN_SOURCE], at).toContain(pattern);
        }
      });

      it('when a request field holds a URL, then it is format callback-url, the one client URL rule of @msg/http (issue 23: RFC 3986, no private hosts unless allowed)', () => {
        for (const { at, ref, schema } of urlFieldsOf(document)) {
          if (ref && LINKS_WE_NEVER_CALL.has(ref)) continue;
          expect(get(schema, 'format'), at).toBe('callback-url');
        }
      });

      it('when each operation is inspected, then it has an operationId and a default error response in the interface format (code and message, status and message, detail, form text, or RFC 9457 problem)', () => {
        const operations = operationsOf(document);
        expect(operations.length).toBeGreaterThan(0);
        for (const { where, operation } of operations) {
          expect(operation.operationId, where).toEqual(expect.any(String));
          const responses = resolveLocal(document, operation.responses);
          const fallback = resolveLocal(document, get(responses, 'default'));
          expect(fallback, `${where} has no default response`).toBeDefined();
          const content = get(fallback, 'content');
          const problem = get(content, 'application/problem+json');
          if (problem !== undefined) {
            // Number intelligence (spec 7.6): application/problem+json.
            expect(resolveLocal(document, get(problem, 'schema')), where).toMatchObject({
              required: expect.arrayContaining(['type', 'title', 'status', 'detail', 'instance']),
            });
            continue;
          }
          // Text-to-voice simple HTTP (spec 2.6): form-encoded `request=false&error=...` text.
          if (get(content, 'application/x-www-form-urlencoded') !== undefined) continue;
          const json = get(content, 'application/json');
          const schema = resolveLocal(document, get(json, 'schema'));
          // Legacy reply-path (spec 7.3): the status line and a message; text-to-voice (7.5): `detail`.
          const members = isLegacyReplyPath
            ? ['status', 'message']
            : isVoice
              ? ['detail']
              : ['code', 'message'];
          expect(schema, `${where}: default response has no JSON schema`).toMatchObject({
            required: expect.arrayContaining(members),
          });
        }
      });
    },
  );
});

describe('readOpenApiDocument and the lint, on broken input', () => {
  const dir = mkdtempSync(join(tmpdir(), 'contracts-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when the file is not an OpenAPI document, then reading it throws naming the file', () => {
    const file = join(dir, 'not-openapi.yaml');
    writeFileSync(file, 'hello: world\n');
    expect(() => readOpenApiDocument(file)).toThrow(/not-openapi\.yaml is not an OpenAPI document/);
  });

  it('when a document breaks the OpenAPI structure and our rules, then the lint names each problem', async () => {
    const file = join(dir, 'broken.yaml');
    writeFileSync(
      file,
      [
        'openapi: 3.1.0',
        'info: { title: broken, version: 1.0.0 }',
        'paths:',
        '  /x:',
        '    get:',
        '      operationId: getX',
        '      parameters:',
        '        - { name: q, in: nowhere, schema: { type: string } }',
        '      responses:',
        "        '200': { description: ok, content: { application/json: { schema: { $ref: '#/components/schemas/Gone' } } } }",
      ].join('\n'),
    );
    const problems = await lintOpenApiDocument(file);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/GET \/x: no 'default' response/),
        expect.stringMatching(/`in` can be one of the following only.*\(struct\)/),
        expect.stringMatching(/Can't resolve \$ref.*\(no-unresolved-refs\)/),
      ]),
    );
  });

  it('when a document names a component another file lacks, or one it defines otherwise, then reading it throws naming both', () => {
    const base = join(dir, 'base.yaml');
    writeFileSync(
      base,
      [
        'openapi: 3.1.0',
        'info: { title: base, version: 1.0.0 }',
        'paths: {}',
        'components:',
        '  schemas:',
        '    Id: { type: string, maxLength: 8 }',
        "    Pair: { type: object, properties: { a: { $ref: '#/components/schemas/Id' } } }",
      ].join('\n'),
    );
    const extra = (schemas: string[]) => {
      const file = join(dir, 'extra.yaml');
      writeFileSync(
        file,
        [
          'openapi: 3.1.0',
          'info: { title: extra, version: 1.0.0 }',
          'paths: {}',
          'components:',
          '  schemas:',
          ...schemas.map((line) => `    ${line}`),
        ].join('\n'),
      );
      return file;
    };
    // What a component of the other file refers to in its own file comes along.
    const bundled = readOpenApiDocument(
      extra(["Uses: { $ref: 'base.yaml#/components/schemas/Pair' }"]),
    );
    expect(bundled.components?.schemas).toEqual({
      Uses: { $ref: '#/components/schemas/Pair' },
      Pair: { type: 'object', properties: { a: { $ref: '#/components/schemas/Id' } } },
      Id: { type: 'string', maxLength: 8 },
    });
    expect(() =>
      readOpenApiDocument(extra(["Uses: { $ref: 'base.yaml#/components/schemas/Gone' }"])),
    ).toThrow(/base\.yaml#\/components\/schemas\/Gone names nothing/);
    expect(() =>
      readOpenApiDocument(
        extra(["Uses: { $ref: 'base.yaml#/components/schemas/Id' }", 'Id: { type: integer }']),
      ),
    ).toThrow(/component schemas\/Id differs/);
  });

  it('when a document is OpenAPI 3.0, then the lint says 3.1 is required', async () => {
    const file = join(dir, 'old.yaml');
    writeFileSync(file, 'openapi: 3.0.3\ninfo: { title: old, version: 1.0.0 }\npaths: {}\n');
    expect(await lintOpenApiDocument(file)).toContain('openapi must be 3.1.x, found "3.0.3"');
  });
});
