import { checkedDefault, envField, splitList } from './env-field.js';

/**
 * Field helpers for config schemas whose keys are environment variable names. Each carries a
 * generic description of its format; services override it with `.describe()` to say what the
 * setting is for. Defaults are given in natural types and stored in the form an operator types.
 */

function field<T>(rule: string, parse: (raw: string) => T | undefined, fallback?: string) {
  const base = envField(rule, parse);
  return fallback === undefined ? base : base.prefault(checkedDefault(rule, parse, fallback));
}

function integerRule(min?: number, max?: number): string {
  if (min !== undefined && max !== undefined)
    return `expected an integer between ${min} and ${max}`;
  if (min !== undefined) return `expected an integer of at least ${min}`;
  if (max !== undefined) return `expected an integer of at most ${max}`;
  return 'expected an integer';
}

function parseInteger(min?: number, max?: number) {
  return (raw: string): number | undefined => {
    // Number('') is 0 and Number('1e3') is 1000; env values must be plain decimal integers.
    if (!/^-?\d+$/.test(raw)) return undefined;
    const value = Number(raw);
    if (!Number.isSafeInteger(value)) return undefined;
    if (min !== undefined && value < min) return undefined;
    if (max !== undefined && value > max) return undefined;
    return value;
  };
}

export interface IntOptions {
  min?: number;
  max?: number;
  default?: number;
}

export function int(options: IntOptions = {}) {
  const { min, max } = options;
  const fallback = options.default === undefined ? undefined : String(options.default);
  return field(integerRule(min, max), parseInteger(min, max), fallback).describe('integer');
}

export function port(defaultPort?: number) {
  const fallback = defaultPort === undefined ? undefined : String(defaultPort);
  // 0 asks the OS for a free port: tests and the embedded suite run many servers side by side.
  return field(integerRule(0, 65535), parseInteger(0, 65535), fallback).describe(
    'TCP port (0 picks a free one)',
  );
}

export interface UrlOptions {
  /** Allowed schemes with their colon, e.g. ['postgres:', 'postgresql:']; any when absent. */
  protocols?: readonly string[];
}

export function url(options: UrlOptions = {}) {
  const { protocols } = options;
  const rule = protocols
    ? `expected an absolute URL with scheme ${protocols.map((p) => p.replace(/:$/, '')).join(' or ')}`
    : 'expected an absolute URL';
  // The raw string is kept rather than URL.href: normalising would add a trailing slash to
  // some URLs, which changes what clients such as pg or fetch receive.
  const parse = (raw: string) => {
    if (!URL.canParse(raw)) return undefined;
    if (protocols && !protocols.includes(new URL(raw).protocol)) return undefined;
    return raw;
  };
  return field(rule, parse).describe('absolute URL');
}

export function csv(defaultList?: readonly string[]) {
  const rule = 'expected a comma-separated list with at least one entry';
  const parse = (raw: string) => {
    const list = splitList(raw);
    return list.length > 0 ? list : undefined;
  };
  return field(rule, parse, defaultList?.join(',')).describe('comma-separated list');
}

const BOOLEANS: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
};

export function bool(defaultValue: boolean) {
  const rule = 'expected true, false, 1 or 0';
  const parse = (raw: string) => BOOLEANS[raw.toLowerCase()];
  return field(rule, parse, String(defaultValue)).describe('boolean (true, false, 1 or 0)');
}

const DURATION_UNITS_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

export function durationMs(defaultValue?: string | number) {
  const rule = 'expected a duration such as 500ms, 5s, 2m, 1h or a number of milliseconds';
  const parse = (raw: string) => {
    const match = /^(\d+)(ms|s|m|h)?$/.exec(raw);
    if (!match) return undefined;
    const value = Number(match[1]) * (DURATION_UNITS_MS[match[2] ?? 'ms'] ?? 1);
    return Number.isSafeInteger(value) ? value : undefined;
  };
  const fallback = defaultValue === undefined ? undefined : String(defaultValue);
  return field(rule, parse, fallback).describe('duration in milliseconds (500ms, 5s, 2m, 1h)');
}

export function enumOf<const T extends readonly [string, ...string[]]>(
  values: T,
  defaultValue?: T[number],
) {
  const rule = `expected one of ${values.join(', ')}`;
  const parse = (raw: string): T[number] | undefined => values.find((value) => value === raw);
  return field(rule, parse, defaultValue).describe(`one of ${values.join(', ')}`);
}

/** winston's npm levels, which is what @msg/logger uses. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function logLevel(defaultLevel?: LogLevel) {
  return enumOf(LOG_LEVELS, defaultLevel).describe(`log level (${LOG_LEVELS.join(', ')})`);
}

/**
 * A credential: required, non-empty, and never given a default (a default secret ends up in
 * every deployment that forgot to set it). loadConfig refuses a schema in which a field marked
 * secret has a default, and never prints a secret's value in a problem message.
 */
export function secret() {
  const parse = (raw: string) => (raw.length > 0 ? raw : undefined);
  return envField('expected a non-empty value', parse).meta({ secret: true }).describe('secret');
}
