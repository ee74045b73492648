import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SipCallee, startSipCallee } from '../src/index.js';
import { control } from './support.js';

let callee: SipCallee;

beforeAll(async () => {
  callee = await startSipCallee({ defaultBehaviour: 'machine' });
});
afterAll(() => callee.close());

describe('GET /calls', () => {
  it('when no call was made, then the list is empty', async () => {
    expect(await control(`${callee.controlUrl}/calls`)).toEqual({ status: 200, body: [] });
  });

  it('when the id is unknown, then GET /calls/{id} is 404 naming the id', async () => {
    const answer = await control(`${callee.controlUrl}/calls/nope`);
    expect(answer).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect((answer.body as { message: string }).message).toMatch(/^id:/);
  });
});

describe('PUT /rules/{number}', () => {
  it('when the behaviour is known, then the rule is kept and listed with the default', async () => {
    const put = await control(`${callee.controlUrl}/rules/46701111111`, {
      method: 'PUT',
      body: { behaviour: 'busy' },
    });
    expect(put).toEqual({ status: 200, body: { number: '46701111111', behaviour: 'busy' } });
    expect((await control(`${callee.controlUrl}/rules`)).body).toEqual({
      defaultBehaviour: 'machine',
      rules: { '46701111111': 'busy' },
    });
  });

  it.each([[{ behaviour: 'asleep' }], [{}], [{ behaviour: 486 }]])(
    'when the body is %j, then 400 names the behaviour field and its values',
    async (body) => {
      const answer = await control(`${callee.controlUrl}/rules/46701111111`, {
        method: 'PUT',
        body,
      });
      expect(answer.status).toBe(400);
      expect((answer.body as { message: string }).message).toBe(
        'behaviour: expected one of human, machine, busy, ring, reject, unavailable, busy-then-human',
      );
    },
  );

  it('when the body is not JSON, then the answer is 400, not 500', async () => {
    const response = await fetch(`${callee.controlUrl}/rules/46701111111`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"behaviour":',
    });
    expect(response.status).toBe(400);
  });

  it('when the body is larger than 4 kB, then 413 says so', async () => {
    const answer = await control(`${callee.controlUrl}/rules/46701111111`, {
      method: 'PUT',
      body: { behaviour: 'human', padding: 'x'.repeat(5000) },
    });
    expect(answer).toEqual({
      status: 413,
      body: { error: 'payload_too_large', message: 'body: at most 4 kB' },
    });
  });
});

describe('DELETE /rules/{number}', () => {
  it('when no rule exists, then 404', async () => {
    const answer = await control(`${callee.controlUrl}/rules/46709999999`, { method: 'DELETE' });
    expect(answer.status).toBe(404);
  });
});

describe('DELETE /calls', () => {
  it('when called, then 204', async () => {
    expect((await control(`${callee.controlUrl}/calls`, { method: 'DELETE' })).status).toBe(204);
  });
});

describe('unknown paths', () => {
  it('when the path is unknown, then 404 in the same error format', async () => {
    expect(await control(`${callee.controlUrl}/nothing`)).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
  });
});
