import { fileURLToPath, pathToFileURL } from 'node:url';

/** The `file://` URI of an absolute path (percent-encoded as RFC 8089 asks). */
export function fileUri(absolute: string): string {
  return pathToFileURL(absolute).href;
}

/** The absolute path of a `file://` URI, or undefined for anything else. */
export function pathOfFileUri(uri: string): string | undefined {
  if (!uri.startsWith('file://')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
