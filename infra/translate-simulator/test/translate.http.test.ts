import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTranslateSimulator, type TranslateSimulator } from '../src/index.js';
import { call } from './support.js';

let simulator: TranslateSimulator;
const translate = (body: unknown) => call(`${simulator.url}/translate`, { method: 'POST', body });

beforeAll(async () => {
  simulator = await startTranslateSimulator();
});
afterAll(() => simulator.close());
beforeEach(() => simulator.reset());

describe('POST /translate', () => {
  it('when English covered by the dictionary goes to Swedish, then it is translated with digits kept', async () => {
    const { status, body } = await translate({
      q: 'Hello, your code is 4711.',
      source: 'en',
      target: 'sv',
      format: 'text',
    });
    expect(status).toBe(200);
    expect(body).toEqual({ translatedText: 'Hej, din kod är 4711.' });
  });

  it('when Swedish goes to English and German goes to English, then the dictionary works backwards', async () => {
    expect((await translate({ q: 'Hej då', source: 'sv', target: 'en' })).body).toEqual({
      translatedText: 'Goodbye',
    });
    expect(
      (
        await translate({
          q: 'Ihr Termin beim Zahnarzt ist morgen um 15:30.',
          source: 'de',
          target: 'en',
        })
      ).body,
    ).toEqual({ translatedText: 'Your appointment with the dentist is tomorrow at 15:30.' });
  });

  it('when a word is outside the dictionary, then the answer is the marked rendering of the text', async () => {
    const { body } = await translate({ q: 'Hello Anna, code 12', source: 'en', target: 'de' });
    expect(body).toEqual({ translatedText: '[en→de] Hello Anna, code 12' });
    const other = await translate({ q: 'Bonjour', source: 'fr', target: 'sv' });
    expect(other.body).toEqual({ translatedText: '[fr→sv] Bonjour' });
  });

  it('when source is auto, then the dictionary language is detected and reported', async () => {
    const { body } = await translate({ q: 'Tack, hej då', source: 'auto', target: 'en' });
    expect(body).toEqual({
      translatedText: 'Thank you, goodbye',
      detectedLanguage: { confidence: 90, language: 'sv' },
    });
  });

  it('when codes are upper-case, then they are read case-insensitively', async () => {
    expect((await translate({ q: 'Danke', source: 'DE', target: 'EN' })).body).toEqual({
      translatedText: 'Thank you',
    });
  });

  it('when q is a list, then translatedText is a list in the same order', async () => {
    const { body } = await translate({ q: ['hello', 'thank you'], source: 'en', target: 'sv' });
    expect(body).toEqual({ translatedText: ['hej', 'tack'] });
  });

  it('when the body is form-encoded, then it is read like JSON (as LibreTranslate does)', async () => {
    const { status, body } = await call(`${simulator.url}/translate`, {
      method: 'POST',
      form: { q: 'welcome', source: 'en', target: 'de' },
    });
    expect(status).toBe(200);
    expect(body).toEqual({ translatedText: 'willkommen' });
  });

  it('when model codes pb or zh are sent, then they name pt-BR and zh-Hans', async () => {
    expect((await translate({ q: 'Olá', source: 'pb', target: 'zh' })).body).toEqual({
      translatedText: '[pt-BR→zh-Hans] Olá',
    });
  });

  it.each([
    [{ source: 'en', target: 'sv' }, 'Invalid request: missing q parameter'],
    [{ q: '', source: 'en', target: 'sv' }, 'Invalid request: missing q parameter'],
    [{ q: 'hello', target: 'sv' }, 'Invalid request: missing source parameter'],
    [{ q: 'hello', source: 'en' }, 'Invalid request: missing target parameter'],
    [{ q: 'hello', source: 'xx', target: 'sv' }, 'xx is not supported'],
    [{ q: 'hello', source: 'en', target: 'en-GB' }, 'en-gb is not supported'],
    [{ q: 'hello', source: 'en', target: 'sv', format: 'ssml' }, 'ssml format is not supported'],
  ])('when the request is %j, then 400 {error: %s}', async (request, error) => {
    const { status, body } = await translate(request);
    expect(status).toBe(400);
    expect(body).toEqual({ error });
  });

  it('when the body is not JSON, then 400 with an error body', async () => {
    const { status, body } = await call(`${simulator.url}/translate`, {
      method: 'POST',
      body: '{"q":',
    });
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'Invalid JSON format' });
  });

  it('when a fault of 500 is set for one request, then that request fails and the next succeeds', async () => {
    simulator.setFault({ status: 500 });
    const failed = await translate({ q: 'hello', source: 'en', target: 'sv' });
    expect(failed).toEqual({
      status: 500,
      body: { error: 'Cannot translate text: simulated failure' },
    });
    expect((await translate({ q: 'hello', source: 'en', target: 'sv' })).status).toBe(200);
  });

  it('when requests arrive, then the control API lists them without api keys', async () => {
    await translate({ q: 'hello', source: 'en', target: 'sv', api_key: 'k' });
    await translate({ source: 'en', target: 'sv' });
    const { body } = await call(`${simulator.url}/control/requests`);
    expect(body).toEqual({
      requests: [
        expect.objectContaining({
          q: 'hello',
          source: 'en',
          target: 'sv',
          status: 200,
          apiKey: true,
        }),
        expect.objectContaining({ source: 'en', target: 'sv', status: 400, apiKey: false }),
      ],
    });
    expect(JSON.stringify(body)).not.toContain('"k"');
    expect((await call(`${simulator.url}/control/requests`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect(simulator.requests()).toEqual([]);
  });

  it('when a fault is set through the control API, then it applies to the next request', async () => {
    const set = await call(`${simulator.url}/control/fault`, {
      method: 'PUT',
      body: { status: 503, error: 'maintenance' },
    });
    expect(set.status).toBe(204);
    expect(await translate({ q: 'hello', source: 'en', target: 'sv' })).toEqual({
      status: 503,
      body: { error: 'maintenance' },
    });
    const bad = await call(`${simulator.url}/control/fault`, {
      method: 'PUT',
      body: { status: 'x' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('GET /languages and /health', () => {
  it('when languages are listed, then each entry has code, name and targets in LibreTranslate form', async () => {
    const { status, body } = await call(`${simulator.url}/languages`);
    expect(status).toBe(200);
    const list = body as Array<{ code: string; name: string; targets: string[] }>;
    expect(list).toContainEqual({
      code: 'sv',
      name: 'Swedish',
      targets: expect.arrayContaining(['en', 'de']),
    });
    expect(list.map((entry) => entry.code)).toEqual(
      expect.arrayContaining(['en', 'nb', 'pt-BR', 'zh-Hans']),
    );
    expect(await call(`${simulator.url}/health`)).toEqual({ status: 200, body: { status: 'ok' } });
  });
});

describe('API keys and limits', () => {
  let keyed: TranslateSimulator;
  beforeAll(async () => {
    keyed = await startTranslateSimulator({
      apiKeys: ['good-key'],
      requestsPerMinute: 4,
      charLimit: 20,
    });
  });
  afterAll(() => keyed.close());
  const post = (body: unknown) => call(`${keyed.url}/translate`, { method: 'POST', body });

  it('when keys are required, then a wrong key is 403, a missing key 400, the right key 200, and the 5th request of the minute 429', async () => {
    const request = { q: 'hello', source: 'en', target: 'sv' };
    expect(await post({ ...request, api_key: 'bad' })).toEqual({
      status: 403,
      body: { error: 'Invalid API key' },
    });
    expect(await post(request)).toEqual({
      status: 400,
      body: { error: 'Please contact the server operator to get an API key' },
    });
    expect(await post({ ...request, q: 'x'.repeat(21), api_key: 'good-key' })).toEqual({
      status: 400,
      body: { error: 'Invalid request: request (21) exceeds text limit (20)' },
    });
    expect(await post({ ...request, api_key: 'good-key' })).toEqual({
      status: 200,
      body: { translatedText: 'hej' },
    });
    expect(await post({ ...request, api_key: 'good-key' })).toEqual({
      status: 429,
      body: { error: 'Slowdown: 4 per 1 minute' },
    });
  });
});
