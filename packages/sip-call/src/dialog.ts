// The confirmed dialog after a 2xx (RFC 3261 §12-13): ACK, BYE from our side, and the routing of
// the callee's in-dialog requests (BYE, OPTIONS) back to the call.
import type { NameAddr, SipRequest, SipResponse, SipStack } from 'sip';
import { makeResponse, stringifyUri } from 'sip';

/** How long we wait for the answer to our BYE before considering the call ended anyway. */
const BYE_WAIT_MS = 4000;

export class Dialog {
  private readonly target: string;
  private readonly route: NameAddr[] | undefined;
  private cseq: number;

  constructor(
    private readonly stack: SipStack,
    private readonly answer: SipResponse,
    invite: SipRequest,
  ) {
    const contact = answer.headers.contact?.[0]?.uri;
    this.target = contact ? stringifyUri(contact) : invite.uri;
    const recordRoute = answer.headers['record-route'];
    this.route = recordRoute && recordRoute.length > 0 ? [...recordRoute].reverse() : undefined;
    this.cseq = invite.headers.cseq.seq;
  }

  /** ACK for the 2xx; repeated for each retransmission of the 2xx. */
  ack(response: SipResponse = this.answer): void {
    this.stack.send({
      method: 'ACK',
      uri: this.target,
      headers: {
        to: response.headers.to,
        from: response.headers.from,
        'call-id': response.headers['call-id'],
        cseq: { seq: response.headers.cseq.seq, method: 'ACK' },
        via: [],
        ...(this.route && { route: this.route }),
        'max-forwards': 70,
      },
    });
  }

  bye(): Promise<void> {
    this.cseq++;
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, BYE_WAIT_MS);
      this.stack.send(
        {
          method: 'BYE',
          uri: this.target,
          headers: {
            to: this.answer.headers.to,
            from: this.answer.headers.from,
            'call-id': this.answer.headers['call-id'],
            cseq: { seq: this.cseq, method: 'BYE' },
            ...(this.route && { route: this.route }),
            'max-forwards': 70,
          },
        },
        (response) => {
          if (response.status >= 200) {
            clearTimeout(timer);
            resolve();
          }
        },
      );
    });
  }

  /** Answers a request of the callee inside this dialog; true when it was a BYE. */
  answerRequest(request: SipRequest): boolean {
    if (request.method === 'BYE') {
      this.stack.send(makeResponse(request, 200, 'OK'));
      return true;
    }
    if (request.method === 'OPTIONS' || request.method === 'INFO')
      this.stack.send(makeResponse(request, 200, 'OK'));
    else if (request.method !== 'ACK')
      this.stack.send(makeResponse(request, 488, 'Not Acceptable Here'));
    return false;
  }
}
