/** How a response body is turned into something a model reads. */
export type ContentKind = 'html' | 'text' | 'image' | 'pdf' | 'binary';

export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

export function charsetOf(contentType: string | undefined): string | undefined {
  return /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
}

export function kindOf(contentType: string | undefined, body: Buffer): ContentKind {
  const type = mediaType(contentType);
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('image/') && type !== 'image/svg+xml') return 'image';
  if (
    type.startsWith('text/') ||
    type === 'image/svg+xml' ||
    /^application\/(json|xml|javascript|ecmascript|x-yaml|yaml|toml|x-sh|graphql|ld\+json|rss\+xml|atom\+xml)$/.test(type) ||
    /\+(json|xml)$/.test(type)
  ) {
    return 'text';
  }
  // No or a vague type: look at the bytes.
  const head = body.subarray(0, 1024);
  if (head.includes(0)) return body.subarray(0, 5).toString('latin1') === '%PDF-' ? 'pdf' : 'binary';
  const start = head.toString('utf8').trimStart().slice(0, 100).toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'html';
  return 'text';
}

/** Decodes with the declared charset (or a <meta charset> in the first bytes), else UTF-8. */
export function decodeBody(body: Uint8Array, contentType: string | undefined, kind: ContentKind): string {
  let charset = charsetOf(contentType);
  if (!charset && kind === 'html') {
    const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, 2048)).toString('latin1');
    charset = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  }
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
