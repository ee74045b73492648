/**
 * The smallest SQL surface shared code needs. A pg Pool, a pg PoolClient (inside a transaction) and
 * `prismaSql(tx)` all satisfy it, so outbox and dedupe helpers work on any of them.
 */
export interface Sql {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<{ rows: R[]; rowCount: number | null }>;
}
