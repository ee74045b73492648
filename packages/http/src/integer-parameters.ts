import type { Request, RequestHandler } from 'express';
import { type ErrorDetail, ValidationError } from './errors.js';
import { isRecord, matchedOperation } from './openapi-request.js';

const DECIMAL_INTEGER = /^-?[0-9]+$/;

/**
 * True when `raw` is how a client writes an integer in a URL: decimal digits with an optional
 * minus, and exactly representable (within Number.MAX_SAFE_INTEGER).
 */
export function isDecimalInteger(raw: string): boolean {
  return DECIMAL_INTEGER.test(raw) && Number.isSafeInteger(Number(raw));
}

function isIntegerSchema(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  const { type } = schema;
  return type === 'integer' || (Array.isArray(type) && type.includes('integer'));
}

/** The raw strings sent for a parameter: none, one, or several for a repeated query key. */
function rawValues(req: Request, location: string, name: string): unknown[] {
  const source: unknown =
    location === 'query' ? req.query : location === 'path' ? req.params : undefined;
  if (!isRecord(source) || !(name in source)) return [];
  const value = source[name];
  return Array.isArray(value) ? value : [value];
}

/**
 * Checks every `type: integer` query and path parameter of the matched operation before the
 * validator coerces it. The validator coerces parameters with Number(), which takes `0x10`,
 * `0b11`, `1e3`, `Infinity`, `1e400` and an empty string (0): none of those is an integer a
 * client meant, and an infinite one reached handlers as a number they could not store (a 500).
 * Every such parameter is named at once; bounds (minimum, maximum) stay the validator's, checked
 * on the value this lets through.
 */
export const integerParameters: RequestHandler = (req, _res, next) => {
  const parameters = matchedOperation(req)?.operation.parameters;
  const details: ErrorDetail[] = [];
  for (const parameter of Array.isArray(parameters) ? parameters : []) {
    if (!isRecord(parameter) || !isIntegerSchema(parameter.schema)) continue;
    const { in: location, name } = parameter;
    if (typeof location !== 'string' || typeof name !== 'string') continue;
    // Anything but a string (an object from `a[b]=1`) is the validator's to refuse.
    const refused = rawValues(req, location, name).some(
      (value) => typeof value === 'string' && !isDecimalInteger(value),
    );
    // The validator's own words for a value that is not an integer, so both read alike.
    if (refused) details.push({ loc: [location, name], msg: 'must be integer', type: 'type' });
  }
  if (details.length > 0) {
    throw ValidationError.of(details);
  }
  next();
};
