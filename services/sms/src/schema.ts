/** The Postgres schema of the SMS tables, its outbox, rate buckets and Idempotency-Key records. */
export const SMS_SCHEMA = 'sms';
