// The URIs of this server's resources. Names are percent-encoded, so any table name fits.
export const SCHEMA_URI = 'sqlite://schema';
export const INSIGHTS_URI = 'memo://insights';
export const TABLE_TEMPLATE = 'sqlite://table/{name}';
export const ROWS_TEMPLATE = 'sqlite://rows/{name}/{after}';

export const tableUri = (name: string) => `sqlite://table/${encodeURIComponent(name)}`;
export const rowsUri = (name: string, after = '0') => `sqlite://rows/${encodeURIComponent(name)}/${encodeURIComponent(after)}`;

/** The table a table or rows URI names, or undefined. */
export function tableOfUri(uri: string): string | undefined {
  const match = /^sqlite:\/\/(?:table\/([^/]+)|rows\/([^/]+)\/[^/]*)$/.exec(uri);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1] ?? match[2]);
  } catch {
    return undefined;
  }
}
