/**
 * Schema names reach SQL as identifiers, which cannot be bound as parameters. Accept only plain
 * lower-case names (what our services use) so quoting can never be escaped.
 */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function quoteSchema(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(
      `invalid schema name ${JSON.stringify(schema)}: use lower-case letters, digits and _ (at most 63)`,
    );
  }
  return `"${schema}"`;
}
