/**
 * Quotes a service's schema name for use in SQL text. Schema names come from code, not users,
 * but they are spliced into statements, so anything beyond a plain identifier is refused.
 */
export function quoteSchema(schema: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`bus: invalid schema name ${JSON.stringify(schema)}`);
  }
  return `"${schema}"`;
}
