import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { E164_DIGITS_PATTERN_SOURCE, E164_PATTERN_SOURCE } from '@msg/phone/e164';
import { afterAll, describe, expect, it } from 'vitest';
import { lintOpenApiDocument } from '../scripts/openapi-lint.mjs';
import { type OpenApiDocument, openapiDocumentPath, readOpenApiDocument } from './openapi.js';

const documentsDir = dirname(openapiDocumentPath('batch'));
const documentFiles = readdirSync(documentsDir)
  .filter((file) => file.endsWith('.yaml'))
  .map((file) => join(documentsDir, file));
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operationsOf(
  document: OpenApiDocument,
): { where: string; operation: Record<string, unknown> }[] {
  const found: { where: string; operation: Record<string, unknown> }[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (typeof operation === 'object' && operation !== null) {
        found.push({ where: `${method.toUpperCase()} ${path}`, operation: { ...operation } });
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

/** A pattern meant for a phone number: digits that start with 1-9, with or without `+`. */
const PHONE_PATTERN = /^\^(\\\+)?\[1-9\]/;

describe('openapi documents', () => {
  it('when the package is scanned, then the documents the code names exist', () => {
    expect(documentFiles.map((file) => basename(file))).toEqual(
      expect.arrayContaining(['batch.yaml', 'gateway.yaml']),
    );
    expect(existsSync(openapiDocumentPath('gateway'))).toBe(true);
  });

  describe.each(documentFiles.map((file) => [basename(file), file]))('%s', (name, file) => {
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
  });
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

  it('when a document is OpenAPI 3.0, then the lint says 3.1 is required', async () => {
    const file = join(dir, 'old.yaml');
    writeFileSync(file, 'openapi: 3.0.3\ninfo: { title: old, version: 1.0.0 }\npaths: {}\n');
    expect(await lintOpenApiDocument(file)).toContain('openapi must be 3.1.x, found "3.0.3"');
  });
});
