import fc, { type Arbitrary } from 'fast-check';
import type { Schema } from './openapi-operations.js';

/**
 * fast-check arbitraries from the documents' JSON Schemas: values the schema admits (as far as
 * this small translation goes: the fuzz re-checks every body with ajv before judging a 2xx), and
 * the hostile values the mutations splice in.
 */

/** Strings that have broken parsers, loggers and databases before. */
export const NASTY_STRINGS: string[] = [
  '\uD800', // lone high surrogate
  'a\uDC00b', // lone low surrogate
  '\u0000',
  'nul\u0000inside',
  '\u202Eevil\u202C', // right-to-left override
  'שלום عالم',
  '😀👩‍👩‍👧‍👦🏳️‍🌈',
  'e\u0301\u0301\u0301', // combining marks
  '\uFEFF', // byte-order mark
  ' ',
  '',
  '../../etc/passwd',
  "'; DROP TABLE x; --",
  '{{name}}{{',
  '%00',
  '\r\nX-Injected: 1',
  'x'.repeat(10_000),
];

/** Numbers and number-like strings that are valid JSON or query text but not sane integers. */
export const NASTY_NUMBERS: string[] = [
  '0x10',
  '1e400',
  '-1e400',
  'Infinity',
  '-0',
  'NaN',
  '9'.repeat(400),
  '1.5',
  '-1',
  '',
  ' 1',
  '1_000',
];

const stringFormats: Record<string, Arbitrary<string>> = {
  'date-time': fc
    .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  date: fc
    .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  uuid: fc.uuid(),
  uri: fc.webUrl(),
  // A URL the platform will call: public https (the fuzz runs with private targets refused).
  'callback-url': fc.webUrl({ validSchemes: ['https'] }),
  email: fc.emailAddress(),
};

function stringOf(schema: Schema): Arbitrary<string> {
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern));
  const format = stringFormats[String(schema.format)];
  if (format) return format;
  const minLength = Number(schema.minLength ?? 0);
  const maxLength = Math.min(Number(schema.maxLength ?? 40), minLength + 40);
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

function numberOf(schema: Schema, integer: boolean): Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1_000_000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
  if (integer) return fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** A value the schema admits (depth-bounded: a schema without type gives a small JSON value). */
export function schemaValue(schema: Schema, depth = 0): Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((s) => schemaValue(s, depth)));
  if (Array.isArray(schema.allOf)) {
    return schemaValue(Object.assign({}, ...(schema.allOf as Schema[])) as Schema, depth);
  }
  const type = Array.isArray(schema.type)
    ? (schema.type as string[]).filter((t) => t !== 'null')[0]
    : schema.type;
  switch (type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = Number(schema.minItems ?? 0);
      const maxLength = Math.min(Number(schema.maxItems ?? 3), minLength + 3);
      return fc.array(schemaValue((schema.items as Schema) ?? {}, depth + 1), {
        minLength,
        maxLength,
      });
    }
    case 'object':
      return objectOf(schema, depth);
    default:
      return depth > 2 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
  }
}

function objectOf(schema: Schema, depth: number): Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, schemaValue(property, depth + 1)]),
  );
  return fc.record(model, { requiredKeys: required.filter((k) => k in properties) });
}

/** A JSON value of a type other than the schema's (a wrong type), or a nasty one. */
export function wrongValue(): Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(null, true, 0, -1, 1e308, [], {}, ''),
    fc.constantFrom(...NASTY_STRINGS),
    fc.constantFrom(...NASTY_NUMBERS),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  );
}

/** Every path to a member of `value` (objects and arrays), so a mutation can pick one. */
export function memberPaths(
  value: unknown,
  prefix: (string | number)[] = [],
): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : Object.entries(value as Record<string, unknown>);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...memberPaths(v, [...prefix, k])]);
}

/** A copy of `value` with the member at `path` replaced. */
export function replaceAt(value: unknown, path: (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  copy[head] = replaceAt(copy[head], rest, by);
  return copy;
}

/**
 * Bodies that are not the JSON the operation reads: broken, huge, deep or not text at all.
 * `bounded` marks the ones past the bounds every JSON body has (depth 32, 1,000 members, 10,000
 * entries, 100,000 values): refused whatever the schema says, in one linear pass.
 */
export const BROKEN_BODIES: Arbitrary<{ label: string; bytes: Buffer; bounded?: true }> = fc.oneof(
  fc.constantFrom<{ label: string; bytes: Buffer; bounded?: true }>(
    { label: 'truncated JSON', bytes: Buffer.from('{"a": [1, 2') },
    { label: 'trailing comma', bytes: Buffer.from('{"a": 1,}') },
    { label: 'single quotes', bytes: Buffer.from("{'a': 1}") },
    { label: 'JSON with NaN', bytes: Buffer.from('{"a": NaN}') },
    { label: 'number 1e400', bytes: Buffer.from('{"a": 1e400}') },
    { label: 'bare string', bytes: Buffer.from('"just a string"') },
    { label: 'null', bytes: Buffer.from('null') },
    { label: 'empty body', bytes: Buffer.alloc(0) },
    { label: 'invalid UTF-8', bytes: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
    { label: 'NUL bytes', bytes: Buffer.from('{"a":"\u0000"}\u0000') },
    { label: 'escaped lone surrogate', bytes: Buffer.from('{"a":"\\ud800"}') },
    {
      label: 'oversize body (2 MB string)',
      bytes: Buffer.from(JSON.stringify({ a: 'x'.repeat(2 * 1024 * 1024) })),
    },
    { label: 'duplicate keys', bytes: Buffer.from('{"a":1,"a":{"b":2}}') },
    { label: '__proto__ member', bytes: Buffer.from('{"__proto__":{"polluted":true}}') },
  ),
  fc.constantFrom<{ label: string; bytes: Buffer; bounded?: true }>(
    { label: 'arrays nested 33 deep', bytes: nested('[', ']', 33), bounded: true },
    { label: 'objects nested 33 deep', bytes: nested('{"a":', '}', 33, '1'), bounded: true },
    { label: 'arrays nested 40,000 deep', bytes: nested('[', ']', 40_000), bounded: true },
    {
      label: 'objects nested 40,000 deep (240 KB, the issue-23 freeze)',
      bytes: nested('{"a":', '}', 40_000, '1'),
      bounded: true,
    },
    {
      label: 'an object of 1,001 members',
      bytes: Buffer.from(`{${Array.from({ length: 1_001 }, (_, i) => `"m${i}":0`).join(',')}}`),
      bounded: true,
    },
    {
      label: 'an array of 10,001 entries',
      bytes: Buffer.from(`{"a":[${Array(10_001).fill(0).join(',')}]}`),
      bounded: true,
    },
    {
      label: '100,001 values',
      bytes: Buffer.from(
        `{"a":[${Array(101)
          .fill(`[${Array(990).fill(0)}]`)
          .join(',')}]}`,
      ),
      bounded: true,
    },
  ),
  fc
    .uint8Array({ minLength: 1, maxLength: 64 })
    .map((b) => ({ label: 'random bytes', bytes: Buffer.from(b) })),
);

function nested(open: string, close: string, levels: number, inner = ''): Buffer {
  return Buffer.from(`${open.repeat(levels)}${inner}${close.repeat(levels)}`);
}

/**
 * Client URLs (callbacks, webhooks) every interface refuses: not RFC 3986 text (controls, C1,
 * bidi overrides, zero-width characters, U+FFFF, an IDN not in punycode), or an address inside
 * the platform's network in any spelling (the fuzz runs with private targets not allowed).
 */
export const HOSTILE_URLS: string[] = [
  'https://example.com/a\u0007b',
  'https://example.com/\u0085',
  'https://example.com/\u202Egnp.exe',
  'https://exa\u200Bmple.com/',
  'https://example.com/\uFFFF',
  'https://bücher.example/',
  'https://example.com/a b',
  'https://example.com/%zz',
  'http://127.0.0.1/hook',
  'http://127.1/',
  'http://localhost:8080/',
  'http://api.localhost/',
  'http://10.1.2.3/',
  'http://192.168.0.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://2852039166/',
  'http://0xA9FEA9FE/',
  'http://0251.0376.0251.0376/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[::1]/',
  'http://[fd00::1]/',
  'http://0.0.0.0/',
];

/** Phone numbers too short (2 to 6 digits) or too long (16) for E.164, in each spelling. */
export const BAD_NUMBERS: string[] = ['+46', '+999', '+46701', '46701', '+1234567890123456', '+'];

/** Path segments and query values that tend to confuse routers and parsers. */
export const PATH_TRICKS: string[] = [
  '%00',
  '..',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '%',
  '%zz',
  '%C0%AF',
  '%F0%9F%98%80',
  '%ED%A0%80', // a lone surrogate, percent-encoded
  '%20', // a space: sent raw, Node's client itself refuses the request line
  '9'.repeat(400),
  '0x10',
  '1e400',
  '-1',
  encodeURIComponent('x'.repeat(2000)),
];

/** Credentials that must never let a request through. */
export function forgedCredentials(): Arbitrary<{ label: string; headers: Record<string, string> }> {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const b64url = (text: string) => Buffer.from(text).toString('base64url');
  return fc.constantFrom<{ label: string; headers: Record<string, string> }>(
    { label: 'no credentials', headers: {} },
    { label: 'Basic, not base64', headers: { authorization: 'Basic !!!not-base64!!!' } },
    { label: 'Basic without colon', headers: { authorization: `Basic ${b64('demo')}` } },
    { label: 'Basic, wrong password', headers: { authorization: `Basic ${b64('demo:wrong')}` } },
    {
      label: 'Basic, NUL in user',
      headers: { authorization: `Basic ${b64('de\u0000mo:x')}` },
    },
    { label: 'Basic, huge', headers: { authorization: `Basic ${b64(`${'u'.repeat(6000)}:p`)}` } },
    { label: 'Bearer empty', headers: { authorization: 'Bearer ' } },
    { label: 'Bearer garbage', headers: { authorization: 'Bearer not.a.jwt' } },
    {
      label: 'Bearer JWT whose payload is not JSON',
      headers: {
        authorization: `Bearer ${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url('not json')}.c2ln`,
      },
    },
    {
      label: 'Bearer JWT alg none',
      headers: {
        authorization: `Bearer ${b64url('{"alg":"none","typ":"JWT"}')}.${b64url('{"sub":"demo","exp":9999999999}')}.`,
      },
    },
    {
      label: 'Bearer JWT with a header that is not JSON',
      headers: { authorization: `Bearer ${b64url('{{{')}.${b64url('{}')}.c2ln` },
    },
    { label: 'unknown scheme', headers: { authorization: 'Digest username="demo"' } },
    { label: 'X-API-Key garbage', headers: { 'x-api-key': 'demo_\u00ff\u00fe' } },
    { label: 'X-API-Key empty', headers: { 'x-api-key': '' } },
  );
}
