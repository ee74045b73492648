/** The Postgres schema of the RCS tables, its outbox and its rate buckets. */
export const RCS_SCHEMA = 'rcs';
