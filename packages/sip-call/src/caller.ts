// A SIP user agent client on one UDP port (sip.js stack) that places calls through one trunk.

import { setMaxListeners } from 'node:events';
import type { SipRequest } from 'sip';
import * as sip from 'sip';
import { type CallContext, placeCall } from './call.js';
import { checkedUdpPort, freeUdpPort } from './rtp/ports.js';
import type { CallOutcome, CallRequest, SipCaller, SipCallerOptions } from './types.js';

export async function createSipCaller(options: SipCallerOptions): Promise<SipCaller> {
  const localAddress = options.localAddress ?? '127.0.0.1';
  // sip.js treats port 0 as "default 5060" and cannot report the port it bound, so a free port is
  // picked first.
  // A given port is checked first: sip.js would crash the process on a port in use (no 'error'
  // listener on its socket).
  const sipPort = options.sipPort
    ? await checkedUdpPort(localAddress, options.sipPort)
    : await freeUdpPort(localAddress);
  const dialogs: CallContext['dialogs'] = new Map();
  const onRequest = (request: SipRequest) => {
    const inDialog = dialogs.get(request.headers['call-id']);
    if (inDialog) inDialog(request);
    else if (request.method === 'ACK') return;
    else if (request.headers.to.params.tag)
      stack.send(sip.makeResponse(request, 481, 'Call/Transaction Does Not Exist'));
    else stack.send(sip.makeResponse(request, 405, 'Method Not Allowed')); // we do not take calls
  };
  // One stack per caller (sip.create, not the module-wide sip.start), UDP only.
  const stack = sip.create(
    { address: localAddress, port: sipPort, udp: true, tcp: false, logger: { error: () => {} } },
    onRequest,
  );
  const context: CallContext = {
    stack,
    trunk: options.trunk,
    localAddress,
    sipPort,
    rtpPorts: options.rtpPorts ?? [0, 0],
    amd: options.amd ?? {},
    dialogs,
  };
  const closing = new AbortController();
  setMaxListeners(0, closing.signal); // every call in progress listens to it
  const active = new Set<Promise<unknown>>();
  let closed = false;

  return {
    async call(request: CallRequest, signal?: AbortSignal): Promise<CallOutcome> {
      if (closed) return { kind: 'error', message: 'the SIP caller is closed' };
      const combined = signal ? AbortSignal.any([signal, closing.signal]) : closing.signal;
      const running = placeCall(context, request, combined);
      active.add(running);
      try {
        const report = await running;
        options.onCallEnded?.(report);
        return report.outcome;
      } finally {
        active.delete(running);
      }
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      closing.abort();
      await Promise.allSettled([...active]);
      stack.destroy();
    },
  };
}
