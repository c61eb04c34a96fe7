/** `note:///NAME` <-> NAME. Names are percent-encoded in URIs (they may hold spaces). */
export const NOTE_TEMPLATE = 'note:///{name}';

export function noteUri(name: string): string {
  return `note:///${encodeURIComponent(name)}`;
}

export function noteNameFromUri(uri: string): string | undefined {
  if (!uri.startsWith('note:///')) return undefined;
  try {
    return decodeURIComponent(uri.slice('note:///'.length));
  } catch {
    return undefined;
  }
}
