import type { Logger } from '@msg/logger';
import express, { type NextFunction, type Request, type Response } from 'express';
import { LANGUAGE_NAMES, resolveLanguage } from './languages.js';
import { markedRendering, translateWithPhrases } from './phrases.js';
import type { Fault, SimulatorState } from './simulator-state.js';

export interface TranslateAppOptions {
  state: SimulatorState;
  logger: Logger;
  /** When set, a key is required: an unknown key is 403, a missing one 400 (as LibreTranslate). */
  apiKeys?: readonly string[];
  /** Characters per text; LibreTranslate's --char-limit. */
  charLimit?: number;
  /** Requests per minute before 429; LibreTranslate's --req-limit. */
  requestsPerMinute?: number;
  /** Languages offered (codes of LANGUAGE_NAMES); default all. */
  languages?: readonly string[];
}

type Fields = Record<string, unknown>;

/** LibreTranslate's error body: `{ "error": message }`. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The LibreTranslate API (GET /languages, POST /translate, GET /health) and, under /control,
 * the simulator's own API (no authentication: listen on loopback).
 */
export function createTranslateApp(options: TranslateAppOptions): express.Express {
  const { state, logger } = options;
  const offered = options.languages ?? Object.keys(LANGUAGE_NAMES);
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '2mb' }));
  app.use(express.urlencoded({ extended: false, limit: '2mb' }));

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/languages', (_req, res) => {
    res.json(
      offered.map((code) => ({
        code,
        name: LANGUAGE_NAMES[code] ?? code,
        targets: offered.filter((target) => target !== code),
      })),
    );
  });

  app.post('/translate', async (req: Request, res: Response) => {
    const fields: Fields = typeof req.body === 'object' && req.body !== null ? req.body : {};
    const answer = (status: number, body: unknown) => {
      state.record({
        at: new Date().toISOString(),
        method: req.method,
        path: req.path,
        status,
        q: fields.q,
        source: fields.source,
        target: fields.target,
        format: fields.format,
        apiKey: typeof fields.api_key === 'string' && fields.api_key !== '',
      });
      res.status(status).json(body);
    };
    try {
      const fault = state.takeFault();
      await applyFault(fault);
      answer(200, translate(fields, options, offered, state));
    } catch (error) {
      if (error instanceof ApiError) {
        answer(error.status, { error: error.message });
        return;
      }
      logger.error('translate failed', {
        error: error instanceof Error ? error.message : 'unknown',
      });
      answer(500, { error: 'Cannot translate text: internal error' });
    }
  });

  app.get('/control/requests', (_req, res) => {
    res.json({ requests: state.requests() });
  });
  app.delete('/control/requests', (_req, res) => {
    state.reset();
    res.status(204).end();
  });
  app.put('/control/fault', (req, res) => {
    const body: Fields = typeof req.body === 'object' && req.body !== null ? req.body : {};
    const count = body.count ?? 1;
    const valid =
      Number.isInteger(count) &&
      (body.status === undefined ||
        (Number.isInteger(body.status) && Number(body.status) >= 400)) &&
      (body.delayMs === undefined || Number.isInteger(body.delayMs)) &&
      (body.error === undefined || typeof body.error === 'string');
    if (!valid) {
      res.status(400).json({
        error: 'expected {status?: int >= 400, error?: string, delayMs?: int, count?: int}',
      });
      return;
    }
    state.setFault({ ...(body as Omit<Fault, 'count'>), count: Number(count) });
    res.status(204).end();
  });

  // Unparsable JSON and other body errors: LibreTranslate's 400 body.
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status ?? 500;
    res.status(status >= 400 && status < 500 ? status : 500).json({ error: 'Invalid JSON format' });
  });
  return app;

  async function applyFault(fault: Fault | undefined) {
    if (fault?.delayMs) await sleep(fault.delayMs);
    if (fault?.status) {
      const message =
        fault.error ??
        (fault.status === 429
          ? 'Slowdown: too many requests'
          : 'Cannot translate text: simulated failure');
      throw new ApiError(fault.status, message);
    }
  }
}

/** POST /translate, in LibreTranslate's order of checks and with its messages. */
function translate(
  fields: Fields,
  options: TranslateAppOptions,
  offered: readonly string[],
  state: SimulatorState,
) {
  if (state.overLimit(options.requestsPerMinute, Date.now())) {
    throw new ApiError(429, `Slowdown: ${options.requestsPerMinute} per 1 minute`);
  }
  if (options.apiKeys !== undefined) {
    const key = fields.api_key;
    if (typeof key === 'string' && key !== '' && !options.apiKeys.includes(key)) {
      throw new ApiError(403, 'Invalid API key');
    }
    if (typeof key !== 'string' || key === '') {
      throw new ApiError(400, 'Please contact the server operator to get an API key');
    }
  }
  const { q, source, target } = fields;
  for (const [name, value] of [
    ['q', q],
    ['source', source],
    ['target', target],
  ] as const) {
    if (
      value === undefined ||
      value === null ||
      value === '' ||
      (Array.isArray(value) && value.length === 0)
    ) {
      throw new ApiError(400, `Invalid request: missing ${name} parameter`);
    }
  }
  const texts = Array.isArray(q) ? q : [q];
  if (
    texts.some((text) => typeof text !== 'string') ||
    typeof source !== 'string' ||
    typeof target !== 'string'
  ) {
    throw new ApiError(400, 'Invalid request: q, source and target must be strings');
  }
  const charLimit = options.charLimit;
  for (const text of texts as string[]) {
    if (charLimit !== undefined && text.length > charLimit) {
      throw new ApiError(
        400,
        `Invalid request: request (${text.length}) exceeds text limit (${charLimit})`,
      );
    }
  }
  const from =
    source.toLowerCase() === 'auto'
      ? guessSource(texts as string[])
      : resolveLanguage(source, offered);
  if (from === undefined) throw new ApiError(400, `${source.toLowerCase()} is not supported`);
  const to = resolveLanguage(target, offered);
  if (to === undefined) throw new ApiError(400, `${target.toLowerCase()} is not supported`);
  const format = fields.format ?? 'text';
  if (format !== 'text' && format !== 'html')
    throw new ApiError(400, `${String(format)} format is not supported`);

  const render = (text: string) =>
    from === to ? text : (translateWithPhrases(text, from, to) ?? markedRendering(text, from, to));
  const translated = (texts as string[]).map(render);
  return {
    translatedText: Array.isArray(q) ? translated : translated[0],
    ...(source.toLowerCase() === 'auto' && {
      detectedLanguage: { confidence: 90, language: from },
    }),
  };
}

/** source "auto": the first dictionary language that covers the text, else English. */
function guessSource(texts: readonly string[]): string {
  const joined = texts.join(' ');
  for (const candidate of ['sv', 'de']) {
    if (translateWithPhrases(joined, candidate, 'en') !== undefined) return candidate;
  }
  return 'en';
}
