import { deadUrl, listenLocal } from '@msg/testing';
import { startTranslateSimulator, type TranslateSimulator } from '@msg/translate-simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTranslator, TranslationError } from '../src/index.js';

let simulator: TranslateSimulator;
let keyed: TranslateSimulator;

beforeAll(async () => {
  [simulator, keyed] = await Promise.all([
    startTranslateSimulator(),
    startTranslateSimulator({ apiKeys: ['right-key'], languages: ['en', 'sv', 'de', 'pb', 'zh'] }),
  ]);
});
afterAll(() => Promise.all([simulator.close(), keyed.close()]));
beforeEach(() => {
  simulator.reset();
  keyed.reset();
});

const failureOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TranslationError);
  const { failure, status, message } = error as TranslationError;
  return { failure, status, message };
};

describe('createTranslator against the LibreTranslate simulator', () => {
  it('when English is translated to Swedish, then the translated text comes back with its digits', async () => {
    const translator = createTranslator({ url: simulator.url });
    await expect(
      translator.translate('Hello, your code is 4711.', { source: 'en-GB', target: 'sv' }),
    ).resolves.toBe('Hej, din kod är 4711.');
    expect(simulator.requests()).toEqual([
      expect.objectContaining({
        q: 'Hello, your code is 4711.',
        source: 'en',
        target: 'sv',
        format: 'text',
        apiKey: false,
      }),
    ]);
  });

  it('when the server lists pt-BR and zh-Hans, then those codes are sent for pt-BR and zh', async () => {
    const translator = createTranslator({ url: `${simulator.url}/` });
    await translator.translate('Olá a todos', { source: 'pt-BR', target: 'zh' });
    expect(simulator.requests()[0]).toEqual(
      expect.objectContaining({ source: 'pt-BR', target: 'zh-Hans' }),
    );
  });

  it('when an older server lists pb and zh, then pb and zh are sent', async () => {
    const translator = createTranslator({ url: keyed.url, apiKey: 'right-key' });
    await translator.translate('Olá a todos', { source: 'pt-BR', target: 'zh' });
    expect(keyed.requests()[0]).toEqual(
      expect.objectContaining({ source: 'pb', target: 'zh', apiKey: true }),
    );
  });

  it('when the server does not offer a language, then unsupported_language is thrown without a translation request', async () => {
    const translator = createTranslator({ url: keyed.url, apiKey: 'right-key' });
    expect(
      await failureOf(translator.translate('Bonjour à tous', { source: 'fr', target: 'sv' })),
    ).toEqual({
      failure: 'unsupported_language',
      status: undefined,
      message: 'the translator does not offer fr',
    });
    expect(keyed.requests()).toEqual([]);
  });

  it('when the server refuses the request, then bad_request carries its 400 error', async () => {
    const translator = createTranslator({ url: simulator.url });
    simulator.setFault({ status: 400, error: 'af is not supported' });
    expect(
      await failureOf(translator.translate('Goeie môre', { source: 'nl', target: 'sv' })),
    ).toEqual({
      failure: 'bad_request',
      status: 400,
      message: 'the translator refused: af is not supported',
    });
  });

  it('when the API key is wrong, then forbidden carries the 403', async () => {
    const translator = createTranslator({ url: keyed.url, apiKey: 'wrong-key' });
    expect(
      await failureOf(translator.translate('hello', { source: 'en-US', target: 'sv' })),
    ).toEqual({
      failure: 'forbidden',
      status: 403,
      message: 'the translator refused: Invalid API key',
    });
  });

  it('when the API key is missing on a server that requires one, then bad_request says so', async () => {
    const translator = createTranslator({ url: keyed.url });
    expect(
      await failureOf(translator.translate('hello', { source: 'en-US', target: 'sv' })),
    ).toEqual({
      failure: 'bad_request',
      status: 400,
      message: 'the translator refused: Please contact the server operator to get an API key',
    });
  });

  it('when the server answers 429 or 500, then rate_limited or unavailable is thrown', async () => {
    const translator = createTranslator({ url: simulator.url });
    simulator.setFault({ status: 429 });
    expect(
      (await failureOf(translator.translate('hello', { source: 'en-GB', target: 'de' }))).failure,
    ).toBe('rate_limited');
    simulator.setFault({ status: 500 });
    expect(
      await failureOf(translator.translate('hello', { source: 'en-GB', target: 'de' })),
    ).toEqual({
      failure: 'unavailable',
      status: 500,
      message: 'the translator refused: Cannot translate text: simulated failure',
    });
  });

  it('when the server is slower than timeoutMs, then timeout is thrown', async () => {
    const translator = createTranslator({ url: simulator.url, timeoutMs: 300 });
    await translator.translate('hello', { source: 'en-GB', target: 'de' }); // reads /languages first
    simulator.setFault({ delayMs: 2000 });
    expect(
      await failureOf(translator.translate('hello', { source: 'en-GB', target: 'de' })),
    ).toEqual({
      failure: 'timeout',
      status: undefined,
      message: 'the translator did not answer in time',
    });
  });

  it('when nothing listens, then unavailable is thrown', async () => {
    const translator = createTranslator({ url: await deadUrl(), timeoutMs: 2000 });
    expect(
      (await failureOf(translator.translate('hello', { source: 'en-GB', target: 'de' }))).failure,
    ).toBe('unavailable');
  });

  it('when the server has no language list, then the classic codes are sent and its answer is used', async () => {
    const bodies: unknown[] = [];
    const server = await listenLocal((req, res) => {
      if (req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      let raw = '';
      req.on('data', (chunk) => {
        raw += chunk;
      });
      req.on('end', () => {
        bodies.push(JSON.parse(raw));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"translatedText":"Hei"}');
      });
    });
    try {
      const translator = createTranslator({ url: server.url, apiKey: 'k1' });
      await expect(translator.translate('Hej', { source: 'sv', target: 'no' })).resolves.toBe(
        'Hei',
      );
      expect(bodies).toEqual([
        { q: 'Hej', source: 'sv', target: 'nb', format: 'text', api_key: 'k1' },
      ]);
    } finally {
      await server.close();
    }
  });

  it('when the server answers 200 without translatedText, then unavailable is thrown', async () => {
    const server = await listenLocal((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"Hei"}');
    });
    try {
      const translator = createTranslator({ url: server.url });
      expect(
        (await failureOf(translator.translate('Hej', { source: 'sv', target: 'no' }))).failure,
      ).toBe('unavailable');
    } finally {
      await server.close();
    }
  });
});
