import { filterByPrefix, type BaseContext } from '@mcp-reference/shared';
import type { SqliteContext } from './context.js';

/** Table and view names starting with what was typed (templates and prompts). */
export async function completeTableName(typed: string, ctx: BaseContext & SqliteContext): Promise<string[]> {
  const schema = await ctx.schema(ctx.signal);
  return filterByPrefix(schema.tables.map((t) => t.name), typed);
}

/** Column names of the table given in the context arguments (`table`), or of every table. */
export async function completeColumnName(
  typed: string,
  ctx: BaseContext & SqliteContext,
  context: { arguments: Record<string, string> },
): Promise<string[]> {
  const schema = await ctx.schema(ctx.signal);
  const table = context.arguments.table ?? context.arguments.table_name;
  const tables = table ? schema.tables.filter((t) => t.name === table) : schema.tables;
  return filterByPrefix([...new Set(tables.flatMap((t) => t.columns.map((c) => c.name)))], typed);
}
