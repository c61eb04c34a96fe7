// A result as a plain-text table for clients that show text.

function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(/\r?\n/g, '\\n').replace(/\|/g, '\\|');
}

/** A Markdown table of `rows` under `columns`. */
export function renderTable(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  if (columns.length === 0) return '';
  const lines = [`| ${columns.map(cellText).join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.map(cellText).join(' | ')} |`);
  return lines.join('\n');
}
