/** The Postgres schema of the connector's submissions, receipts, inbound parts and its outbox. */
export const SMSC_CONNECTOR_SCHEMA = 'smsc_connector';
