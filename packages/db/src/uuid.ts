/** The canonical text form of a uuid: 8-4-4-4-12 hex digits, any case, any version. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `text` can be compared with a `uuid` column. Ids from paths, reports and peers are
 * checked first: Postgres refuses the whole statement (22P02) on a text that is no uuid, and a
 * malformed id is simply no row of ours.
 */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}
