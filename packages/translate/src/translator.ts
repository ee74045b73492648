import got, { type Got, RequestError } from 'got';
import { libreTranslateCode } from './libretranslate-languages.js';
import { TranslationError } from './translation-error.js';

export interface TranslatorOptions {
  /** Base URL of a LibreTranslate-compatible server, e.g. http://127.0.0.1:5000 */
  url: string;
  /** Sent as `api_key` when set. */
  apiKey?: string;
  /** Limit for each HTTP request (the language list and the translation); default 10 s. */
  timeoutMs?: number;
}

export interface Translator {
  /** Translates plain text between two tags of spec 2.6; throws TranslationError. */
  translate(text: string, languages: { source: string; target: string }): Promise<string>;
}

interface LanguageEntry {
  code: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * A client of the LibreTranslate HTTP API (`POST /translate`, `GET /languages`). The language
 * list is read once, on first use, to choose between old and new spellings of a code (pb or
 * pt-BR); if it cannot be read the usual codes are sent and the server decides.
 * No retries: a failed translation is the caller's decision (README).
 */
export function createTranslator(options: TranslatorOptions): Translator {
  const client: Got = got.extend({
    prefixUrl: options.url.replace(/\/+$/, ''),
    timeout: { request: options.timeoutMs ?? DEFAULT_TIMEOUT_MS },
    retry: { limit: 0 },
    throwHttpErrors: false,
  });
  let languages: Promise<ReadonlySet<string> | undefined> | undefined;

  const loadLanguages = async (): Promise<ReadonlySet<string> | undefined> => {
    try {
      const response = await client.get('languages', { responseType: 'json' });
      const body = response.body;
      if (response.statusCode !== 200 || !Array.isArray(body)) return undefined;
      return new Set(
        (body as LanguageEntry[])
          .filter((entry) => typeof entry?.code === 'string')
          .map((entry) => entry.code.toLowerCase()),
      );
    } catch {
      return undefined;
    }
  };

  const codeFor = (tag: string, available: ReadonlySet<string> | undefined) => {
    const code = libreTranslateCode(tag, available);
    if (code === undefined) {
      throw new TranslationError('unsupported_language', `the translator does not offer ${tag}`);
    }
    return code;
  };

  return {
    async translate(text, { source, target }) {
      languages ??= loadLanguages();
      const available = await languages;
      const json = {
        q: text,
        source: codeFor(source, available),
        target: codeFor(target, available),
        format: 'text',
        ...(options.apiKey !== undefined && { api_key: options.apiKey }),
      };
      let response: { statusCode: number; body: unknown };
      try {
        response = await client.post('translate', { json, responseType: 'json' });
      } catch (error) {
        throw transportError(error);
      }
      return translatedText(response.statusCode, response.body);
    },
  };
}

function transportError(error: unknown): TranslationError {
  if (error instanceof RequestError && error.code === 'ETIMEDOUT') {
    return new TranslationError('timeout', 'the translator did not answer in time', undefined, {
      cause: error,
    });
  }
  // A body that is not JSON surfaces here as a ParseError (a RequestError) too.
  const status = error instanceof RequestError ? error.response?.statusCode : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return new TranslationError('unavailable', `the translator failed: ${message}`, status, {
    cause: error,
  });
}

function translatedText(status: number, body: unknown): string {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (status === 200) {
    if (typeof fields.translatedText === 'string' && fields.translatedText.trim() !== '') {
      return fields.translatedText;
    }
    throw new TranslationError(
      'unavailable',
      'the translator answered without translatedText',
      status,
    );
  }
  const detail = typeof fields.error === 'string' ? fields.error : `HTTP ${status}`;
  const failure =
    status === 400
      ? 'bad_request'
      : status === 403
        ? 'forbidden'
        : status === 429
          ? 'rate_limited'
          : 'unavailable';
  throw new TranslationError(failure, `the translator refused: ${detail}`, status);
}
