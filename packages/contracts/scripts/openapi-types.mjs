#!/usr/bin/env node
/**
 * Generates TypeScript types from every OpenAPI document in openapi/ into src/generated/<name>.ts,
 * and from every internal one in openapi/internal/ into src/generated/internal/<name>.ts.
 *
 *   node scripts/openapi-types.mjs          lint, then write src/generated (the `gen` script)
 *   node scripts/openapi-types.mjs --check  write nothing; fail when a document does not lint
 *                                           (scripts/openapi-lint.mjs) or src/generated differs
 *                                           from what the documents generate (`check:gen`)
 *
 * src/generated is git-ignored, so --check is what proves in CI that every document is valid
 * OpenAPI 3.1 following our rules and that the types the build used are the ones it describes.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { lintOpenApiDocument, redoclyConfig } from './openapi-lint.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const documentsDir = join(packageDir, 'openapi');
const generatedDir = join(packageDir, 'src', 'generated');
/** Public documents at the top, internal ones in internal/: the same layout in src/generated. */
const FOLDERS = ['', 'internal'];

async function generate(file, redocly) {
  const ast = await openapiTS(pathToFileURL(file), { redocly, silent: true });
  const source = `// Source: openapi/${relative(documentsDir, file)}. Regenerate with \`pnpm --filter @msg/contracts gen\`.\n\n`;
  return `${COMMENT_HEADER}${source}${astToString(ast)}`;
}

/** `.ts` files under src/generated, as paths relative to it, in FOLDERS only. */
async function generatedFiles() {
  const found = [];
  for (const folder of FOLDERS) {
    const files = await readdir(join(generatedDir, folder)).catch(() => []);
    for (const file of files.filter((f) => f.endsWith('.ts'))) found.push(join(folder, file));
  }
  return found;
}

async function main() {
  const check = process.argv.includes('--check');
  const redocly = await redoclyConfig();
  const expected = new Map();
  const failures = [];
  for (const folder of FOLDERS) {
    const documents = (await readdir(join(documentsDir, folder)))
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    for (const file of documents) {
      const path = join(documentsDir, folder, file);
      const problems = await lintOpenApiDocument(path);
      if (problems.length > 0) {
        failures.push(`openapi/${join(folder, file)} is not valid:\n  ${problems.join('\n  ')}`);
        continue;
      }
      expected.set(join(folder, `${basename(file, '.yaml')}.ts`), await generate(path, redocly));
    }
  }

  const existing = await generatedFiles();
  if (check) {
    for (const [file, content] of expected) {
      const current = await readFile(join(generatedDir, file), 'utf8').catch(() => null);
      if (current === null) failures.push(`src/generated/${file} is missing; run the gen script`);
      else if (current !== content) {
        failures.push(`src/generated/${file} is out of date; run the gen script`);
      }
    }
    for (const file of existing) {
      if (!expected.has(file))
        failures.push(`src/generated/${file} has no document; run the gen script`);
    }
  } else if (failures.length === 0) {
    for (const folder of FOLDERS) await mkdir(join(generatedDir, folder), { recursive: true });
    for (const [file, content] of expected) await writeFile(join(generatedDir, file), content);
    for (const file of existing) {
      if (!expected.has(file)) await rm(join(generatedDir, file));
    }
  }

  if (failures.length > 0) {
    console.error(failures.join('\n'));
    process.exitCode = 1;
    return;
  }
  const files = [...expected.keys()].map((f) => `src/generated/${f}`).join(', ');
  process.stdout.write(`${check ? 'up to date' : 'generated'}: ${files}\n`);
}

await main();
