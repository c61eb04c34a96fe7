import path from 'node:path';

/**
 * MIME types by extension: enough to label read_media_file results and resources, not a
 * full registry. The image and audio entries are the official server's, so media files
 * come back as the same content types.
 */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  // images
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.avif': 'image/avif',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  // audio
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
  '.m4a': 'audio/mp4',
  '.aac': 'audio/aac',
  '.opus': 'audio/opus',
  // video
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  // documents and archives
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.wasm': 'application/wasm',
  // text
  '.txt': 'text/plain',
  '.log': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.cjs': 'text/javascript',
  '.ts': 'text/x-typescript',
  '.tsx': 'text/x-typescript',
  '.jsx': 'text/javascript',
  '.py': 'text/x-python',
  '.rs': 'text/x-rust',
  '.go': 'text/x-go',
  '.java': 'text/x-java',
  '.c': 'text/x-c',
  '.h': 'text/x-c',
  '.cpp': 'text/x-c++',
  '.sh': 'application/x-sh',
  '.json': 'application/json',
  '.jsonl': 'application/jsonl',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.toml': 'application/toml',
  '.sql': 'application/sql',
};

export const DEFAULT_MIME_TYPE = 'application/octet-stream';

/** The MIME type for a path's extension (case-insensitive), or application/octet-stream. */
export function mimeTypeOf(file: string): string {
  return BY_EXTENSION[path.extname(file).toLowerCase()] ?? DEFAULT_MIME_TYPE;
}

const TEXT_APPLICATION_TYPES = new Set([
  'application/json',
  'application/jsonl',
  'application/xml',
  'application/yaml',
  'application/toml',
  'application/sql',
  'application/x-sh',
  'image/svg+xml',
]);

/** Whether content of this type is text a model can read as such (a resource's `text` rather than `blob`). */
export function isTextMime(mimeType: string): boolean {
  const base = mimeType.split(';')[0].trim().toLowerCase();
  return base.startsWith('text/') || TEXT_APPLICATION_TYPES.has(base) || base.endsWith('+json') || base.endsWith('+xml');
}

/**
 * The MIME type of a file's content, as resources/read and prompts report it: the
 * extension's type when known, else text/plain for text and application/octet-stream
 * for binary content (a NUL byte in the first 8 KB).
 */
export function contentMimeType(file: string, data: Uint8Array): string {
  const byExtension = mimeTypeOf(file);
  if (byExtension !== DEFAULT_MIME_TYPE) return byExtension;
  return looksBinary(data) ? DEFAULT_MIME_TYPE : 'text/plain';
}

/**
 * The MIME type resources/list can state without reading the file: the extension's type
 * when known, else none (resources/read tells text from binary by reading it).
 */
export function listedMimeType(file: string): string | undefined {
  const byExtension = mimeTypeOf(file);
  return byExtension === DEFAULT_MIME_TYPE ? undefined : byExtension;
}

/** A NUL byte in the first 8 KB: the test git and grep use to call content binary. */
export function looksBinary(data: Uint8Array): boolean {
  return data.subarray(0, 8192).includes(0);
}
