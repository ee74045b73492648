import { gzipSync } from 'node:zlib';
import { E164_DIGITS_PATTERN_SOURCE, E164_PATTERN_SOURCE } from '@msg/phone/e164';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc, { type Arbitrary } from 'fast-check';
import {
  BAD_NUMBERS,
  BROKEN_BODIES,
  forgedCredentials,
  HOSTILE_URLS,
  memberPaths,
  NASTY_NUMBERS,
  NASTY_STRINGS,
  PATH_TRICKS,
  replaceAt,
  schemaValue,
  wrongValue,
} from './arbitraries.js';
import {
  declaredResponse,
  type Operation,
  type Parameter,
  type Schema,
} from './openapi-operations.js';

/**
 * What the demo account authenticates with, per security scheme name: an Authorization value,
 * or headers (RCS: X-API-Key and X-Client-ID together).
 */
export type Credentials = Record<string, string | Record<string, string>>;

/** One request of the fuzz, with what the documents say about it. */
export interface FuzzRequest {
  method: string;
  /** The raw request target, sent as is (no normalisation). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What was done to the valid request (for the failure report). */
  mutation: string;
  /** The schema refuses this request: a 2xx is a defect. */
  schemaRefuses: boolean;
  /** The credentials are forged or missing on a secured operation: a 2xx is a defect. */
  forged: boolean;
}

export interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** Formats are not checked (no ajv-formats): a 2xx is judged on types, sizes and patterns. */
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
const validators = new WeakMap<Schema, ReturnType<typeof ajv.compile>>();
export function validates(schema: Schema, value: unknown): boolean {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate(value) as boolean;
}

const MUTATIONS = [
  ...Array<string>(9).fill('none'),
  'wrong type in body',
  'wrong type in body',
  'nasty string in body',
  'nasty string in body',
  'broken body',
  'broken body',
  'parameter trick',
  'parameter trick',
  'forged credentials',
  'forged credentials',
  'odd method',
  'path trick',
  'hostile URL',
  'bad number',
] as const;
type Mutation = (typeof MUTATIONS)[number];

/** A parameter value as the server reads it from text, checked against its schema. */
function paramAdmits(param: Parameter, text: string): boolean {
  const type = param.schema.type;
  if (type === 'integer' || type === 'number') {
    const pattern = type === 'integer' ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/;
    return pattern.test(text) && validates(param.schema, Number(text));
  }
  if (type === 'boolean') return text === 'true' || text === 'false';
  return validates(param.schema, text);
}

/** The JSON body's bytes; gzip when the operation declares a Content-Encoding header (createBatch). */
function encodeBody(op: Operation, bytes: Buffer, headers: Record<string, string>): Buffer {
  if (!op.parameters.some((p) => p.in === 'header' && /^content-encoding$/i.test(p.name))) {
    return bytes;
  }
  headers['content-encoding'] = 'gzip';
  return gzipSync(bytes);
}

/**
 * Requests for one operation: most valid by its schemas and with the caller's credentials, the
 * rest mutated one way each (see MUTATIONS).
 */
export function requestsFor(
  op: Operation,
  credentials: Credentials,
  otherMethods: string[],
): Arbitrary<FuzzRequest> {
  const params = fc.record(
    Object.fromEntries(
      op.parameters
        .filter((p) => !/^content-(encoding|type)$/i.test(p.name))
        .map((p) => [
          p.name,
          p.required ? schemaValue(p.schema) : fc.option(schemaValue(p.schema), { nil: undefined }),
        ]),
    ),
  ) as Arbitrary<Record<string, unknown>>;
  // Where the 'hostile URL' and 'bad number' mutations aim: found once per operation.
  const targets: MutationTargets = {
    urls: memberPathsWhere(op, isClientUrlMember),
    numbers: memberPathsWhere(op, isPhoneLike),
  };
  const bodySchema = op.body?.content['application/json'];
  const body = bodySchema ? schemaValue(bodySchema) : fc.constant(undefined);
  return fc
    .record({
      params,
      body,
      mutation: fc.constantFrom(...MUTATIONS),
      wrong: wrongValue(),
      nasty: fc.constantFrom(...NASTY_STRINGS),
      broken: BROKEN_BODIES,
      trick: fc.constantFrom(...PATH_TRICKS, ...NASTY_NUMBERS.map(encodeURIComponent)),
      forged: forgedCredentials(),
      url: fc.constantFrom(...HOSTILE_URLS),
      number: fc.constantFrom(...BAD_NUMBERS),
      method: fc.constantFrom(...(otherMethods.length > 0 ? otherMethods : ['PUT'])),
      pick: fc.nat(),
    })
    .map((g) => build(op, credentials, g.mutation, g, targets));
}

function build(
  op: Operation,
  credentials: Credentials,
  mutation: Mutation,
  g: {
    params: Record<string, unknown>;
    body: unknown;
    wrong: unknown;
    nasty: string;
    broken: { label: string; bytes: Buffer; bounded?: true };
    trick: string;
    url: string;
    number: string;
    forged: { label: string; headers: Record<string, string> };
    method: string;
    pick: number;
  },
  targets: MutationTargets,
): FuzzRequest {
  const secured = op.security.length > 0;
  const headers: Record<string, string> = {};
  let forged = false;
  let label: string = mutation;
  if (mutation === 'forged credentials' && secured) {
    Object.assign(headers, g.forged.headers);
    forged = true;
    label = `forged credentials: ${g.forged.label}`;
  } else {
    const scheme = op.security.find((s) => credentials[s] !== undefined);
    const credential = scheme === undefined ? undefined : credentials[scheme];
    if (typeof credential === 'string') headers.authorization = credential;
    else if (credential) Object.assign(headers, credential);
  }

  // Parameters as text; a trick replaces one of them.
  const texts = new Map<Parameter, string>();
  for (const p of op.parameters) {
    const value = g.params[p.name];
    if (value !== undefined)
      texts.set(p, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const tricked = op.parameters.filter((p) => p.in !== 'header')[
    g.pick % Math.max(1, op.parameters.filter((p) => p.in !== 'header').length)
  ];
  const rawPathValues = new Map<Parameter, string>();
  let schemaRefuses = false;
  if (mutation === 'parameter trick' && tricked) {
    rawPathValues.set(tricked, g.trick);
    let decoded: string | undefined;
    try {
      decoded = decodeURIComponent(g.trick);
    } catch {
      decoded = undefined; // not decodable: the router's business, no 2xx claim either way
    }
    if (decoded !== undefined && tricked.in !== 'path') texts.set(tricked, decoded);
    // '/' or '..' may make another path, and so may nothing in a path segment
    // ('/internal/v1/accounts/' is the list): no claim about this operation's schema then.
    const changesPath =
      g.trick.includes('%2F') ||
      g.trick.includes('..') ||
      (tricked.in === 'path' && g.trick === '');
    if (decoded !== undefined && !changesPath) {
      schemaRefuses ||= !paramAdmits(tricked, decoded);
    }
    label = `parameter trick: ${tricked.name}=${g.trick.slice(0, 40)}`;
  }
  const numberParams = op.parameters.filter(
    (p) => p.in !== 'header' && isPhoneLike(p.name, p.schema),
  );
  const numberParam = numberParams[g.pick % Math.max(1, numberParams.length)];
  if (mutation === 'bad number' && numberParam && targets.numbers.length === 0) {
    texts.set(numberParam, g.number);
    schemaRefuses ||= !paramAdmits(numberParam, g.number);
    label = `bad number: ${numberParam.name}=${g.number}`;
  }
  for (const p of op.parameters) {
    const text = texts.get(p);
    if (p.in === 'header' && text !== undefined && !/^content-(encoding|type)$/i.test(p.name)) {
      // Header values must be latin-1 without control characters, or the client refuses them.
      if (/^[\x20-\x7e]*$/.test(text)) headers[p.name.toLowerCase()] = text;
    }
  }
  let path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const p = op.parameters.find((q) => q.in === 'path' && q.name === name);
    if (!p) return name;
    return rawPathValues.get(p) ?? encodeURIComponent(texts.get(p) ?? 'x');
  });
  const query = op.parameters
    .filter((p) => p.in === 'query')
    .flatMap((p) => {
      if (rawPathValues.has(p)) return [`${encodeURIComponent(p.name)}=${rawPathValues.get(p)}`];
      const text = texts.get(p);
      return text === undefined
        ? []
        : [`${encodeURIComponent(p.name)}=${encodeURIComponent(text)}`];
    });
  if (query.length > 0) path += `?${query.join('&')}`;
  let method = op.method.toUpperCase();
  if (mutation === 'odd method') {
    method = g.method;
    schemaRefuses = true;
    label = `odd method ${method}`;
  }
  if (mutation === 'path trick') {
    const tricks = [
      (p: string) => p.replace(/^\/([^/]+)\//, '/$1//'),
      (p: string) => `${p.split('?')[0]}/`,
      (p: string) => p.replace(/^\/([^/]+)\//, '/$1/./'),
      (p: string) => p.replace(/^\/([^/]+)\//, '/$1/x/../'),
      (p: string) => `${p.split('?')[0]}%00`,
      (p: string) => `${p}${p.includes('?') ? '&' : '?'}${'q=%00&'.repeat(200)}`,
    ];
    const trick = tricks[g.pick % tricks.length] as (p: string) => string;
    path = trick(path);
    label = `path trick: ${path.slice(0, 80)}`;
  }

  // Body.
  let body: Buffer | undefined;
  const bodySchema = op.body?.content['application/json'];
  if (op.body && bodySchema) {
    headers['content-type'] = 'application/json';
    let value = g.body;
    const members = memberPaths(value);
    if (mutation === 'wrong type in body') {
      const at = members.length > 0 ? members[g.pick % members.length] : [];
      value = replaceAt(value, at ?? [], g.wrong);
      label = `wrong type in body at ${JSON.stringify(at)}: ${JSON.stringify(g.wrong)?.slice(0, 40)}`;
    }
    if (mutation === 'nasty string in body') {
      const strings = members.filter((m) => typeof pathValue(value, m) === 'string');
      const at =
        strings.length > 0
          ? strings[g.pick % strings.length]
          : members[g.pick % Math.max(1, members.length)];
      value = replaceAt(value, at ?? [], g.nasty);
      label = `nasty string in body at ${JSON.stringify(at)}: ${JSON.stringify(g.nasty).slice(0, 40)}`;
    }
    if (mutation === 'hostile URL') {
      const at = targets.urls[g.pick % Math.max(1, targets.urls.length)];
      if (at) {
        value = replaceAt(value, at, g.url);
        // Every client URL is one rule (RFC 3986 text, no address inside our network).
        schemaRefuses = true;
        label = `hostile URL at ${JSON.stringify(at)}: ${JSON.stringify(g.url)}`;
      }
    }
    if (mutation === 'bad number') {
      const at = targets.numbers[g.pick % Math.max(1, targets.numbers.length)];
      if (at) {
        value = replaceAt(value, at, g.number);
        label = `bad number at ${JSON.stringify(at)}: ${g.number}`;
      }
    }
    let bytes: Buffer = Buffer.from(JSON.stringify(value) ?? '');
    let parsed: { ok: boolean; value?: unknown } = { ok: true, value };
    if (mutation === 'broken body') {
      bytes = g.broken.bytes;
      label = `broken body: ${g.broken.label}`;
      try {
        parsed = { ok: true, value: JSON.parse(bytes.toString('utf8')) };
      } catch {
        parsed = { ok: false };
      }
    }
    schemaRefuses ||=
      !parsed.ok ||
      !validates(bodySchema, parsed.value) ||
      Boolean(mutation === 'broken body' && g.broken.bounded);
    body = encodeBody(op, bytes, headers);
  }
  return {
    method,
    path,
    headers,
    ...(body && { body }),
    mutation: label,
    schemaRefuses,
    forged: forged,
  };
}

/**
 * The first unmutated request again with a slash after its path: Express routes it to the same
 * operation, so it must be answered as promptly (it once made createBatch wait for a body its
 * parser had already read, a 504 after 30 s). Added to every operation's sample, not left to the
 * odds of the 'path trick' mutation.
 */
export function trailingSlashed(requests: FuzzRequest[]): FuzzRequest[] {
  const plain = requests.find((r) => r.mutation === 'none');
  if (!plain) return [];
  const [path = '', query] = plain.path.split(/\?(.*)/s);
  const slashed = `${path}/${query === undefined ? '' : `?${query}`}`;
  return [{ ...plain, path: slashed, mutation: 'trailing slash' }];
}

/** Body members a mutation aims at (paths as memberPaths gives them). */
interface MutationTargets {
  urls: (string | number)[][];
  numbers: (string | number)[][];
}

/** A member the client gives a URL to call back in (declared `format: callback-url`). */
function isClientUrlMember(_name: string, schema: Schema): boolean {
  return schema.format === 'callback-url';
}

/** A member or parameter holding a phone number: by its E.164 pattern, or by its name. */
function isPhoneLike(name: string, schema: Schema): boolean {
  if (schema.pattern === E164_PATTERN_SOURCE || schema.pattern === E164_DIGITS_PATTERN_SOURCE) {
    return true;
  }
  return /^(to|msisdn|phone_?number|number)$/i.test(name) && schemaTypes(schema).includes('string');
}

function schemaTypes(schema: Schema): string[] {
  return Array.isArray(schema.type) ? (schema.type as string[]) : [String(schema.type)];
}

/** Paths (arrays through their first entry) to the body members `where` picks, 6 levels deep. */
function memberPathsWhere(
  op: Operation,
  where: (name: string, schema: Schema) => boolean,
): (string | number)[][] {
  const found: (string | number)[][] = [];
  const walk = (schema: Schema | undefined, at: (string | number)[]) => {
    if (!schema || at.length > 6) return;
    for (const part of [schema.allOf, schema.oneOf, schema.anyOf]) {
      if (Array.isArray(part)) for (const s of part as Schema[]) walk(s, at);
    }
    if (schema.items) walk(schema.items as Schema, [...at, 0]);
    for (const [name, property] of Object.entries(
      (schema.properties ?? {}) as Record<string, Schema>,
    )) {
      if (where(name, property)) found.push([...at, name]);
      else walk(property, [...at, name]);
    }
  };
  walk(op.body?.content['application/json'], []);
  return [...new Map(found.map((path) => [JSON.stringify(path), path])).values()];
}

function pathValue(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], value);
}

/**
 * What is wrong with an answer, or undefined: a 5xx; a 2xx the schema or the credentials should
 * have refused; an error whose media type or body is not the one the document declares for it.
 */
export function judge(op: Operation, request: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500) return `${answer.status} (server error)`;
  if (answer.status < 300 && request.schemaRefuses)
    return `${answer.status} for a request the schema refuses`;
  if (answer.status < 300 && request.forged) return `${answer.status} with forged credentials`;
  if (answer.status < 400 || request.method === 'HEAD') return undefined;
  const declared = declaredResponse(op, answer.status);
  if (!declared || Object.keys(declared).length === 0) return undefined;
  const mediaType = answer.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const schema = declared[mediaType];
  if (!schema) {
    return `${answer.status} as "${answer.contentType}", not ${Object.keys(declared).join(' or ')}`;
  }
  let body: unknown = answer.body;
  // A form-encoded answer (text-to-voice's legacy interface) is its text; the rest is JSON.
  if (mediaType !== 'application/x-www-form-urlencoded') {
    try {
      body = JSON.parse(answer.body);
    } catch {
      return `${answer.status} with a body that is not JSON`;
    }
  }
  if (!validates(schema, body)) {
    return `${answer.status} with a body not in the declared error format: ${ajvErrors(schema)}`;
  }
  return undefined;
}

function ajvErrors(schema: Schema): string {
  return ajv.errorsText(validators.get(schema)?.errors ?? []);
}
