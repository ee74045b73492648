/**
 * The part of the `smpp` package (0.5.x, no published types) that this package uses. PDU fields
 * keep the package's snake_case names, which are SMPP 3.4's own.
 */
declare module 'smpp' {
  import type { Server as NetServer, Socket } from 'node:net';

  namespace smpp {
    type PduFields = Record<string, unknown>;

    interface Pdu {
      command: string;
      command_id: number;
      command_status: number;
      sequence_number: number;
      [field: string]: unknown;
      response(fields?: PduFields): Pdu;
      isResponse(): boolean;
    }

    type PduCallback = (pdu: Pdu) => void;

    interface Session {
      socket: Socket;
      send(pdu: Pdu, onResponse?: PduCallback, onSent?: PduCallback): boolean;
      close(callback?: () => void): void;
      destroy(callback?: () => void): void;
      pause(): void;
      resume(): void;
      bind_transceiver(fields: PduFields, onResponse?: PduCallback): boolean;
      bind_transmitter(fields: PduFields, onResponse?: PduCallback): boolean;
      bind_receiver(fields: PduFields, onResponse?: PduCallback): boolean;
      submit_sm(fields: PduFields, onResponse?: PduCallback): boolean;
      deliver_sm(fields: PduFields, onResponse?: PduCallback): boolean;
      enquire_link(fields: PduFields, onResponse?: PduCallback): boolean;
      unbind(fields: PduFields, onResponse?: PduCallback): boolean;
      on(event: 'error', listener: (error: Error) => void): this;
      on(event: 'close' | 'connect', listener: () => void): this;
      /** 'pdu' for every PDU, or a command name ('deliver_sm', ...) for PDUs of that command. */
      on(event: string, listener: PduCallback): this;
      once(event: string, listener: (...args: never[]) => void): this;
      removeAllListeners(event?: string): this;
    }

    interface Server extends NetServer {
      sessions: Session[];
    }

    interface ConnectOptions {
      url?: string;
      host?: string;
      port?: number;
      auto_enquire_link_period?: number;
    }
  }

  const smpp: {
    createServer(
      options: Record<string, unknown>,
      listener: (session: smpp.Session) => void,
    ): smpp.Server;
    connect(options: smpp.ConnectOptions, listener?: () => void): smpp.Session;
    PDU: new (command: string, fields?: smpp.PduFields) => smpp.Pdu;
  };
  export = smpp;
}
