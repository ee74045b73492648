import winston from 'winston';

export type Logger = winston.Logger;

/**
 * Keys whose values never reach a log line: credentials, and personal data a messaging platform
 * carries (phone numbers and message text). Matched case-insensitively on the key name.
 */
const REDACTED_KEYS =
  /^(password|pass|secret|client_secret|token|access_token|authorization|api_?key|x-api-key|to|from|msg|message|text|msisdn|phone|phone_number|number|recipient)$/i;

function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value instanceof Error)
    return { name: value.name, message: value.message, stack: value.stack };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = REDACTED_KEYS.test(k) ? '[redacted]' : redact(v, depth + 1);
  }
  return out;
}

const redactFormat = winston.format((info) => {
  for (const key of Object.keys(info)) {
    if (key === 'level' || key === 'message') continue;
    info[key] = REDACTED_KEYS.test(key) ? '[redacted]' : redact(info[key]);
  }
  return info;
});

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Output stream; defaults to stdout. Tests pass their own to read the lines. */
  stream?: NodeJS.WritableStream;
}

/** JSON-lines logger. Use `logger.child({ requestId, accountId })` for per-request context. */
export function createLogger({ service, level = 'info', stream }: LoggerOptions): Logger {
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(
      redactFormat(),
      winston.format.timestamp(),
      winston.format.json(),
    ),
    transports: [
      stream ? new winston.transports.Stream({ stream }) : new winston.transports.Console(),
    ],
  });
}
