import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SipCallee, startSipCallee } from '../src/index.js';
import { control, countMessages, eventually, runSipp, scenario } from './support.js';

let callee: SipCallee;

beforeAll(async () => {
  callee = await startSipCallee({ timings: { ringMs: 200 } });
});
afterAll(() => callee.close());

const target = () => ({ host: callee.sipHost, port: callee.sipPort });
const ended = (service: string) =>
  eventually(() =>
    callee
      .calls()
      .filter((call) => call.to === service && call.endedAt !== undefined)
      .at(-1),
  );

/** SIPp expects `status` as the INVITE's final answer and ACKs it on the INVITE's branch. */
const refusedCall = (service: string, status: number, offer = { payload: 0, codec: 'PCMU' }) =>
  runSipp({
    target: target(),
    service,
    scenarioFile: scenario('uac-refused', { sink_port: 9, status, ...offer }),
  });

describe('refusals by suffix', () => {
  it.each([
    ['46701234486', 486, 'busy', 'busy'],
    ['46701234603', 603, 'reject', 'rejected'],
    ['46701234480', 480, 'unavailable', 'unavailable'],
  ])(
    'when %s is called, then the answer is %i (%s) and its ACK stops retransmission',
    async (service, status, behaviour, outcome) => {
      const run = await refusedCall(service, status);

      expect(run.code, run.output).toBe(0);
      // The scenario waits 2 s after its ACK: an unabsorbed ACK would show as retransmissions.
      expect(countMessages(run.messages, `SIP/2.0 ${status} `)).toBe(1);
      expect(await ended(service)).toMatchObject({ behaviour, outcome, finalStatus: status });
    },
  );
});

describe('an offer without PCMU', () => {
  it('when the INVITE offers only PCMA, then a human answers 488 Not Acceptable Here', async () => {
    const run = await refusedCall('46701234570', 488, { payload: 8, codec: 'PCMA' });

    expect(run.code, run.output).toBe(0);
    expect(await ended('46701234570')).toMatchObject({ outcome: 'failed', finalStatus: 488 });
  });
});

describe('ring', () => {
  it('when a ...000 number rings and the caller cancels, then CANCEL gets 200 and the INVITE 487', async () => {
    const run = await runSipp({
      target: target(),
      service: '46701234000',
      scenarioFile: scenario('uac-cancel', { sink_port: 9 }),
    });

    expect(run.code, run.output).toBe(0);
    expect(countMessages(run.messages, 'SIP/2.0 487 ')).toBe(1);
    expect(await ended('46701234000')).toMatchObject({
      behaviour: 'ring',
      outcome: 'cancelled',
      finalStatus: 487,
    });
  });
});

describe('a plain call (sipp -sn uac)', () => {
  it('when any other number is called, then a human answers and the caller hangs up', async () => {
    const run = await runSipp({ target: target(), service: '46701234567' });

    expect(run.code, run.output).toBe(0);
    expect(countMessages(run.messages, 'SIP/2.0 180 ')).toBe(1);
    expect(await ended('46701234567')).toMatchObject({
      behaviour: 'human',
      outcome: 'completed',
      finalStatus: 200,
      endedBy: 'caller',
    });
  });
});

describe('the 200 OK and its ACK', () => {
  it('when the ACK is late, then the 200 is retransmitted until it comes, and not after', async () => {
    const run = await runSipp({
      target: target(),
      service: '46701234568',
      scenarioFile: scenario('uac-late-ack', { sink_port: 9 }),
    });

    expect(run.code, run.output).toBe(0);
    const inviteOks = run.messages
      .split(/^-{10,}.*$/m)
      .filter((block) => /^SIP\/2\.0 200 /m.test(block) && /^CSeq: 1 INVITE/m.test(block));
    // Sent at 0, 0.5 and 1.5 s; the ACK at 1.8 s stops the one due at 3.5 s.
    expect(inviteOks.length).toBeGreaterThanOrEqual(2);
    expect(inviteOks.length).toBeLessThanOrEqual(3);
    expect(await ended('46701234568')).toMatchObject({ outcome: 'completed', endedBy: 'caller' });
  });
});

describe('busy-then-human', () => {
  it('when a ...4860 number is called twice, then first busy, then answered; DELETE /calls starts over', async () => {
    const service = '46701234860';
    expect((await refusedCall(service, 486)).code).toBe(0);
    expect((await runSipp({ target: target(), service })).code).toBe(0);
    const calls = callee.calls().filter((call) => call.to === service);
    expect(calls.map((call) => call.outcome)).toEqual(['busy', 'completed']);
    expect(calls.every((call) => call.behaviour === 'busy-then-human')).toBe(true);

    expect((await control(`${callee.controlUrl}/calls`, { method: 'DELETE' })).status).toBe(204);
    expect(callee.calls()).toEqual([]);
    expect((await refusedCall(service, 486)).code).toBe(0);
    expect(await ended(service)).toMatchObject({ outcome: 'busy' });
  });
});

describe('rules from the control API', () => {
  it('when PUT /rules/{number} sets reject, then that number is declined until the rule is deleted', async () => {
    const service = '46700000001';
    const put = await control(`${callee.controlUrl}/rules/+${service}`, {
      method: 'PUT',
      body: { behaviour: 'reject' },
    });
    expect(put.status).toBe(200);
    expect((await refusedCall(service, 603)).code).toBe(0);

    const removed = await control(`${callee.controlUrl}/rules/${service}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect((await runSipp({ target: target(), service })).code).toBe(0);
    const outcomes = callee
      .calls()
      .filter((call) => call.to === service)
      .map((call) => call.outcome);
    expect(outcomes).toEqual(['rejected', 'completed']);
  });
});

describe('digest authentication', () => {
  let guarded: SipCallee;
  beforeAll(async () => {
    guarded = await startSipCallee({
      username: 'trunk',
      password: 's3cret',
      timings: { ringMs: 100 },
    });
  });
  afterAll(() => guarded.close());
  const guardedTarget = () => ({ host: guarded.sipHost, port: guarded.sipPort });

  it('when an INVITE comes without credentials, then 401 challenges it and the authenticated INVITE is answered', async () => {
    const run = await runSipp({
      target: guardedTarget(),
      service: '46701234567',
      scenarioFile: scenario('uac-auth', { sink_port: 9, username: 'trunk', password: 's3cret' }),
    });

    expect(run.code, run.output).toBe(0);
    expect(run.messages).toMatch(/WWW-Authenticate: Digest realm="sip-callee",nonce="[^"]+"/);
    expect(guarded.calls()).toMatchObject([{ outcome: 'completed', finalStatus: 200 }]);
  });

  it('when the password is wrong, then the INVITE is challenged again and no call is made', async () => {
    const before = guarded.calls().length;
    const run = await runSipp({
      target: guardedTarget(),
      service: '46701234568',
      scenarioFile: scenario('uac-auth-wrong', { sink_port: 9, username: 'trunk', password: 'x' }),
    });

    expect(run.code, run.output).toBe(0);
    expect(countMessages(run.messages, 'SIP/2.0 401 ')).toBe(2);
    expect(guarded.calls()).toHaveLength(before);
  });

  it('when a plain uac ignores the challenge, then its call fails', async () => {
    const run = await runSipp({
      target: guardedTarget(),
      service: '46701234569',
      timeoutSeconds: 5,
    });

    expect(run.code).not.toBe(0);
    expect(countMessages(run.messages, 'SIP/2.0 200 ')).toBe(0);
  });
});
