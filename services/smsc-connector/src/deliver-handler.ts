import { enqueueOutbox } from '@msg/bus';
import { makeEvent, SMS_INBOUND_EVENT, type SmsInbound, Topics } from '@msg/contracts';
import { createGroupCommit, type Sql, withTransaction } from '@msg/db';
import type { Logger } from '@msg/logger';
import { decodeSmppPayload } from '@msg/sms-text';
import type pg from 'pg';
import { readDeliverSmOctets } from './deliver-sm-octets.js';
import { isReceipt, parseDeliveryReceipt } from './delivery-receipt.js';
import type { ConnectorMetrics } from './metrics.js';
import { applyReceipts, type ScopedReceipt } from './receipt-store.js';
import { SMSC_CONNECTOR_SCHEMA } from './schema.js';
import { fromSmppAddress } from './smpp-address.js';
import type { DeliverSm, SmppBind } from './smpp-bind.js';

export interface DeliverHandlerOptions {
  pool: pg.Pool;
  metrics: ConnectorMetrics;
  logger: Logger;
}

const num = (value: unknown) => (typeof value === 'number' ? value : 0);

/**
 * Stores what a deliver_sm carries — a delivery receipt or a mobile-originated SMS — with its
 * events in one transaction. The bind answers deliver_sm_resp only after this resolves; when it
 * throws, the SMSC is answered with an error and sends the deliver_sm again.
 */
export function createDeliverHandler({ pool, metrics, logger }: DeliverHandlerOptions) {
  // Receipts that arrive while a commit runs are stored together in the next one; each
  // deliver_sm_resp still waits for the commit that holds its receipt.
  const receipts = createGroupCommit(pool, (client, batch: ScopedReceipt[]) =>
    applyReceipts(client, batch),
  );
  return async function handleDeliverSm(bind: SmppBind, { pdu, octets }: DeliverSm): Promise<void> {
    const wire = readDeliverSmOctets(octets);
    const esmClass = wire?.esmClass ?? num(pdu.esm_class);
    if (isReceipt(esmClass, pdu.receipted_message_id)) {
      const receiptText = wire ? safeDecode(wire.dataCoding, wire.payload, 0) : '';
      const receipt = parseDeliveryReceipt({
        receiptedMessageId: pdu.receipted_message_id,
        messageState: pdu.message_state,
        text: receiptText,
      });
      if (!receipt) {
        // Intermediate notifications (ENROUTE, ACCEPTD) or unreadable ones: acknowledged, ignored.
        logger.info('receipt without a final state ignored', { bind: bind.name });
        return;
      }
      const outcome = await receipts.add({ scope: bind.scope, receipt, receivedAt: new Date() });
      metrics.receipts.inc({ state: receipt.state });
      if (outcome === 'orphan')
        logger.info('receipt before its submission; parked', { bind: bind.name });
      return;
    }
    if (!wire) {
      logger.warn('deliver_sm unreadable; acknowledged and dropped', { bind: bind.name });
      return;
    }
    let decoded: ReturnType<typeof decodeSmppPayload>;
    try {
      decoded = decodeSmppPayload({
        dataCoding: wire.dataCoding,
        payload: wire.payload,
        esmClass: wire.esmClass,
      });
    } catch (error) {
      // Binary or unknown alphabets cannot become SmsInbound text; resending would not help.
      logger.warn('inbound deliver_sm not decodable; dropped', { error: String(error) });
      return;
    }
    metrics.inbound.inc();
    const from = fromSmppAddress(wire.source);
    const to = fromSmppAddress(wire.destination);
    const received = {
      from,
      to,
      text: decoded.text,
      smscMessageId: typeof pdu.receipted_message_id === 'string' ? pdu.receipted_message_id : null,
    };
    await withTransaction(pool, async (client) => {
      const inbound = decoded.concat
        ? await reassemble(client, received, decoded.concat)
        : {
            from,
            to,
            text: decoded.text,
            receivedAt: new Date().toISOString(),
            ...(received.smscMessageId ? { smscMessageId: received.smscMessageId } : {}),
          };
      if (!inbound) return;
      await enqueueOutbox(client, SMSC_CONNECTOR_SCHEMA, Topics.smsInbound, [
        { key: inbound.to, value: makeEvent<SmsInbound>(SMS_INBOUND_EVENT, inbound) },
      ]);
    });
  };
}

function safeDecode(dataCoding: number, payload: Buffer, esmClass: number): string {
  try {
    return decodeSmppPayload({ dataCoding, payload, esmClass }).text;
  } catch {
    return payload.toString('latin1');
  }
}

/** Keeps one part; when the last one arrives, returns the whole message and forgets the parts. */
async function reassemble(
  sql: Sql,
  part: { from: string; to: string; text: string; smscMessageId: string | null },
  concat: { reference: number; total: number; sequence: number },
): Promise<SmsInbound | undefined> {
  // Parts of one message arriving at once (several sessions, several replicas) must see each other.
  await sql.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `smsc_connector/inbound/${part.from}/${concat.reference}/${concat.total}`,
  ]);
  await sql.query(
    `INSERT INTO "${SMSC_CONNECTOR_SCHEMA}"."inbound_part"
       ("source_addr", "ref", "total", "seq", "destination_addr", "text", "smsc_message_id")
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [
      part.from,
      concat.reference,
      concat.total,
      concat.sequence,
      part.to,
      part.text,
      part.smscMessageId,
    ],
  );
  const { rows } = await sql.query<{ seq: number; text: string; received_at: Date }>(
    `SELECT "seq", "text", "received_at" FROM "${SMSC_CONNECTOR_SCHEMA}"."inbound_part"
      WHERE "source_addr" = $1 AND "ref" = $2 AND "total" = $3 ORDER BY "seq" FOR UPDATE`,
    [part.from, concat.reference, concat.total],
  );
  if (rows.length < concat.total) return undefined;
  await sql.query(
    `DELETE FROM "${SMSC_CONNECTOR_SCHEMA}"."inbound_part"
      WHERE "source_addr" = $1 AND "ref" = $2 AND "total" = $3`,
    [part.from, concat.reference, concat.total],
  );
  return {
    from: part.from,
    to: part.to,
    text: rows.map((row) => row.text).join(''),
    receivedAt: new Date().toISOString(),
    ...(part.smscMessageId ? { smscMessageId: part.smscMessageId } : {}),
  };
}
