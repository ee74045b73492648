/**
 * Lints an OpenAPI document: structurally valid OpenAPI 3.1 (Redocly's `struct` rule checks every
 * object against the specification's types) plus the rules we hold every interface to
 * (STYLE.md §1-2). Used by scripts/openapi-types.mjs (gen, check:gen) and the document tests.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';

// @redocly/openapi-core is openapi-typescript's own linter. It is reached through openapi-typescript
// (always installed with it) because it is not a direct dependency of this package yet; the
// default config openapi-typescript builds for itself enables no rules, so we pass ours.
const requireFromGenerator = createRequire(
  createRequire(import.meta.url).resolve('openapi-typescript'),
);
const redocly = await import(
  pathToFileURL(requireFromGenerator.resolve('@redocly/openapi-core')).href
);

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const RULES = {
  struct: 'error',
  'no-unresolved-refs': 'error',
  'operation-operationId': 'error',
  'operation-operationId-unique': 'error',
  'operation-parameters-unique': 'error',
  'path-parameters-defined': 'error',
  'no-identical-paths': 'error',
  'no-path-trailing-slash': 'error',
  'no-enum-type-mismatch': 'error',
  'no-invalid-media-type-examples': 'error',
  'no-invalid-schema-examples': 'error',
  'no-invalid-parameter-examples': 'error',
};

/** The Redocly config our documents are linted and generated with. */
export async function redoclyConfig() {
  return redocly.createConfig({ rules: RULES });
}

/** Rules Redocly does not have: version 3.1 and a `default` (error) response on every operation. */
function ruleProblems(document) {
  const problems = [];
  if (typeof document?.openapi !== 'string' || !document.openapi.startsWith('3.1.')) {
    problems.push(`openapi must be 3.1.x, found ${JSON.stringify(document?.openapi)}`);
  }
  for (const [path, item] of Object.entries(document?.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item?.[method];
      if (operation && !operation.responses?.default) {
        problems.push(
          `${method.toUpperCase()} ${path}: no 'default' response (the interface's error format)`,
        );
      }
    }
  }
  return problems;
}

/**
 * Every error-severity problem of the document at `file`, as readable lines (empty when valid).
 * @param {string} file absolute path
 * @returns {Promise<string[]>}
 */
export async function lintOpenApiDocument(file) {
  let document;
  try {
    document = parse(await readFile(file, 'utf8'));
  } catch (error) {
    return [`not YAML: ${error.message}`];
  }
  const problems = ruleProblems(document);
  const config = await redoclyConfig();
  for (const problem of await redocly.lint({ ref: file, config })) {
    if (problem.severity !== 'error') continue;
    const pointer = problem.location?.[0]?.pointer;
    problems.push(`${problem.message}${pointer ? ` at ${pointer}` : ''} (${problem.ruleId})`);
  }
  return problems;
}
