/** The Postgres schema of the reply-path tables, its outbox and its rate buckets. */
export const REPLYPATH_SCHEMA = 'replypath';
