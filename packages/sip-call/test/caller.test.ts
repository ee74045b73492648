// The caller's own failures: bad requests, a trunk that is not there, abort and close.
import { createSocket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { type CallRequest, createSipCaller, type SipCaller } from '../src/index.js';
import { freeUdpPort } from '../src/rtp/ports.js';
import { type SippRun, SKIP_MESSAGE, sippInstalled, startSipp } from './sipp.js';

const request: CallRequest = {
  from: '+46700000001',
  to: '+46700000002',
  audio: Buffer.alloc(1600, 0xff),
  playCount: 1,
  ringTimeoutMs: 800,
  machineDetection: false,
};

let caller: SipCaller | undefined;
let sipp: SippRun | undefined;
afterEach(async () => {
  await caller?.close();
  sipp?.kill();
  caller = undefined;
  sipp = undefined;
});

describe('SIP caller', () => {
  it.each([
    [{ playCount: 0 }, 'playCount must be an integer from 1 to 10'],
    [{ playCount: 11 }, 'playCount must be an integer from 1 to 10'],
    [{ audio: Buffer.alloc(0) }, 'audio must not be empty'],
    [{ to: 'sip:x@y' }, 'to must be a phone number'],
    [{ ringTimeoutMs: 0 }, 'ringTimeoutMs must be positive'],
  ])(
    'when the request has %j, then the outcome is an error naming the rule',
    async (change, message) => {
      caller = await createSipCaller({ trunk: { host: '127.0.0.1', port: 9 } });
      expect(await caller.call({ ...request, ...change })).toEqual({ kind: 'error', message });
    },
  );

  it('when nothing answers at the trunk address, then the outcome is an error after the ring timeout', async () => {
    const port = await freeUdpPort('127.0.0.4');
    caller = await createSipCaller({ trunk: { host: '127.0.0.4', port } });
    const started = Date.now();
    const outcome = await caller.call(request);
    expect(outcome).toEqual({ kind: 'error', message: 'the trunk did not respond to the INVITE' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(request.ringTimeoutMs);
  });

  it('when the SIP port is taken, then creating the caller fails instead of crashing the process', async () => {
    const taken = createSocket('udp4');
    await new Promise<void>((r) => taken.bind(0, '127.0.0.1', () => r()));
    try {
      await expect(
        createSipCaller({ trunk: { host: '127.0.0.1', port: 9 }, sipPort: taken.address().port }),
      ).rejects.toThrow(/EADDRINUSE/);
    } finally {
      taken.close();
    }
  });

  it('when the caller is closed, then new calls are refused', async () => {
    caller = await createSipCaller({ trunk: { host: '127.0.0.1', port: 9 } });
    await caller.close();
    expect(await caller.call(request)).toEqual({
      kind: 'error',
      message: 'the SIP caller is closed',
    });
  });
});

describe.skipIf(!sippInstalled)(
  sippInstalled ? 'SIP caller against SIPp' : `SIPp (${SKIP_MESSAGE})`,
  () => {
    it('when the call is aborted while ringing, then it is cancelled and the outcome is an error', async () => {
      sipp = await startSipp('uas-ring.xml');
      caller = await createSipCaller({ trunk: { host: sipp.host, port: sipp.port } });
      const abort = new AbortController();
      setTimeout(() => abort.abort(), 500);
      const outcome = await caller.call({ ...request, ringTimeoutMs: 10_000 }, abort.signal);
      expect(outcome).toEqual({ kind: 'error', message: 'call aborted' });
      const result = await sipp.done;
      expect(result.code, result.output).toBe(0); // SIPp got the CANCEL and the ACK of its 487
    });

    it('when the caller closes during a call, then the call is hung up with what was played', async () => {
      sipp = await startSipp('uas-answer.xml', { rtpEcho: true });
      const running = await createSipCaller({ trunk: { host: sipp.host, port: sipp.port } });
      caller = running;
      const pending = running.call({
        ...request,
        audio: Buffer.alloc(8000 * 5, 0xff),
        ringTimeoutMs: 5000,
      });
      setTimeout(() => void running.close(), 1000);
      const outcome = await pending;
      expect(outcome.kind).toBe('answered');
      if (outcome.kind === 'answered') expect(outcome.listenedSeconds).toBeLessThan(2);
      expect((await sipp.done).code).toBe(0); // SIPp got our BYE
    });
  },
);
