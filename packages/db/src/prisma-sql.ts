import type { Sql } from './sql.js';

/** The raw-query half of a Prisma client or interactive-transaction client. */
export interface PrismaRawQueries {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
}

/**
 * Adapts a Prisma transaction client to `Sql`, so shared helpers (outbox, dedupe) can write in the
 * same transaction as Prisma model calls.
 *
 * Prisma has no single call returning both rows and an affected-row count, so the statement
 * decides: anything that returns rows (SELECT, WITH, VALUES, ... RETURNING) goes through
 * `$queryRawUnsafe` and counts its rows; INSERT/UPDATE/DELETE and DDL without RETURNING go through
 * `$executeRawUnsafe` and report the count with no rows. A data-changing CTE needs RETURNING to
 * have its rows counted. Values come back as Prisma decodes them (bigint as BigInt, timestamps as
 * Date), which differs from pg (bigint as string).
 */
export function prismaSql(tx: PrismaRawQueries): Sql {
  return {
    async query<R extends Record<string, unknown> = Record<string, unknown>>(
      text: string,
      values: unknown[] = [],
    ) {
      if (returnsRows(text)) {
        const rows = await tx.$queryRawUnsafe<R[]>(text, ...values);
        return { rows, rowCount: rows.length };
      }
      const rowCount = await tx.$executeRawUnsafe(text, ...values);
      return { rows: [], rowCount };
    },
  };
}

const ROW_RETURNING_COMMANDS = new Set(['select', 'with', 'values', 'table', 'show', 'explain']);

/** Whether a statement produces a result set; see `prismaSql`. Exported for its unit test. */
export function returnsRows(text: string): boolean {
  const code = withoutLiteralsAndComments(text);
  const command = /^[\s(]*([a-z]+)/i.exec(code)?.[1]?.toLowerCase();
  if (command === undefined) return false;
  if (ROW_RETURNING_COMMANDS.has(command)) return true;
  return /\breturning\b/i.test(code);
}

/**
 * Blanks out comments, string literals, quoted identifiers and dollar-quoted bodies, so words
 * inside them ('returning', "select") cannot change the decision.
 */
function withoutLiteralsAndComments(text: string): string {
  return text.replace(
    /--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'|"(?:[^"]|"")*"|(\$(?:[a-z_][a-z_0-9]*)?\$)[\s\S]*?\1/gi,
    ' ',
  );
}
