/**
 * Types for the client side of the `smpp` package (0.5.x ships none) — only what the connector
 * uses. PDU fields keep SMPP 3.4's snake_case names, as the package does.
 */
declare module 'smpp' {
  import type { Socket } from 'node:net';

  namespace smpp {
    type PduFields = Record<string, unknown>;

    interface Pdu {
      command: string;
      command_status: number;
      sequence_number: number;
      [field: string]: unknown;
      response(fields?: PduFields): Pdu;
    }

    type OnPdu = (pdu: Pdu) => void;

    interface Session {
      socket: Socket;
      send(pdu: Pdu, onResponse?: OnPdu): boolean;
      close(callback?: () => void): void;
      destroy(callback?: () => void): void;
      bind_transceiver(fields: PduFields, onResponse?: OnPdu): boolean;
      submit_sm(fields: PduFields, onResponse?: OnPdu): boolean;
      enquire_link(fields?: PduFields, onResponse?: OnPdu): boolean;
      unbind(fields?: PduFields, onResponse?: OnPdu): boolean;
      on(event: 'error', listener: (error: Error) => void): this;
      on(event: 'close' | 'connect', listener: () => void): this;
      on(event: string, listener: OnPdu): this;
      removeAllListeners(event?: string): this;
    }

    interface ConnectOptions {
      host: string;
      port: number;
    }
  }

  const smpp: {
    connect(options: smpp.ConnectOptions, listener?: () => void): smpp.Session;
  };
  export = smpp;
}
