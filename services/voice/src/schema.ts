/** The Postgres schema of the voice tables, its outbox, rate buckets and Idempotency-Key records. */
export const VOICE_SCHEMA = 'voice';
