/** RFC 4180 CSV of one page: every field quoted when it holds a comma, quote or line break. */
export function toCsv(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const field = (value: unknown) => {
    const text = value === null || value === undefined ? '' : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [columns, ...rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}
